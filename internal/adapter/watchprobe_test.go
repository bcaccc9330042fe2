package adapter

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// probeScript is how a fake adapter behaves in a watchpoint probe.
type probeScript struct {
	// noDataBreakpoints leaves supportsDataBreakpoints out of initialize.
	noDataBreakpoints bool
	// launchFirst answers launch before initialized (Delve); otherwise
	// after configurationDone (lldb-dap 22).
	launchFirst bool
	// launchError fails the launch with this message.
	launchError string
	// silent never sends initialized.
	silent bool
	// refuse answers setDataBreakpoints unverified with this message.
	refuse string
	// afterContinue is what follows continue: "data breakpoint" and
	// other reasons are stops; "" is the program's exit.
	afterContinue string
}

// fakeProbeAdapter serves one probe on the far end of a pipe, as script
// says, checking that the probe asks for the global in its scope. It ends
// when the probe closes the connection.
func fakeProbeAdapter(t *testing.T, script probeScript) *WatchProbe {
	t.Helper()
	client, end := net.Pipe()
	done := make(chan struct{})
	t.Cleanup(func() {
		client.Close()
		end.Close()
		<-done
	})
	go func() {
		defer close(done)
		conn := dap.NewServerConn(end, "fake adapter", nil)
		r := bufio.NewReader(end)
		var launch *dap.IncomingRequest
		for {
			req, err := conn.ReadRequest(r)
			if err != nil {
				return
			}
			switch req.Command {
			case "initialize":
				conn.Reply(req, godap.Capabilities{SupportsDataBreakpoints: !script.noDataBreakpoints, SupportsConfigurationDoneRequest: true})
			case "launch":
				switch {
				case script.launchError != "":
					conn.Fail(req, script.launchError)
					continue
				case script.launchFirst:
					conn.Reply(req, nil)
				default:
					launch = req
				}
				if !script.silent {
					conn.Event("initialized", nil)
				}
			case "setFunctionBreakpoints":
				conn.Reply(req, godap.SetFunctionBreakpointsResponseBody{Breakpoints: []godap.Breakpoint{{Verified: true}}})
			case "configurationDone":
				conn.Reply(req, nil)
				if launch != nil {
					conn.Reply(launch, nil)
				}
				conn.Output("console", "noise the probe skips\n")
				conn.Event("stopped", godap.StoppedEventBody{Reason: "function breakpoint", ThreadId: 7})
			case "stackTrace":
				conn.Reply(req, godap.StackTraceResponseBody{StackFrames: []godap.StackFrame{{Id: 1000, Name: "main"}}})
			case "scopes":
				conn.Reply(req, godap.ScopesResponseBody{Scopes: []godap.Scope{{Name: "Locals", VariablesReference: 1}, {Name: "Globals", VariablesReference: 2}}})
			case "variables":
				var args godap.VariablesArguments
				_ = req.Args(&args)
				name := "i"
				if args.VariablesReference == 2 {
					name = "total"
				}
				conn.Reply(req, godap.VariablesResponseBody{Variables: []godap.Variable{{Name: name, Value: "0"}}})
			case "dataBreakpointInfo":
				var args struct {
					Name               string `json:"name"`
					VariablesReference int    `json:"variablesReference"`
					FrameID            int    `json:"frameId"`
				}
				_ = req.Args(&args)
				if args.Name != "total" || args.VariablesReference != 2 || args.FrameID != 1000 {
					conn.Reply(req, map[string]any{"dataId": nil, "description": "asked for the wrong thing"})
					continue
				}
				conn.Reply(req, map[string]any{"dataId": "5555/4", "description": "4 bytes at 5555 total", "accessTypes": []string{"write"}})
			case "setDataBreakpoints":
				conn.Reply(req, godap.SetDataBreakpointsResponseBody{Breakpoints: []godap.Breakpoint{{Verified: script.refuse == "", Message: script.refuse}}})
			case "continue":
				conn.Reply(req, godap.ContinueResponseBody{AllThreadsContinued: true})
				conn.Event("continued", godap.ContinuedEventBody{ThreadId: 7})
				if script.afterContinue != "" {
					conn.Event("stopped", godap.StoppedEventBody{Reason: script.afterContinue, ThreadId: 7})
				} else {
					conn.Event("exited", godap.ExitedEventBody{ExitCode: 0})
					conn.Event("terminated", nil)
				}
			default:
				conn.Fail(req, "unexpected request "+req.Command)
			}
		}
	}()
	return &WatchProbe{Transport: client, AdapterID: "fake", Launch: map[string]any{"program": "probe"}, Function: "main", Variable: "total"}
}

func TestRunWatchProbeAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script probeScript
		fired  bool
		detail string
	}{
		{"fires, lldb-dap order", probeScript{afterContinue: "data breakpoint"}, true, `stopped the program on a write (reason "data breakpoint")`},
		{"fires, Delve order", probeScript{launchFirst: true, afterContinue: "data breakpoint"}, true, "stopped the program on a write"},
		{"runs past the writes", probeScript{}, false, "ran past every write to its end"},
		{"refused", probeScript{launchFirst: true, refuse: "no hardware watchpoints"}, false, "refused a write watchpoint on total (no hardware watchpoints)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			fired, detail, err := RunWatchProbe(ctx, *fakeProbeAdapter(t, tc.script))
			if err != nil || fired != tc.fired || !strings.Contains(detail, tc.detail) {
				t.Fatalf("fired=%v detail=%q err=%v; want fired=%v and %q", fired, detail, err, tc.fired, tc.detail)
			}
		})
	}
}

func TestRunWatchProbeUndecided(t *testing.T) {
	for _, tc := range []struct {
		name    string
		script  probeScript
		timeout time.Duration
		err     string
	}{
		{"no data breakpoints", probeScript{noDataBreakpoints: true}, 10 * time.Second, "offers no data breakpoints"},
		{"launch fails", probeScript{launchError: "could not launch: ptrace not permitted"}, 10 * time.Second, "ptrace not permitted"},
		{"stopped for something else", probeScript{afterContinue: "exception"}, 10 * time.Second, `something else stopped the probe program (reason "exception"`},
		{"adapter never initializes", probeScript{launchFirst: true, silent: true}, 200 * time.Millisecond, "waiting for the initialized event: context deadline exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			fired, detail, err := RunWatchProbe(ctx, *fakeProbeAdapter(t, tc.script))
			if err == nil || fired || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("fired=%v detail=%q err=%v; want an error with %q", fired, detail, err, tc.err)
			}
		})
	}
}
