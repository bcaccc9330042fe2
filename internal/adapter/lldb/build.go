package lldb

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// buildTimeout bounds one compiler or cargo run when the caller's context
// sets no deadline: a cold cargo build of a project with dependencies
// takes minutes.
const buildTimeout = 10 * time.Minute

// Program kinds: what scriptPath names.
const (
	kindBinary = "binary"
	kindC      = "c"
	kindCPP    = "c++"
	kindCargo  = "cargo"
)

// target is what to debug, found from the agent's scriptPath.
type target struct {
	kind string
	// path is the binary, the source file, or the Cargo project directory.
	path string
	// source is the .rs file given inside a Cargo project, if any; it
	// picks the binary when the package has several.
	source string
}

// classify decides from the path what kind of program it is.
func classify(path string) (target, error) {
	st, err := os.Stat(path)
	if err != nil {
		return target{}, fmt.Errorf("program %s: %w", path, err)
	}
	if st.IsDir() {
		if root := cargoRoot(path); root != "" {
			return target{kind: kindCargo, path: root}, nil
		}
		return target{}, fmt.Errorf("%s is a directory without Cargo.toml: pass a binary, a .c or .cpp file, or a Cargo project", path)
	}
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case ext == ".c":
		return target{kind: kindC, path: path}, nil
	case ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c++":
		return target{kind: kindCPP, path: path}, nil
	case ext == ".rs" || filepath.Base(path) == "Cargo.toml":
		if root := cargoRoot(filepath.Dir(path)); root != "" {
			src := path
			if ext != ".rs" {
				src = ""
			}
			return target{kind: kindCargo, path: root, source: src}, nil
		}
		return target{}, fmt.Errorf("%s is not inside a Cargo project (no Cargo.toml above it): build it with rustc -g and pass the binary", path)
	case st.Mode()&0o111 != 0:
		return target{kind: kindBinary, path: path}, nil
	}
	return target{}, fmt.Errorf("%s is neither an executable, a .c or .cpp file, nor part of a Cargo project", path)
}

// cargoRoot is the nearest directory at or above dir holding a Cargo.toml
// with a [package], "" when there is none.
func cargoRoot(dir string) string {
	for d := dir; ; {
		if b, err := os.ReadFile(filepath.Join(d, "Cargo.toml")); err == nil && bytes.Contains(b, []byte("[package]")) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// compilerFor is the compiler a lone source file is built with on m: cc
// or c++, else, on macOS and Windows where LLVM's names may be the only
// ones (Homebrew's llvm, LLVM's Windows installer), clang or clang++.
func compilerFor(m platform.Machine, kind string) string {
	compiler, llvm := "cc", "clang"
	if kind == kindCPP {
		compiler, llvm = "c++", "clang++"
	}
	if m.OS.Name == platform.Linux.Name {
		return compiler
	}
	if _, err := m.LookPath(compiler); err != nil {
		if _, err := m.LookPath(llvm); err == nil {
			return llvm
		}
	}
	return compiler
}

// compileFlags keep every variable and line: -O0 so that values are not
// optimised away and steps follow the source.
var compileFlags = []string{"-g", "-O0"}

// cacheRoot is where compiled lone source files are kept, per user.
func cacheRoot() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for compiled programs: %w", err)
	}
	return filepath.Join(dir, "mcp-debugger", "native"), nil
}

// compiledPath is where the binary of a lone source file goes: a
// directory named by the hash of the compiler, its flags and the source,
// so that an unchanged source is not rebuilt and an edit is. Headers are
// not part of the key. The name ends as o's programs do (.exe on Windows).
func compiledPath(o platform.OS, root, compiler, source string) (string, error) {
	// The agent's scriptPath: a device or FIFO must not be read (or
	// waited on), a huge file not held.
	src, err := userfile.Read(source)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", source, err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", compiler, strings.Join(compileFlags, " "), source)
	h.Write(src)
	key := hex.EncodeToString(h.Sum(nil))[:24]
	name := strings.TrimSuffix(filepath.Base(source), filepath.Ext(source))
	return filepath.Join(root, key, name+o.ExeSuffix), nil
}

// compile builds a lone C or C++ file into the cache unless an identical
// build is there already; built reports whether the compiler ran. The
// compiler's own messages are the error text, verbatim.
func compile(ctx context.Context, o platform.OS, root, compiler, source string) (bin string, built bool, err error) {
	bin, err = compiledPath(o, root, compiler, source)
	if err != nil {
		return "", false, err
	}
	if adapter.IsExecutable(bin) {
		return bin, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", false, fmt.Errorf("cache directory for the build: %w", err)
	}
	// Build beside and rename, so that a concurrent session never runs a
	// half-written binary.
	f, err := os.CreateTemp(filepath.Dir(bin), filepath.Base(bin)+".tmp*")
	if err != nil {
		return "", false, fmt.Errorf("cache directory for the build: %w", err)
	}
	tmp := f.Name()
	f.Close()
	args := append(append([]string{}, compileFlags...), "-o", tmp, source)
	out, err := runTool(ctx, filepath.Dir(source), compiler, args...)
	if err != nil {
		os.Remove(tmp)
		return "", false, &adapter.BuildError{Command: strings.Join(append([]string{compiler}, compileFlags...), " ") + " " + source, Output: out}
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", false, fmt.Errorf("store the build: %w", err)
	}
	return bin, true, nil
}

// runTool runs a build tool in its own process group, killed with it when
// ctx ends, and returns its combined output.
func runTool(ctx context.Context, dir, name string, args ...string) (string, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, buildTimeout)
		defer cancel()
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	p, err := proc.Start(cmd)
	if err != nil {
		return "", fmt.Errorf("start %s: %w", name, err)
	}
	select {
	case <-p.Done():
	case <-ctx.Done():
		p.Kill()
		<-p.Done()
		return out.String(), fmt.Errorf("%s: %w", name, ctx.Err())
	}
	if code := p.ExitCode(); code != 0 {
		return strings.TrimRight(out.String(), "\n"), fmt.Errorf("%s exited with %d", name, code)
	}
	return out.String(), nil
}

// cargoPackage is the part of `cargo metadata` we read.
type cargoPackage struct {
	Name         string `json:"name"`
	ManifestPath string `json:"manifest_path"`
	DefaultRun   string `json:"default_run"`
	Targets      []struct {
		Name    string   `json:"name"`
		Kind    []string `json:"kind"`
		SrcPath string   `json:"src_path"`
	} `json:"targets"`
}

type cargoMetadata struct {
	Packages        []cargoPackage `json:"packages"`
	TargetDirectory string         `json:"target_directory"`
	WorkspaceRoot   string         `json:"workspace_root"`
}

// cargoBinary runs `cargo build` for the project's binary and returns its
// path and the runtime line naming the package and workspace; cargo's
// messages are the error text, verbatim.
func cargoBinary(ctx context.Context, t target) (bin, runtime string, err error) {
	meta, err := readCargoMetadata(ctx, t.path)
	if err != nil {
		return "", "", err
	}
	pkg, err := packageAt(meta, t.path)
	if err != nil {
		return "", "", err
	}
	bin, err = pickBin(pkg, t)
	if err != nil {
		return "", "", err
	}
	// -p names the member: in a workspace, cargo run from a member's
	// directory picks it too, but a bin name may repeat across members.
	if out, err := runTool(ctx, t.path, "cargo", "build", "-p", pkg.Name, "--bin", bin); err != nil {
		return "", "", &adapter.BuildError{Command: "cargo build -p " + pkg.Name + " --bin " + bin + " in " + t.path, Output: out}
	}
	return filepath.Join(meta.TargetDirectory, "debug", bin), cargoRuntime(pkg.Name, bin, meta.WorkspaceRoot), nil
}

// readCargoMetadata is `cargo metadata --no-deps` run in dir.
func readCargoMetadata(ctx context.Context, dir string) (cargoMetadata, error) {
	var meta cargoMetadata
	out, err := runTool(ctx, dir, "cargo", "metadata", "--no-deps", "--format-version", "1")
	if err != nil {
		return meta, fmt.Errorf("cargo metadata failed:\n%s", out)
	}
	if err := json.Unmarshal([]byte(out), &meta); err != nil {
		return meta, fmt.Errorf("read cargo metadata: %w", err)
	}
	return meta, nil
}

// packageAt is the package whose Cargo.toml is in dir; in a workspace
// the metadata lists every member.
func packageAt(meta cargoMetadata, dir string) (*cargoPackage, error) {
	for i := range meta.Packages {
		if filepath.Dir(meta.Packages[i].ManifestPath) == dir {
			return &meta.Packages[i], nil
		}
	}
	return nil, fmt.Errorf("cargo metadata lists no package in %s", dir)
}

// pickBin chooses the binary target of the project's package: the only
// one, the one whose source is the file the agent named, or default-run.
func pickBin(pkg *cargoPackage, t target) (string, error) {
	var bins []string
	for _, tg := range pkg.Targets {
		for _, k := range tg.Kind {
			if k != "bin" {
				continue
			}
			if t.source != "" && tg.SrcPath == t.source {
				return tg.Name, nil
			}
			bins = append(bins, tg.Name)
		}
	}
	switch {
	case len(bins) == 1:
		return bins[0], nil
	case len(bins) == 0:
		return "", fmt.Errorf("package %s has no binary target to debug", pkg.Name)
	case pkg.DefaultRun != "":
		return pkg.DefaultRun, nil
	}
	return "", fmt.Errorf("package %s has several binaries (%s): pass the source file of the one to debug as scriptPath", pkg.Name, strings.Join(bins, ", "))
}

// guessCargoBinary names the binary a build would produce without running
// cargo (for dry runs): the first [[bin]] name, else the package name,
// under the project's target directory.
func guessCargoBinary(root string) (string, error) {
	f, err := os.Open(filepath.Join(root, "Cargo.toml"))
	if err != nil {
		return "", fmt.Errorf("read Cargo.toml: %w", err)
	}
	defer f.Close()
	section, pkgName, binName := "", "", ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = line
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != "name" {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		switch {
		case section == "[package]" && pkgName == "":
			pkgName = v
		case section == "[[bin]]" && binName == "":
			binName = v
		}
	}
	if binName == "" {
		binName = pkgName
	}
	if binName == "" {
		return "", errors.New("no package name in Cargo.toml")
	}
	dir := os.Getenv("CARGO_TARGET_DIR")
	if dir == "" {
		dir = filepath.Join(root, "target")
	}
	return filepath.Join(dir, "debug", binName), nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
