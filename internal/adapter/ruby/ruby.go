// Package ruby debugs Ruby programs with rdbg, the debug gem's DAP server.
//
// Launch spawns `rdbg --open --host 127.0.0.1 --port 0 -c -- ruby prog.rb`:
// rdbg execs the program with the debugger loaded, so the process we start
// is the program itself; the port it listens on is read from its stderr.
// Attach connects to a program already started that way on a known port.
// rdbg departs from DAP in ways that changed between releases (Debian
// shipped 1.4.0, ships 1.6.3 now): what is sent and what the transport
// absorbs is chosen from the version `rdbg --version` reports (version.go,
// transport.go; docs/adapter-quirks.md, rdbg-12).
package ruby

import (
	"context"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

func init() { adapter.Register(New()) }

const (
	languageID = "ruby"
	// adapterID is what VS Code's rdbg extension sends; rdbg ignores it.
	adapterID = "rdbg"
)

// installHint is the command that installs a ruby with the debug gem on o:
// Debian's ruby 3.1 ships debug 1.6.3 (1.4.0 earlier); Homebrew's and
// RubyInstaller's rubies need the gem installed.
func installHint(o platform.OS) string {
	return platform.InstallCommands{
		Apt:    "apt-get install -y ruby (or: gem install debug)",
		Brew:   "brew install ruby && gem install debug",
		Winget: "winget install RubyInstallerTeam.Ruby.3.3, then: gem install debug",
	}.For(o)
}

// Adapter is rdbg. The zero value is not usable; call New.
type Adapter struct {
	finder *finder
}

// New returns the rdbg adapter.
func New() *Adapter {
	return &Adapter{finder: newFinder()}
}

// Language describes Ruby.
func (a *Adapter) Language() adapter.Language {
	return adapter.Language{
		ID:                 languageID,
		Aliases:            []string{"rb"},
		DisplayName:        "Ruby",
		Description:        "rdbg, the debug gem's DAP server (rdbg --open); rdbg runs the program itself",
		RequiresExecutable: true,
		DefaultExecutable:  "rdbg",
		// A Ruby Float's inspect always has a point (or Infinity, NaN).
		PlainTypes: []string{"Integer", "Float", "String", "TrueClass", "FalseClass", "NilClass"},
		VSCodeType: "rdbg",
		TestRunner: "minitest",
	}
}

// Check looks for rdbg and asks its version; the answer is cached until
// the script changes.
func (a *Adapter) Check(ctx context.Context) adapter.Availability {
	found, err := a.finder.find(ctx, "")
	// Attaching by host and port needs no local rdbg.
	attach := adapter.ModeStatus{Supported: true, Available: true}
	if err != nil {
		return adapter.Availability{
			Reason:      err.Error(),
			InstallHint: installHint(a.finder.machine.OS),
			Launch:      adapter.ModeStatus{Supported: true, Reason: err.Error()},
			Attach:      attach,
		}
	}
	return adapter.Availability{
		Installed: true,
		Version:   found.version,
		Path:      found.path,
		Launch:    adapter.ModeStatus{Supported: true, Available: true},
		Attach:    attach,
	}
}

// unavailable wraps a finder error for the session, which turns it into an
// install hint for the agent.
func (a *Adapter) unavailable(err error) *adapter.UnavailableError {
	return &adapter.UnavailableError{Language: languageID, Reason: err.Error(), InstallHint: installHint(a.finder.machine.OS)}
}
