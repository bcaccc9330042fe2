package node

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// nodeChoice is the node that runs a program, and why it is that one.
type nodeChoice struct {
	path string
	why  string
}

// runtimeLine is the one line an agent reads in data.runtime.
func (c nodeChoice) runtimeLine() string {
	return "node: " + c.path + " (" + c.why + ")"
}

// chooseNode picks the node that runs program: an explicit choice
// (runtimeExecutable, or the session's executablePath) always; else the
// version the program's project pins (.nvmrc, .node-version, package.json
// "volta") when a version manager has it installed; else PATH's.
func chooseNode(ctx context.Context, m platform.Machine, program, explicit, source string) (nodeChoice, error) {
	if explicit != "" {
		found, err := findNode(m, explicit)
		if err != nil {
			return nodeChoice{}, err
		}
		return nodeChoice{path: found.path, why: source}, nil
	}
	pin, pinned := projectPin(filepath.Dir(program))
	if pinned {
		if path, version, manager, ok := installedNode(pin.version); ok {
			return nodeChoice{path: path, why: fmt.Sprintf("%s %s: %s's %s", pin.file, pin.version, manager, version)}, nil
		}
	}
	found, err := findNode(m, "")
	if err != nil {
		return nodeChoice{}, err
	}
	path, why := found.path, found.origin
	if _, version, err := nodeVersion(ctx, path); err == nil {
		why += ", " + version
	}
	if pinned {
		why += fmt.Sprintf("; %s asks for %s, which no version manager here has installed (looked in %s)", pin.file, pin.version, strings.Join(managerNames(), ", "))
	}
	return nodeChoice{path: path, why: why}, nil
}

// versionPin is the Node version a project asks for, and where it says so.
type versionPin struct {
	file    string
	version string
}

// projectPin finds the nearest version pin at or above dir: .nvmrc (nvm,
// fnm), .node-version (fnm, nodenv and others), or package.json's
// "volta": {"node": ...}.
func projectPin(dir string) (versionPin, bool) {
	for {
		for _, name := range []string{".nvmrc", ".node-version"} {
			if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				if v := pinnedVersion(string(data)); v != "" {
					return versionPin{file: filepath.Join(dir, name), version: v}, true
				}
			}
		}
		var pkg struct {
			Volta struct {
				Node string `json:"node"`
			} `json:"volta"`
		}
		if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && json.Unmarshal(data, &pkg) == nil && pkg.Volta.Node != "" {
			return versionPin{file: filepath.Join(dir, "package.json") + " volta.node", version: pkg.Volta.Node}, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return versionPin{}, false
		}
		dir = parent
	}
}

// pinnedVersion is a version file's first line that is not a comment.
func pinnedVersion(text string) string {
	for line := range strings.Lines(text) {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}

// versionManager is where one Node version manager keeps its installed
// versions: one directory per version under versions (named "v22.11.0",
// or "22.11.0" for volta), with the binary at bin inside it.
type versionManager struct {
	name     string
	roots    func() []string
	versions string
	bin      string
}

// managers are the version managers looked in, in this order. Their
// layouts: nvm's $NVM_DIR/versions/node/v22.11.0/bin/node, fnm's
// $FNM_DIR/node-versions/v22.11.0/installation/bin/node, volta's
// $VOLTA_HOME/tools/image/node/22.11.0/bin/node.
var managers = []versionManager{
	{name: "nvm", roots: nvmRoots, versions: "versions/node", bin: "bin/node"},
	{name: "fnm", roots: fnmRoots, versions: "node-versions", bin: "installation/bin/node"},
	{name: "volta", roots: func() []string { return envOrHome("VOLTA_HOME", ".volta") }, versions: "tools/image/node", bin: "bin/node"},
}

func managerNames() []string {
	names := make([]string, len(managers))
	for i, m := range managers {
		names[i] = m.name
	}
	return names
}

// envOrHome is the directory an environment variable names, else the one
// under the home directory.
func envOrHome(env, dir string) []string {
	if d := os.Getenv(env); d != "" {
		return []string{d}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return []string{filepath.Join(home, dir)}
	}
	return nil
}

func nvmRoots() []string { return envOrHome("NVM_DIR", ".nvm") }

// fnmRoots: fnm keeps its versions in $FNM_DIR, else in the XDG data
// directory; older releases used ~/.fnm.
func fnmRoots() []string {
	if d := os.Getenv("FNM_DIR"); d != "" {
		return []string{d}
	}
	var roots []string
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		roots = append(roots, filepath.Join(d, "fnm"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		roots = append(roots, filepath.Join(home, ".local", "share", "fnm"), filepath.Join(home, ".fnm"))
	}
	return roots
}

// installedNode finds, among the versions the managers have installed,
// the newest that matches spec ("22", "v22.11", "22.11.0"; "node" or
// "latest" for the newest of all).
func installedNode(spec string) (path, version, manager string, ok bool) {
	want, newest := versionPrefix(nvmAlias(spec))
	if want == nil && !newest {
		return "", "", "", false
	}
	for _, m := range managers {
		var best []int
		for _, root := range m.roots() {
			dir := filepath.Join(root, m.versions)
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				have, _ := versionPrefix(e.Name())
				if len(have) != 3 || !slices.Equal(have[:len(want)], want) {
					continue
				}
				bin := filepath.Join(dir, e.Name(), m.bin)
				if _, err := os.Stat(bin); err != nil {
					continue
				}
				if best == nil || slices.Compare(have, best) > 0 {
					best, path, version = have, bin, e.Name()
				}
			}
		}
		if best != nil {
			return path, "v" + strings.TrimPrefix(version, "v"), m.name, true
		}
	}
	return "", "", "", false
}

// nvmAlias resolves an nvm alias (lts/*, lts/iron, default, or one of
// the user's) through the files nvm keeps under $NVM_DIR/alias, each
// naming a version or another alias; anything else is returned as is.
func nvmAlias(spec string) string {
	for range 5 {
		if want, newest := versionPrefix(spec); want != nil || newest {
			return spec
		}
		resolved := ""
		for _, root := range nvmRoots() {
			if data, err := os.ReadFile(filepath.Join(root, "alias", filepath.FromSlash(spec))); err == nil {
				resolved = strings.TrimSpace(string(data))
				break
			}
		}
		if resolved == "" || strings.Contains(resolved, "..") {
			return spec
		}
		spec = resolved
	}
	return spec
}

// versionPrefix reads a version or a prefix of one ("v22", "22.11.0");
// newest says the spec asks for the newest installed version. Ranges and
// aliases (lts/iron) read as neither.
func versionPrefix(spec string) (parts []int, newest bool) {
	spec = strings.TrimPrefix(strings.TrimSpace(spec), "v")
	switch spec {
	case "node", "latest", "current", "stable":
		return []int{}, true
	}
	for _, field := range strings.Split(spec, ".") {
		if field == "x" || field == "*" {
			break
		}
		n, err := strconv.Atoi(field)
		if err != nil || n < 0 {
			return nil, false
		}
		parts = append(parts, n)
	}
	if len(parts) == 0 || len(parts) > 3 {
		return nil, false
	}
	return parts, false
}
