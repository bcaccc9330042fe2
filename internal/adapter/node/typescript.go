package node

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// tsRunner is how a .ts program runs: the node options that make it run,
// whether Node's own type stripping runs it (the .ts files are then the
// scripts, as written, with no source map), and, for the runtime line,
// what runs it.
type tsRunner struct {
	opts     []string
	stripped bool
	how      string
}

// typeScriptRunner chooses how node runs a .ts program: as runtimeArgs
// already say (a loader of tsx or ts-node, or Node's type stripping);
// else with the project's own tsx (--import tsx) or ts-node
// (-r ts-node/register), found in a node_modules above the program, since
// that is what the project's scripts run it with and it also compiles
// what stripping refuses (enums, namespaces); else with Node's type
// stripping, by default from 23.6 and 22.18, behind a flag from 22.6.
func typeScriptRunner(node, program string, runtimeArgs []string) (tsRunner, error) {
	if r, ok := runnerInArgs(runtimeArgs); ok {
		return r, nil
	}
	if r, ok := projectRunner(filepath.Dir(program)); ok {
		return r, nil
	}
	release, version, err := nodeVersion(context.Background(), node)
	if err != nil {
		return tsRunner{}, err
	}
	switch {
	case release.AtLeast(23, 6) || release[0] == 22 && release.AtLeast(22, 18):
		return tsRunner{stripped: true, how: "Node's own type stripping"}, nil
	case RunsTypeScript(version):
		return tsRunner{opts: []string{"--experimental-strip-types"}, stripped: true, how: "Node's type stripping (--experimental-strip-types)"}, nil
	}
	return tsRunner{}, fmt.Errorf("cannot run %s: node %s cannot run TypeScript itself (Node 22.6 or later can), and no tsx or ts-node was found in a node_modules above it; install one (npm install --save-dev tsx), upgrade Node, or compile with tsc and debug the .js (its source map is followed)", filepath.Base(program), version)
}

// runnerInArgs reads, from node options, a TypeScript runner they already
// load or Node's type stripping they turn on.
func runnerInArgs(opts []string) (tsRunner, bool) {
	for i, o := range opts {
		name, value, _ := strings.Cut(o, "=")
		switch {
		case name == "--experimental-strip-types":
			return tsRunner{stripped: true, how: "Node's type stripping (" + o + ")"}, true
		case name == "--experimental-transform-types":
			return tsRunner{how: "Node's " + o}, true
		case slices.Contains(loaderFlags, name):
			if value == "" && i+1 < len(opts) {
				value = opts[i+1]
			}
			if strings.Contains(value, "tsx") || strings.Contains(value, "ts-node") {
				return tsRunner{how: name + " " + value}, true
			}
		}
	}
	return tsRunner{}, false
}

// projectRunner finds tsx or ts-node in the nearest node_modules at or
// above dir that has either.
func projectRunner(dir string) (tsRunner, bool) {
	for {
		mods := filepath.Join(dir, "node_modules")
		if tsx := filepath.Join(mods, "tsx"); isPackage(tsx) {
			return tsRunner{opts: []string{"--import", tsxEntry(tsx)}, how: "tsx from " + tsx}, true
		}
		if tsNode := filepath.Join(mods, "ts-node"); isPackage(tsNode) {
			return tsRunner{opts: []string{"-r", filepath.Join(tsNode, "register")}, how: "ts-node from " + tsNode}, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return tsRunner{}, false
		}
		dir = parent
	}
}

// tsxEntry is what --import loads tsx by: the file URL of the module its
// package.json exports as ".", since a bare "tsx" resolves from the
// working directory, which may lie outside the project; a package that
// exports no file there is left to that resolution.
func tsxEntry(dir string) string {
	var pkg struct {
		Exports json.RawMessage `json:"exports"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil || json.Unmarshal(data, &pkg) != nil {
		return "tsx"
	}
	var exports map[string]json.RawMessage
	var entry string
	if json.Unmarshal(pkg.Exports, &exports) != nil || json.Unmarshal(exports["."], &entry) != nil || !strings.HasPrefix(entry, "./") {
		return "tsx"
	}
	path := filepath.Join(dir, filepath.FromSlash(entry))
	if _, err := os.Stat(path); err != nil {
		return "tsx"
	}
	return fileURL(platform.Current(), path)
}

func isPackage(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "package.json"))
	return err == nil
}
