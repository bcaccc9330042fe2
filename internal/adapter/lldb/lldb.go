// Package lldb debugs C, C++ and Rust programs with LLVM's lldb-dap, over
// its stdin and stdout.
//
// Each language id (c, cpp, rust) is registered as its own Language; all
// share one implementation, one adapter finder and one build cache. Launch
// takes a binary as it is, compiles a lone .c or .cpp file with -g -O0 into
// a cache directory, or runs `cargo build` for a Cargo project, then starts
// one lldb-dap per session. Attach attaches that lldb-dap to a local
// process by id. The lldb-dap departures from plain DAP handled here are
// the lldb-* rows of docs/adapter-quirks.md; see quirks.go.
package lldb

import (
	"context"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

func init() {
	f := newFinder()
	for _, l := range languages {
		adapter.Register(&Adapter{lang: l, finder: f})
	}
	adapter.RegisterWatchpointProber("lldb-dap", func(ctx context.Context) (bool, bool, string) {
		return probeWatchpoints(ctx, f)
	})
}

const (
	// adapterID is what VS Code's lldb-dap extension sends.
	adapterID = "lldb-dap"
)

// installHint is the command that installs an lldb-dap the finder finds on
// o: Debian's lldb-22, Homebrew's llvm keg or Xcode's command-line tools,
// LLVM's Windows installer.
func installHint(o platform.OS) string {
	return platform.InstallCommands{
		Apt:    "apt-get install -y lldb-22",
		Brew:   "brew install llvm (or: xcode-select --install)",
		Winget: "winget install LLVM.LLVM",
	}.For(o)
}

// Language ids.
const (
	langC    = "c"
	langCPP  = "cpp"
	langRust = "rust"
)

// languages are the ids served by lldb-dap; aliases must be unique across
// every registered adapter.
var languages = []adapter.Language{
	{
		ID:                langC,
		DisplayName:       "C",
		Description:       "LLVM's lldb-dap; a lone .c file is compiled with cc -g -O0",
		DefaultExecutable: "lldb-dap",
		VSCodeType:        "lldb-dap",
		PlainTypes:        []string{"int", "bool"},
	},
	{
		ID:                langCPP,
		Aliases:           []string{"c++", "cxx"},
		DisplayName:       "C++",
		Description:       "LLVM's lldb-dap; a lone .cpp file is compiled with c++ -g -O0",
		DefaultExecutable: "lldb-dap",
		VSCodeType:        "lldb-dap",
		PlainTypes:        []string{"int", "bool"},
	},
	{
		ID:                langRust,
		DisplayName:       "Rust",
		Description:       "LLVM's lldb-dap with the toolchain's Rust formatters; a Cargo project is built with cargo build",
		DefaultExecutable: "lldb-dap",
		VSCodeType:        "lldb-dap",
		// i32 is the integer a literal defaults to; others keep their type.
		PlainTypes: []string{"i32", "bool"},
		TestRunner: "cargo test",
	},
}

// Adapter is lldb-dap serving one language id. The zero value is not
// usable: the package registers one per language.
type Adapter struct {
	lang   adapter.Language
	finder *finder
}

// Language describes the language this instance serves.
func (a *Adapter) Language() adapter.Language { return a.lang }

// Check looks for lldb-dap and asks its version; the answer is cached
// until the binary changes.
func (a *Adapter) Check(ctx context.Context) adapter.Availability {
	found, err := a.finder.find(ctx, "")
	if err != nil {
		mode := adapter.ModeStatus{Supported: true, Reason: err.Error()}
		return adapter.Availability{Reason: err.Error(), InstallHint: installHint(a.finder.machine.OS), Launch: mode, Attach: mode}
	}
	ok := adapter.ModeStatus{Supported: true, Available: true}
	return adapter.Availability{Installed: true, Version: found.version, Path: found.path, Launch: ok, Attach: ok}
}

// unavailable wraps a finder error for the session, which turns it into an
// install hint for the agent.
func (a *Adapter) unavailable(err error) *adapter.UnavailableError {
	return &adapter.UnavailableError{Language: a.lang.ID, Reason: err.Error(), InstallHint: installHint(a.finder.machine.OS)}
}

// BuildSources reads the program's DWARF (adapter.BuildSourceReader): a C,
// C++ or Rust binary built in another directory names that directory's
// files.
func (a *Adapter) BuildSources(program string, names []string) (map[string][]int, error) {
	return adapter.DWARFSources(program, names)
}
