// Package golang debugs Go programs with Delve's DAP server (`dlv dap`).
//
// Launch starts one `dlv dap --listen=127.0.0.1:0` per session in the
// program's module directory, reads the address it prints and connects to
// it; Delve builds the program itself (mode debug or test) or runs a built
// binary (mode exec). Attach asks such a dlv to attach to a local process,
// or connects to a headless `dlv --accept-multiclient` server directly.
package golang

import (
	"context"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

func init() {
	a := New()
	adapter.Register(a)
	adapter.RegisterWatchpointFallbackProber("delve", a.probeWatchpoints)
}

const (
	languageID = "go"
	// adapterID is what VS Code's Go extension sends; Delve ignores it.
	adapterID = "go"
	// installHint installs Delve into $GOBIN (or $GOPATH/bin), where the
	// finder looks.
	installHint = "go install github.com/go-delve/delve/cmd/dlv@latest"
)

// Adapter is Delve. The zero value is not usable; call New.
type Adapter struct {
	finder *finder
}

// New returns the Delve adapter.
func New() *Adapter {
	return &Adapter{finder: newFinder()}
}

// Language describes Go.
func (a *Adapter) Language() adapter.Language {
	return adapter.Language{
		ID:                languageID,
		Aliases:           []string{"golang"},
		DisplayName:       "Go",
		Description:       "Delve's DAP server (dlv dap); Delve builds the program with optimizations off",
		DefaultExecutable: "dlv",
		// Not float64: Delve shows 5.0 as 5.
		PlainTypes: []string{"int", "string", "bool"},
		VSCodeType: "go",
		TestRunner: "go test",
	}
}

// Check looks for dlv and asks its version; the answer is cached until the
// binary changes.
func (a *Adapter) Check(ctx context.Context) adapter.Availability {
	found, err := a.finder.find(ctx, "")
	// Attaching to a headless dlv by host and port needs no local dlv.
	attach := adapter.ModeStatus{Supported: true, Available: true}
	if err != nil {
		return adapter.Availability{
			Reason:      err.Error(),
			InstallHint: installHint,
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
func unavailable(err error) *adapter.UnavailableError {
	return &adapter.UnavailableError{Language: languageID, Reason: err.Error(), InstallHint: installHint}
}

// BuildSources reads the program's DWARF (adapter.BuildSourceReader) when
// it is a built binary (Delve's exec mode): one built elsewhere, or with
// -trimpath, names other paths than the agent's. A package directory or
// a .go file names none, as Delve builds it in place.
func (a *Adapter) BuildSources(program string, names []string) (map[string][]int, error) {
	return adapter.DWARFSources(program, names)
}
