package lldb

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
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

	// machine is where lldb-dap is looked for, and llvmDirs lists the
	// per-version LLVM directories on it; tests replace both to keep this
	// machine out.
	machine  platform.Machine
	llvmDirs func() []string
}

func newFinder() *finder {
	f := &finder{machine: platform.Host()}
	f.llvmDirs = f.systemLLVMDirs
	return f
}

// systemLLVMDirs are Debian's per-version LLVM directories
// (/usr/lib/llvm-NN/bin), where the unsuffixed lldb-dap of each installed
// version lives; other systems have none.
func (f *finder) systemLLVMDirs() []string {
	if f.machine.OS.Name != platform.Linux.Name {
		return nil
	}
	entries, _ := f.machine.Files.ReadDir("/usr/lib")
	var dirs []string
	for _, e := range entries {
		if llvmDirVersion.MatchString(e.Name()) {
			dirs = append(dirs, "/usr/lib/"+e.Name()+"/bin")
		}
	}
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
// then the first of locate's that answers --version. Named ones must work:
// a wrong name is reported rather than silently replaced.
func (f *finder) find(ctx context.Context, explicit string) (*binary, error) {
	for _, n := range []struct{ path, origin string }{{explicit, "executablePath"}, {f.machine.Getenv(lldbDAPPathEnv), lldbDAPPathEnv}} {
		if n.path == "" {
			continue
		}
		p, err := f.machine.LookPath(n.path)
		if err != nil {
			return nil, fmt.Errorf("lldb-dap %s (%s): not found or not executable", n.path, n.origin)
		}
		v, err := f.version(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("lldb-dap %s (%s): %w", p, n.origin, err)
		}
		return &binary{path: p, version: v}, nil
	}
	var broken []string
	for _, p := range f.locate(ctx) {
		v, err := f.version(ctx, p)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			broken = append(broken, fmt.Sprintf("%s (%v)", p, err))
			continue
		}
		return &binary{path: p, version: v}, nil
	}
	msg := "lldb-dap not found; looked at executablePath, " + lldbDAPPathEnv + ", " + f.searched()
	if len(broken) > 0 {
		msg += "; unusable: " + strings.Join(broken, ", ")
	}
	return nil, fmt.Errorf("%s", msg)
}

// searched says where locate looks on this OS.
func (f *finder) searched() string {
	switch f.machine.OS.Name {
	case platform.Darwin.Name:
		return "lldb-dap on PATH, `xcrun -f lldb-dap` (Xcode) and Homebrew's llvm (" + strings.Join(homebrewLLVM, ", ") + ")"
	case platform.Windows.Name:
		return "lldb-dap.exe on PATH and in LLVM's installation (%ProgramFiles%\\LLVM\\bin)"
	}
	return "lldb-dap, lldb-dap-NN and lldb-vscode-NN on PATH and in /usr/lib/llvm-*/bin"
}

// homebrewLLVM are where Homebrew's llvm keg keeps lldb-dap (Apple
// silicon, then Intel); the keg is not linked onto PATH.
var homebrewLLVM = []string{"/opt/homebrew/opt/llvm/bin", "/usr/local/opt/llvm/bin"}

// locate lists the lldb-dap binaries on the machine, best first: lldb-dap
// on PATH; on macOS Xcode's (which `xcrun -f` names) and then Homebrew's;
// on Windows LLVM's installer's; then the highest lldb-dap-NN (on PATH or
// in /usr/lib/llvm-NN/bin) and the highest lldb-vscode-NN.
func (f *finder) locate(ctx context.Context) []string {
	m := f.machine
	var paths []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] && m.IsExecutable(p) {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	if p, err := m.LookPath("lldb-dap"); err == nil {
		add(p)
	}
	switch m.OS.Name {
	case platform.Darwin.Name:
		// Xcode's lldb-dap is signed to work with the system's
		// debugserver, so it comes before a Homebrew build.
		if p, err := m.Run(ctx, "xcrun", "-f", "lldb-dap"); err == nil {
			add(p)
		}
		for _, d := range homebrewLLVM {
			add(m.OS.Join(d, "lldb-dap"))
		}
	case platform.Windows.Name:
		programFiles := m.Getenv("ProgramFiles")
		if programFiles == "" {
			programFiles = `C:\Program Files`
		}
		add(m.OS.Join(programFiles, "LLVM", "bin", m.OS.Exe("lldb-dap")))
	}
	for _, c := range f.versionedCandidates() {
		add(c.path)
	}
	return paths
}

// versionedCandidates lists lldb-dap-NN, the unsuffixed lldb-dap of each
// /usr/lib/llvm-NN/bin, then lldb-vscode-NN, highest version first.
func (f *finder) versionedCandidates() []candidate {
	m := f.machine
	var cands []candidate
	seen := map[string]bool{}
	add := func(c candidate) {
		if !seen[c.path] && m.IsExecutable(c.path) {
			seen[c.path] = true
			cands = append(cands, c)
		}
	}
	for _, d := range m.OS.SplitList(m.Getenv("PATH")) {
		entries, err := m.Files.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			match := versioned.FindStringSubmatch(strings.TrimSuffix(e.Name(), m.OS.ExeSuffix))
			if match == nil {
				continue
			}
			major, _ := strconv.Atoi(match[2])
			family := 0
			if match[1] == "lldb-vscode" {
				family = 1
			}
			add(candidate{path: m.OS.Join(d, e.Name()), family: family, major: major})
		}
	}
	for _, d := range f.llvmDirs() {
		match := llvmDirVersion.FindStringSubmatch(d)
		if match == nil {
			continue
		}
		major, _ := strconv.Atoi(match[1])
		add(candidate{path: m.OS.Join(d, "lldb-dap"), major: major})
		add(candidate{path: m.OS.Join(d, "lldb-vscode"), family: 1, major: major})
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
// docs/adapter-quirks.md: lldb-19.
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
