package ruby

import (
	"bufio"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// testWait bounds every wait of these tests: nothing here takes more than
// a few milliseconds unless the transport is stuck.
const testWait = 10 * time.Second

// pipeRdbg is a transport on one end of a pipe and, on the other, the
// test playing rdbg.
type pipeRdbg struct {
	t     *testing.T
	tr    *transport
	rdbg  net.Conn
	rd    *bufio.Reader
	fromT chan []byte // what the transport hands the session
	seq   int
}

func newPipeRdbg(t *testing.T, opts transportOptions) *pipeRdbg {
	t.Helper()
	ours, theirs := net.Pipe()
	if err := theirs.SetDeadline(time.Now().Add(testWait)); err != nil {
		t.Fatal(err)
	}
	f := &pipeRdbg{t: t, tr: newTransport(ours, nil, opts), rdbg: theirs, rd: bufio.NewReader(theirs), fromT: make(chan []byte, 16)}
	// The session's reader: ends when the transport is closed below.
	go func() {
		defer close(f.fromT)
		br := bufio.NewReader(f.tr)
		for {
			body, err := dap.ReadFrame(br)
			if err != nil {
				return
			}
			f.fromT <- body
		}
	}()
	t.Cleanup(func() {
		f.tr.Close()
		theirs.Close()
	})
	return f
}

// configured sends configurationDone as the session does, answers it as
// rdbg does, and lets the session read the answer.
func (f *pipeRdbg) configured() {
	f.send("configurationDone", nil)
	f.answer(f.rdbgReads(), nil)
	f.sessionReads()
}

// continuesOnItsOwn checks that the transport's next request to rdbg is a
// continue, and answers it.
func (f *pipeRdbg) continuesOnItsOwn(t *testing.T) {
	t.Helper()
	cont := f.rdbgReads()
	wantRequest(t, cont, "continue")
	f.answer(cont, nil)
}

// rdbgStops sends a stopped event for the main thread, as rdbg does.
func (f *pipeRdbg) rdbgStops(reason string) {
	f.rdbgSays(map[string]any{"type": "event", "event": "stopped", "body": map[string]any{"reason": reason, "threadId": 1}})
}

// sessionSeesOnlyTheBreakpoint checks that the next message the session
// reads is the breakpoint's stop: every stop before it was kept from it.
func (f *pipeRdbg) sessionSeesOnlyTheBreakpoint() {
	f.t.Helper()
	if ev := f.sessionReads(); ev["event"] != "stopped" || ev["body"].(map[string]any)["reason"] != "breakpoint" {
		f.t.Fatalf("the session sees the breakpoint's stop only; got %v", ev)
	}
}

// send writes a request as the session does. net.Pipe blocks a write
// until the other end reads it, so it writes on a goroutine that ends once
// rdbg has read the message (or the pipe is closed).
func (f *pipeRdbg) send(command string, args any) int {
	f.seq++
	body, err := json.Marshal(map[string]any{"seq": f.seq, "type": "request", "command": command, "arguments": args})
	if err != nil {
		f.t.Fatal(err)
	}
	go func() { _, _ = f.tr.Write(dap.AppendFrame(nil, body)) }()
	return f.seq
}

// rdbgReads is the next message the transport wrote to rdbg.
func (f *pipeRdbg) rdbgReads() map[string]any {
	f.t.Helper()
	body, err := dap.ReadFrame(f.rd)
	if err != nil {
		f.t.Fatalf("rdbg reads: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		f.t.Fatal(err)
	}
	return m
}

// rdbgSays writes a message from rdbg.
func (f *pipeRdbg) rdbgSays(m map[string]any) {
	f.t.Helper()
	body, err := json.Marshal(m)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.rdbg.Write(dap.AppendFrame(nil, body)); err != nil {
		f.t.Fatalf("rdbg writes: %v", err)
	}
}

// answer is rdbg's successful response to req.
func (f *pipeRdbg) answer(req map[string]any, body any) {
	f.t.Helper()
	m := map[string]any{"type": "response", "request_seq": req["seq"], "command": req["command"], "success": true}
	if body != nil {
		m["body"] = body
	}
	f.rdbgSays(m)
}

// sessionReads is the next message the transport hands the session.
func (f *pipeRdbg) sessionReads() map[string]any {
	f.t.Helper()
	select {
	case body, ok := <-f.fromT:
		if !ok {
			f.t.Fatal("the transport ended")
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			f.t.Fatal(err)
		}
		return m
	case <-time.After(testWait):
		f.t.Fatal("the session got nothing")
	}
	return nil
}

func wantRequest(t *testing.T, m map[string]any, command string) {
	t.Helper()
	if m["type"] != "request" || m["command"] != command {
		t.Fatalf("want a %s request, got %v", command, m)
	}
}

func bpArgs(path string, lines ...int) map[string]any {
	bps := make([]map[string]any, len(lines))
	for i, l := range lines {
		bps[i] = map[string]any{"line": l}
	}
	return map[string]any{"source": map[string]any{"path": path}, "breakpoints": bps}
}

// pausedOnFrame has the fake stop and answer a stack trace with frame id,
// as the session does after every stop.
func (f *pipeRdbg) pausedOnFrame(id int) {
	f.t.Helper()
	f.rdbgStops("breakpoint")
	if ev := f.sessionReads(); ev["event"] != "stopped" {
		f.t.Fatalf("want the stop, got %v", ev)
	}
	f.send("stackTrace", map[string]any{"threadId": 1})
	req := f.rdbgReads()
	wantRequest(f.t, req, "stackTrace")
	f.answer(req, map[string]any{"stackFrames": []map[string]any{{"id": id, "name": "block in <main>", "line": 12}}})
	if r := f.sessionReads(); r["command"] != "stackTrace" {
		f.t.Fatalf("want the stack trace, got %v", r)
	}
}

// Before 1.5 a file's new set only adds: a dropped line is deleted inside
// rdbg, in the paused frame, before the set goes out, and the session
// never sees that evaluate's answer.
func TestTransportRemovesDroppedBreakpointsBefore15(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.4.0")})
	f.send("setBreakpoints", bpArgs("/p/loop.rb", 4, 12))
	req := f.rdbgReads()
	wantRequest(t, req, "setBreakpoints")
	f.answer(req, map[string]any{"breakpoints": []any{map[string]any{"verified": true}, map[string]any{"verified": true}}})
	f.sessionReads()

	f.pausedOnFrame(7)
	seq := f.send("setBreakpoints", bpArgs("/p/loop.rb", 12))
	ev := f.rdbgReads()
	wantRequest(t, ev, "evaluate")
	args := ev["arguments"].(map[string]any)
	if args["frameId"] != float64(7) || args["expression"] != deleteExpression("/p/loop.rb", []int{4}) {
		t.Fatalf("the removal of line 4: %v", ev)
	}
	if ev["seq"].(float64) < ownSeqBase {
		t.Fatalf("the transport's own request must be numbered apart: %v", ev)
	}
	f.answer(ev, map[string]any{"result": "1"})
	set := f.rdbgReads()
	wantRequest(t, set, "setBreakpoints")
	f.answer(set, map[string]any{"breakpoints": []any{map[string]any{"verified": true}}})
	if r := f.sessionReads(); r["command"] != "setBreakpoints" || r["request_seq"] != float64(seq) {
		t.Fatalf("the session must see its own answer, not the evaluate's: %v", r)
	}
}

// From 1.5 setBreakpoints replaces the file's set in rdbg: it goes out as
// it is, with nothing evaluated before it.
func TestTransportLeavesReplacementToRdbgFrom15(t *testing.T) {
	for _, v := range []string{"1.5.0", "1.6.3", "1.11.1"} {
		t.Run(v, func(t *testing.T) {
			f := newPipeRdbg(t, transportOptions{dialect: dialectOf(v)})
			f.send("setBreakpoints", bpArgs("/p/loop.rb", 4, 12))
			req := f.rdbgReads()
			wantRequest(t, req, "setBreakpoints")
			f.answer(req, nil)
			f.sessionReads()

			f.pausedOnFrame(7)
			f.send("setBreakpoints", bpArgs("/p/loop.rb"))
			wantRequest(t, f.rdbgReads(), "setBreakpoints")
		})
	}
}

// rdbg sends terminated and no exited: with the program's code at hand
// the transport puts exited, with it, first.
func TestTransportPutsExitedBeforeTerminated(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.6.3"), exitCode: func() (int, bool) { return 3, true }})
	f.rdbgSays(map[string]any{"type": "event", "event": "terminated", "seq": 40})
	ex := f.sessionReads()
	if ex["event"] != "exited" || ex["body"].(map[string]any)["exitCode"] != float64(3) {
		t.Fatalf("want exited with code 3 first, got %v", ex)
	}
	if ev := f.sessionReads(); ev["event"] != "terminated" {
		t.Fatalf("want terminated next, got %v", ev)
	}
}

// Attached, the program's code is not ours to know: terminated alone.
func TestTransportPassesTerminatedWithoutExitCode(t *testing.T) {
	for name, code := range map[string]func() (int, bool){
		"no process": nil,
		"no code":    func() (int, bool) { return 0, false },
	} {
		t.Run(name, func(t *testing.T) {
			f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.6.3"), exitCode: code})
			f.rdbgSays(map[string]any{"type": "event", "event": "terminated", "seq": 40})
			if ev := f.sessionReads(); ev["event"] != "terminated" {
				t.Fatalf("want terminated, got %v", ev)
			}
		})
	}
}

// Attaching with stopOnEntry where rdbg does not pause a running program
// (1.6): the transport pauses it after configurationDone, and the pause's
// answer stays with the transport.
func TestTransportPausesAfterConfiguration(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.6.3"), pauseAfterConfiguration: true})
	seq := f.send("configurationDone", nil)
	done := f.rdbgReads()
	wantRequest(t, done, "configurationDone")
	pause := f.rdbgReads()
	wantRequest(t, pause, "pause")
	if pause["seq"].(float64) < ownSeqBase {
		t.Fatalf("the pause must be the transport's own request: %v", pause)
	}
	f.answer(done, nil)
	f.answer(pause, nil)
	f.rdbgStops("pause")
	if r := f.sessionReads(); r["command"] != "configurationDone" || r["request_seq"] != float64(seq) {
		t.Fatalf("want configurationDone's answer, got %v", r)
	}
	if ev := f.sessionReads(); ev["event"] != "stopped" {
		t.Fatalf("the pause's answer must not reach the session; got %v", ev)
	}
}

// Attaching without stopOnEntry to a program rdbg holds at its first
// line: the pause rdbg reports after configurationDone is continued by the
// transport and never reaches the session; later stops do.
func TestTransportResumesTheAttachStop(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.6.3"), resumeAttachStop: true})
	f.send("configurationDone", nil)
	done := f.rdbgReads()
	wantRequest(t, done, "configurationDone")
	f.answer(done, nil)
	if r := f.sessionReads(); r["command"] != "configurationDone" {
		t.Fatalf("want configurationDone's answer, got %v", r)
	}
	f.rdbgStops("pause")
	cont := f.rdbgReads()
	wantRequest(t, cont, "continue")
	if cont["seq"].(float64) < ownSeqBase {
		t.Fatalf("the continue must be the transport's own request: %v", cont)
	}
	f.answer(cont, nil)
	f.rdbgStops("breakpoint")
	f.sessionSeesOnlyTheBreakpoint()
}

// rdbg before 1.6 attached to a running program (measured on 1.4.0):
// a pause stop on connecting, before the attach request is even sent,
// and the pause stop it reports after configurationDone, both of one
// suspension; then, once the program runs, the pause of attach's own
// signal, deferred until then. Without stopOnEntry the session sees none
// of them: the program is continued past each.
func TestTransportAbsorbsTheConnectionPausesBefore16(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.4.0"), attach: true, resumeAttachStop: true})
	f.rdbgStops("pause")
	f.send("attach", nil)
	f.answer(f.rdbgReads(), nil)
	if r := f.sessionReads(); r["command"] != "attach" {
		t.Fatalf("the session's first message is attach's answer, not the connection's pause; got %v", r)
	}
	f.configured()
	f.rdbgStops("pause")
	f.continuesOnItsOwn(t)
	f.rdbgStops("pause")
	wantRequest(t, f.rdbgReads(), "continue")
	f.rdbgStops("breakpoint")
	f.sessionSeesOnlyTheBreakpoint()
}

// The same before 1.6 when both signals' traps run only after
// configurationDone (the program was inside a sleep): the continue sent
// at the synthetic stop waits in rdbg's queue and covers the first, the
// second is continued again; the session sees neither.
func TestTransportAbsorbsLateSignalStopsBefore16(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.4.0"), attach: true, resumeAttachStop: true})
	f.configured()
	f.rdbgStops("pause")
	f.continuesOnItsOwn(t)
	f.rdbgStops("pause")
	f.rdbgStops("pause")
	wantRequest(t, f.rdbgReads(), "continue")
	f.rdbgStops("breakpoint")
	f.sessionSeesOnlyTheBreakpoint()
}

// With stopOnEntry the session sees one stop for the attach: the one
// after configurationDone.
func TestTransportReportsOneAttachStopBefore16(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.4.0"), attach: true})
	f.rdbgStops("pause")
	f.send("attach", nil)
	f.answer(f.rdbgReads(), nil)
	f.sessionReads()
	f.send("configurationDone", nil)
	f.answer(f.rdbgReads(), nil)
	if r := f.sessionReads(); r["command"] != "configurationDone" {
		t.Fatalf("want configurationDone's answer first, got %v", r)
	}
	f.rdbgStops("pause")
	if ev := f.sessionReads(); ev["event"] != "stopped" {
		t.Fatalf("the stop after configurationDone reaches the session; got %v", ev)
	}
}

// Before 1.5, a breakpoint removed while the program runs stays in rdbg
// until a stop: when it is that breakpoint's, the session never sees it;
// the transport removes it in that frame and continues.
func TestTransportSkipsABreakpointRemovedWhileRunningBefore15(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.4.0")})
	src := map[string]any{"path": "/app/prog.rb"}
	f.send("setBreakpoints", map[string]any{"source": src, "breakpoints": []any{map[string]any{"line": 5}, map[string]any{"line": 8}}})
	f.answer(f.rdbgReads(), nil)
	f.sessionReads()
	f.send("continue", map[string]any{"threadId": 1})
	f.answer(f.rdbgReads(), nil)
	f.sessionReads()
	f.send("setBreakpoints", map[string]any{"source": src, "breakpoints": []any{map[string]any{"line": 8}}})
	wantRequest(t, f.rdbgReads(), "setBreakpoints")
	f.rdbgSays(map[string]any{"type": "event", "event": "stopped", "body": map[string]any{"reason": "breakpoint", "threadId": 1, "description": " BP - Line  /app/prog.rb:5 (line)"}})
	st := f.rdbgReads()
	wantRequest(t, st, "stackTrace")
	f.answer(st, map[string]any{"stackFrames": []any{map[string]any{"id": 7}}})
	ev := f.rdbgReads()
	wantRequest(t, ev, "evaluate")
	if args := ev["arguments"].(map[string]any); args["frameId"] != float64(7) || !strings.Contains(args["expression"].(string), "[5]") {
		t.Fatalf("the removal evaluates in the stop's frame, for line 5: %v", args)
	}
	f.answer(ev, map[string]any{"result": "1"})
	wantRequest(t, f.rdbgReads(), "continue")
	f.rdbgSays(map[string]any{"type": "event", "event": "stopped", "body": map[string]any{"reason": "breakpoint", "threadId": 1, "description": " BP - Line  /app/prog.rb:8 (line)"}})
	if ev := f.sessionReads(); ev["event"] != "stopped" {
		t.Fatalf("the session sees the kept breakpoint's stop, not the removed one's; got %v", ev)
	}
}

// A pause the session asks for is its own, even as the first stop.
func TestTransportKeepsAnAskedPause(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.6.3"), resumeAttachStop: true})
	f.configured()
	f.send("pause", map[string]any{"threadId": 1})
	f.answer(f.rdbgReads(), nil)
	f.sessionReads()
	f.rdbgStops("pause")
	if ev := f.sessionReads(); ev["event"] != "stopped" {
		t.Fatalf("the asked-for pause reaches the session; got %v", ev)
	}
}

// Without the option configurationDone goes alone.
func TestTransportSendsNoPauseUnasked(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.6.3")})
	f.send("configurationDone", nil)
	wantRequest(t, f.rdbgReads(), "configurationDone")
	f.send("threads", nil)
	wantRequest(t, f.rdbgReads(), "threads")
}

// A request rdbg does not know would drop the connection: it is refused
// here, naming the release.
func TestTransportRefusesUnknownRequests(t *testing.T) {
	f := newPipeRdbg(t, transportOptions{dialect: dialectOf("1.6.3")})
	seq := f.send("loadedSources", nil)
	r := f.sessionReads()
	if r["success"] != false || r["request_seq"] != float64(seq) || !strings.Contains(r["message"].(string), "not supported by rdbg 1.6.3") {
		t.Fatalf("refusal: %v", r)
	}
	f.send("threads", nil)
	wantRequest(t, f.rdbgReads(), "threads")
}
