package lldb

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

const (
	// lldbDAPPathEnv names the lldb-dap the user prefers.
	lldbDAPPathEnv = "LLDB_DAP_PATH"
	// versionTimeout bounds `lldb-dap --version`, which answers in tens of
	// milliseconds; more means it hangs.
	versionTimeout = 10 * time.Second
)

// binary is an lldb-dap found on this machine.
type binary struct {
	path    string
	version string
}

// finder locates lldb-dap and remembers what `--version` said about each
// binary until that binary changes.
type finder struct {
	versions adapter.VersionCache

	// getenv and llvmDirs are replaced by tests to keep the machine out.
	getenv   func(string) string
	llvmDirs func() []string
}

func newFinder() *finder {
	return &finder{getenv: os.Getenv, llvmDirs: systemLLVMDirs}
}

// systemLLVMDirs are Debian's per-version LLVM directories, where the
// unsuffixed lldb-dap of each installed version lives.
func systemLLVMDirs() []string {
	dirs, _ := filepath.Glob("/usr/lib/llvm-*/bin")
	return dirs
}

// versioned matches lldb-dap-22 and lldb-vscode-14, capturing the version.
var versioned = regexp.MustCompile(`^(lldb-dap|lldb-vscode)-(\d+)$`)

// llvmDirVersion reads the version of /usr/lib/llvm-NN/bin.
var llvmDirVersion = regexp.MustCompile(`llvm-(\d+)`)

// candidate is a binary that may be lldb-dap, ranked by how much we prefer it.
type candidate struct {
	path string
	// family is 0 for lldb-dap, 1 for the older lldb-vscode.
	family int
	// major is the LLVM version from the name, 0 when unversioned.
	major int
}

// find returns the lldb-dap to use: the explicit choice, LLDB_DAP_PATH,
// `lldb-dap` on PATH, the highest lldb-dap-NN (on PATH or in
// /usr/lib/llvm-NN/bin), then the highest lldb-vscode-NN. Named ones must
// work: a wrong name is reported rather than silently replaced.
func (f *finder) find(ctx context.Context, explicit string) (*binary, error) {
	for _, n := range []struct{ path, origin string }{{explicit, "executablePath"}, {f.getenv(lldbDAPPathEnv), lldbDAPPathEnv}} {
		if n.path == "" {
			continue
		}
		p, err := adapter.LookPath(n.path, f.getenv("PATH"))
		if err != nil {
			return nil, fmt.Errorf("lldb-dap %s (%s): not found or not executable", n.path, n.origin)
		}
		v, err := f.version(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("lldb-dap %s (%s): %w", p, n.origin, err)
		}
		return &binary{path: p, version: v}, nil
	}
	if p, err := adapter.LookPath("lldb-dap", f.getenv("PATH")); err == nil {
		if v, err := f.version(ctx, p); err == nil {
			return &binary{path: p, version: v}, nil
		}
	}
	cands := f.versionedCandidates()
	var broken []string
	for _, c := range cands {
		v, err := f.version(ctx, c.path)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			broken = append(broken, fmt.Sprintf("%s (%v)", c.path, err))
			continue
		}
		return &binary{path: c.path, version: v}, nil
	}
	msg := "lldb-dap not found; looked at executablePath, " + lldbDAPPathEnv + ", lldb-dap, lldb-dap-NN and lldb-vscode-NN on PATH and in /usr/lib/llvm-*/bin"
	if len(broken) > 0 {
		msg += "; unusable: " + strings.Join(broken, ", ")
	}
	return nil, fmt.Errorf("%s", msg)
}

// versionedCandidates lists lldb-dap-NN, the unsuffixed lldb-dap of each
// /usr/lib/llvm-NN/bin, then lldb-vscode-NN, highest version first.
func (f *finder) versionedCandidates() []candidate {
	var cands []candidate
	seen := map[string]bool{}
	add := func(c candidate) {
		if !seen[c.path] && adapter.IsExecutable(c.path) {
			seen[c.path] = true
			cands = append(cands, c)
		}
	}
	for _, d := range filepath.SplitList(f.getenv("PATH")) {
		entries, err := os.ReadDir(d)
		if d == "" || err != nil {
			continue
		}
		for _, e := range entries {
			m := versioned.FindStringSubmatch(e.Name())
			if m == nil {
				continue
			}
			major, _ := strconv.Atoi(m[2])
			family := 0
			if m[1] == "lldb-vscode" {
				family = 1
			}
			add(candidate{path: filepath.Join(d, e.Name()), family: family, major: major})
		}
	}
	for _, d := range f.llvmDirs() {
		m := llvmDirVersion.FindStringSubmatch(d)
		if m == nil {
			continue
		}
		major, _ := strconv.Atoi(m[1])
		add(candidate{path: filepath.Join(d, "lldb-dap"), major: major})
		add(candidate{path: filepath.Join(d, "lldb-vscode"), family: 1, major: major})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].family != cands[j].family {
			return cands[i].family < cands[j].family
		}
		return cands[i].major > cands[j].major
	})
	return cands
}

// version runs `lldb-dap --version` unless the binary is unchanged since
// the last time.
func (f *finder) version(ctx context.Context, path string) (string, error) {
	return f.versions.Version(ctx, path, func(ctx context.Context) (string, error) { return runVersion(ctx, path) })
}

func runVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	out, err := query(ctx, path, "--version")
	if err != nil {
		return "", fmt.Errorf("`%s --version` failed (%v): %s", filepath.Base(path), err, out)
	}
	if v := parseVersion(out); v != "" {
		return v, nil
	}
	// lldb-dap learned --version after LLVM 19: 19.1.7 takes the unknown
	// flag for nothing, serves DAP on its stdin (empty here), and exits 0
	// having printed nothing. Its --help still names it ("OVERVIEW: LLDB
	// DAP"), and the lldb of the same LLVM beside it tells the version.
	help, err := query(ctx, path, "--help")
	if err != nil || !strings.Contains(help, "OVERVIEW: LLDB") {
		return "", fmt.Errorf("not lldb-dap: `--version` printed %q", out)
	}
	if v := siblingLLDBVersion(ctx, path); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("lldb-dap without --version (LLVM 19 or older) and no lldb beside it to tell which LLVM")
}

// siblingLLDBVersion is what the lldb installed with an lldb-dap says of
// its version ("lldb version 19.1.7"): the one in the directory of the
// lldb-dap's real path (/usr/bin/lldb-dap-19 is a link into
// /usr/lib/llvm-19/bin), or "" when there is none.
func siblingLLDBVersion(ctx context.Context, path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	lldb := filepath.Join(filepath.Dir(real), "lldb")
	if !adapter.IsExecutable(lldb) {
		return ""
	}
	out, err := query(ctx, lldb, "--version")
	if err != nil {
		return ""
	}
	return parseVersion(out)
}

// query runs a version or help query and returns what it printed on
// stdout and stderr, trimmed. Its stdin is empty, so that an lldb-dap that
// ignores the flag and serves DAP ends at once.
func query(ctx context.Context, path string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return strings.TrimSpace(out.String()), err
}

// llvmVersion finds "version 22.1.8" in lldb-dap's banner ("lldb-dap:
// Debian LLVM version 22.1.8", "liblldb: lldb version 22.1.8").
var llvmVersion = regexp.MustCompile(`version (\d+(?:\.\d+)*)`)

func parseVersion(out string) string {
	if m := llvmVersion.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}
