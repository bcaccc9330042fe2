package ruby

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// deleteTimeout bounds the evaluate that removes breakpoints inside rdbg;
// it answers in about a millisecond.
const deleteTimeout = 5 * time.Second

// ownSeqBase numbers the requests the transport sends on its own, far
// above the session's, so that their answers are told apart.
const ownSeqBase = 1 << 30

// transport sits between the session and rdbg and absorbs its
// departures from DAP (docs/adapter-quirks.md: rdbg-5, rdbg-6, rdbg-8,
// rdbg-10, rdbg-14), documented here because the rewriting is invisible to the
// session:
//
//   - A request rdbg does not know would make it close the connection: the
//     transport answers it itself with a failed response instead.
//   - rdbg sends no exited event. When it sends terminated (1.5 on; 1.6.3
//     sends it just before it closes the socket, and the process exits
//     right after) and the program's exit code can be known, the transport
//     puts an exited event with that code before it: the session would
//     otherwise report the end without its code.
//   - Before 1.5, setBreakpoints only ever adds breakpoints (rdbg keys
//     them by file and line and ignores a second one on the same line).
//     When a file's set loses lines (or a line's condition changes), the
//     transport first removes them inside rdbg by evaluating Ruby that
//     deletes them from the debugger's own table, then forwards the
//     request. Evaluating needs a paused frame: while the program runs,
//     the removal waits for the next stop; a stop at a removed breakpoint
//     meanwhile is kept from the session, the removal done there and the
//     program continued. From 1.5 setBreakpoints replaces the file's set
//     itself and goes through untouched.
//   - From 1.6 attach leaves a running program running; when stopOnEntry
//     asks for a pause, the transport sends one after configurationDone.
//   - Attach stops a program held at its first line (rdbg --open without
//     --nonstop; before 1.6 any program): right after configurationDone
//     rdbg reports a stop, reason "pause", that nobody asked for. Without
//     stopOnEntry the transport continues the program and the session
//     never sees that stop: the agent asked it to run.
type transport struct {
	conn      io.ReadWriteCloser
	log       *slog.Logger
	afterRead func()
	transportOptions

	msgs   chan []byte // framed messages from rdbg, for Read; closed at the end
	inject chan []byte // framed answers of our own, for Read
	closed chan struct{}
	once   sync.Once
	rest   []byte // unread part of the message Read is handing out
	errMu  sync.Mutex
	err    error // why msgs was closed

	writeMu sync.Mutex // one message at a time on conn
	wbuf    []byte     // partial message written by the session

	mu        sync.Mutex
	seq       int
	waiters   map[int]chan response
	stackSeqs map[int]bool
	paused    bool
	// attachStop: configurationDone went out with resumeAttachStop and
	// no stop has come since, nor a pause from the session.
	attachStop bool
	// configuring: the transport serves an attach and configurationDone
	// has not gone out. Before 1.6, rdbg suspends a running program when
	// a client connects and again on attach (SIGURG), and says so in
	// pause stops before the configuration is done (the first before the
	// attach request is even sent); the stop it reports after
	// configurationDone is the same suspension, and the only one the
	// session must know of.
	configuring bool
	// Before 1.6 (pausesOnAttach), rdbg signals a running program
	// (SIGURG) twice: when a client connects and on attach. Each signal
	// suspends the program once and says so in a pause stop, whenever
	// Ruby gets to run the trap: before configurationDone or after it,
	// and the second only once the first suspension is resumed. Besides,
	// right after configurationDone's answer it reports a pause stop of
	// its own (syntheticStop), which is the held program's first stop, or
	// the first signal's suspension, or, when that has not come yet,
	// nothing at all. A continue sent while the program runs waits in
	// rdbg's queue for the next suspension. So: the synthetic stop is
	// continued (without stopOnEntry) or shown; of the signals' stops,
	// the first is covered by that continue (or is the suspension the
	// agent sees) and is kept from the session, the second is kept from
	// it and resumed again (as the program last was: lastResume). A held
	// program gets no signal stop at all.
	syntheticStop bool
	// signalStops counts the signals' pause stops seen (at most 2).
	signalStops int
	// askedPause: the session sent a pause; the next pause stop is its.
	askedPause bool
	// lastResume is the last request that resumed the program (continue or
	// a step), for resuming it again past the owed trap stop.
	lastResume *message
	frameID    int                       // a frame of the current stop, 0 if none known
	sent       map[string]map[int]string // file -> line -> condition, as rdbg has them
	toDelete   map[string][]int          // removals waiting for a stop
}

// transportOptions are what the transport must know of the rdbg at the
// other end and of its program.
type transportOptions struct {
	dialect dialect
	// exitCode, when set, reports the program's exit code, waiting briefly
	// for the process to exit (launch: rdbg's process is the program).
	exitCode func() (int, bool)
	// pauseAfterConfiguration sends a pause right after configurationDone
	// (attach with stopOnEntry to an rdbg that does not pause on attach).
	pauseAfterConfiguration bool
	// resumeAttachStop continues past the stop rdbg reports on attach
	// (attach without stopOnEntry).
	resumeAttachStop bool
	// attach: the connection is an attach to a program already running
	// under rdbg --open, not a launch.
	attach bool
}

// response is what the transport reads of an answer to its own request.
type response struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Body    struct {
		Result      string `json:"result"`
		StackFrames []struct {
			ID int `json:"id"`
		} `json:"stackFrames"`
	} `json:"body"`
}

// newTransport wraps conn; the pump goroutine it starts ends when conn
// does (Close closes it).
func newTransport(conn net.Conn, log *slog.Logger, opts transportOptions) *transport {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t := &transport{
		conn:             conn,
		log:              log,
		afterRead:        adapter.QuickAck(conn),
		transportOptions: opts,
		configuring:      opts.attach,
		msgs:             make(chan []byte),
		inject:           make(chan []byte, 16),
		closed:           make(chan struct{}),
		waiters:          map[int]chan response{},
		stackSeqs:        map[int]bool{},
		sent:             map[string]map[int]string{},
		toDelete:         map[string][]int{},
	}
	go t.pump()
	return t
}

// Read hands out rdbg's messages and the transport's own answers, whole
// frames in order of arrival.
func (t *transport) Read(p []byte) (int, error) {
	if len(t.rest) == 0 {
		select {
		case m := <-t.inject:
			t.rest = m
		default:
			select {
			case m := <-t.inject:
				t.rest = m
			case m, ok := <-t.msgs:
				if !ok {
					t.errMu.Lock()
					defer t.errMu.Unlock()
					return 0, t.err
				}
				t.rest = m
			}
		}
	}
	n := copy(p, t.rest)
	t.rest = t.rest[n:]
	return n, nil
}

// Close ends the connection; the pump then ends.
func (t *transport) Close() error {
	t.once.Do(func() { close(t.closed) })
	return t.conn.Close()
}

// afterReadReader re-arms TCP_QUICKACK after each read of the socket
// itself (rdbg writes a response and an event back to back without
// TCP_NODELAY: docs/adapter-quirks.md, rdbg-2; still so in 1.6.3, where a step
// takes 44 ms without the re-arm and 1.4 ms with it).
type afterReadReader struct {
	r     io.Reader
	after func()
}

func (a afterReadReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if a.after != nil {
		a.after()
	}
	return n, err
}

// pump reads rdbg's messages, keeps what the transport needs to know,
// and passes them on, except the answers to its own requests.
func (t *transport) pump() {
	br := bufio.NewReaderSize(afterReadReader{t.conn, t.afterRead}, 64<<10)
	var err error
	for {
		var body []byte
		if body, err = dap.ReadFrame(br); err != nil {
			break
		}
		switch t.observe(body) {
		case ownAnswer, configurationStop:
			t.log.Debug("rdbg message kept from the session", "msg", string(body))
			continue
		case attachStop:
			t.log.Debug("rdbg attach stop continued", "msg", string(body))
			// Not here: the pump must stay free to read the answer.
			go t.resume()
			continue
		case removedStop:
			t.log.Debug("rdbg stop at a removed breakpoint skipped", "msg", string(body))
			go t.skipRemoved()
			continue
		case trapStop:
			t.log.Debug("rdbg deferred attach stop resumed", "msg", string(body))
			go t.resumeAgain()
			continue
		case programEnd:
			if ev := t.exitedEvent(); ev != nil {
				err = t.deliver(ev)
			}
		}
		if err == nil {
			err = t.deliver(dap.AppendFrame(nil, body))
		}
		if err != nil {
			break
		}
	}
	t.errMu.Lock()
	t.err = err
	t.errMu.Unlock()
	close(t.msgs)
	t.mu.Lock()
	for seq, w := range t.waiters {
		close(w)
		delete(t.waiters, seq)
	}
	t.mu.Unlock()
}

// deliver hands one framed message to Read, unless the transport closes.
func (t *transport) deliver(frame []byte) error {
	select {
	case t.msgs <- frame:
		return nil
	case <-t.closed:
		return io.ErrClosedPipe
	}
}

// exitedEvent is the exited event rdbg never sends, with the program's
// exit code, or nil when that cannot be known. It is asked for when
// terminated arrives, which rdbg sends just before closing the socket, the
// process exiting right after (measured on 1.6.3): the wait is short, and
// exitCode bounds it.
// docs/adapter-quirks.md: rdbg-6.
func (t *transport) exitedEvent() []byte {
	if t.exitCode == nil {
		return nil
	}
	code, ok := t.exitCode()
	if !ok {
		return nil
	}
	body, err := json.Marshal(map[string]any{
		"seq": 0, "type": "event", "event": "exited", "body": map[string]any{"exitCode": code},
	})
	if err != nil {
		return nil
	}
	return dap.AppendFrame(nil, body)
}

// verdict is what the pump does with a message it has observed.
type verdict int

const (
	// passOn hands the message to the session.
	passOn verdict = iota
	// ownAnswer is an answer to the transport's own request: consumed.
	ownAnswer
	// programEnd is rdbg's terminated event: handed on after an exited
	// event, when the exit code can be known.
	programEnd
	// attachStop is the stop rdbg reports on attach, which nobody asked
	// for: consumed, and the program continued.
	attachStop
	// configurationStop is a pause stop during an attach's configuration
	// (before 1.6: on connecting and on attach): consumed, the program
	// left suspended for the stop reported after configurationDone.
	configurationStop
	// trapStop is the pause stop a deferred attach signal causes (see
	// syntheticStop): consumed, and the program resumed again.
	trapStop
	// removedStop is a stop at a breakpoint removed while the program
	// ran, before rdbg could be told (see hitRemovedLocked): consumed, the
	// breakpoints removed and the program continued.
	removedStop
)

// message is the part of a DAP message the transport looks at.
type message struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`
	Command    string          `json:"command"`
	Event      string          `json:"event"`
	RequestSeq int             `json:"request_seq"`
	Arguments  json.RawMessage `json:"arguments"`
	Body       json.RawMessage `json:"body"`
}

// stopReason is a stopped event's reason, "" when body has none.
func stopReason(body json.RawMessage) string {
	var b struct {
		Reason string `json:"reason"`
	}
	_ = json.Unmarshal(body, &b)
	return b.Reason
}

// observe notes stops and frame ids, and says what the pump does with the
// message.
func (t *transport) observe(body []byte) verdict {
	var m message
	if json.Unmarshal(body, &m) != nil {
		return passOn
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case m.Type == "event" && m.Event == "terminated":
		return programEnd
	case m.Type == "event" && m.Event == "stopped":
		if v, ok := t.signalStopLocked(stopReason(m.Body)); ok {
			return v
		}
		if t.hitRemovedLocked(m.Body) {
			t.paused, t.frameID = true, 0
			return removedStop
		}
		if t.attachStop {
			t.attachStop = false
			if stopReason(m.Body) == "pause" {
				return attachStop
			}
		}
		t.paused, t.frameID = true, 0
	case m.Type == "response" && t.stackSeqs[m.RequestSeq]:
		delete(t.stackSeqs, m.RequestSeq)
		var st struct {
			StackFrames []struct {
				ID int `json:"id"`
			} `json:"stackFrames"`
		}
		if t.paused && json.Unmarshal(m.Body, &st) == nil && len(st.StackFrames) > 0 {
			t.frameID = st.StackFrames[0].ID
			if len(t.toDelete) > 0 {
				pending := t.toDelete
				t.toDelete = map[string][]int{}
				frame := t.frameID
				// Not here: the pump must stay free to read the answers.
				// The goroutine ends when its deletes are answered or
				// time out.
				go t.deleteAll(frame, pending)
			}
		}
	case m.Type == "response" && m.RequestSeq >= ownSeqBase:
		if w, ok := t.waiters[m.RequestSeq]; ok {
			var r response
			_ = json.Unmarshal(body, &r)
			w <- r
			delete(t.waiters, m.RequestSeq)
		}
		return ownAnswer
	}
	return passOn
}

// Write takes the session's messages (whole frames, possibly split over
// writes) and passes each on, refused, preceded by breakpoint removals or
// followed by a pause as the type's comment says.
func (t *transport) Write(p []byte) (int, error) {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	t.wbuf = append(t.wbuf, p...)
	for {
		frame, body, ok := splitFrame(t.wbuf)
		if !ok {
			break
		}
		t.wbuf = t.wbuf[len(frame):]
		if err := t.forward(frame, body); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// splitFrame cuts the first whole frame off buf.
func splitFrame(buf []byte) (frame, body []byte, ok bool) {
	end := bytes.Index(buf, []byte("\r\n\r\n"))
	if end < 0 {
		return nil, nil, false
	}
	length := -1
	for _, h := range strings.Split(string(buf[:end]), "\r\n") {
		if name, v, found := strings.Cut(h, ":"); found && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	start := end + 4
	if length < 0 || len(buf) < start+length {
		return nil, nil, false
	}
	return buf[:start+length], buf[start : start+length], true
}

// forward sends one message of the session's; writeMu is held.
// docs/adapter-quirks.md: rdbg-10.
func (t *transport) forward(frame, body []byte) error {
	var m message
	if json.Unmarshal(body, &m) != nil || m.Type != "request" {
		return t.write(frame)
	}
	if !knownRequests[m.Command] {
		t.refuse(m, fmt.Sprintf("%s is not supported by %s (it would drop the connection)", m.Command, t.dialect.name))
		return nil
	}
	if !t.dialect.replacesBreakpoints {
		t.track(m)
	}
	switch {
	case m.Command == "configurationDone":
		t.mu.Lock()
		t.configuring = false
		t.attachStop = t.resumeAttachStop
		t.syntheticStop = t.attach && t.dialect.pausesOnAttach
		t.mu.Unlock()
	case m.Command == "pause":
		t.mu.Lock()
		t.attachStop = false
		t.askedPause = true
		t.mu.Unlock()
	case resumes[m.Command]:
		t.mu.Lock()
		t.lastResume = &m
		t.mu.Unlock()
	}
	if err := t.write(frame); err != nil {
		return err
	}
	if m.Command == "configurationDone" && t.pauseAfterConfiguration {
		// A program held at its first line is already paused: rdbg then
		// reports that stop and ignores the pause (measured on 1.6.3: one
		// stop). The answer is the transport's, never the session's.
		if _, err := t.request("pause", map[string]any{"threadId": mainThread}, nil); err != nil {
			return fmt.Errorf("rdbg: pause after attaching: %w", err)
		}
	}
	return nil
}

// resume continues the program past the stop rdbg reported on attach.
func (t *transport) resume() {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	if _, err := t.request("continue", map[string]any{"threadId": mainThread}, nil); err != nil {
		t.log.Warn("rdbg: continue after attaching", "err", err)
	}
}

// signalStopLocked decides a pause stop of an attach's configuration and
// of rdbg's signals before 1.6 (see syntheticStop); ok is false for any
// other stop. t.mu is held.
func (t *transport) signalStopLocked(reason string) (v verdict, ok bool) {
	if reason != "pause" || !t.attach {
		return passOn, false
	}
	if t.askedPause {
		t.askedPause = false
		return passOn, false
	}
	preAttachPause := t.dialect.pausesOnAttach
	switch {
	case t.configuring:
		// From 1.6 no signal, but a stop before the configuration is done
		// is none the session can take either.
		t.paused, t.frameID = true, 0
		if preAttachPause {
			t.signalStops++
		}
		return configurationStop, true
	case !preAttachPause:
		return passOn, false
	case t.syntheticStop:
		t.syntheticStop = false
		t.paused, t.frameID = true, 0
		if t.attachStop {
			t.attachStop = false
			return attachStop, true
		}
		return passOn, true
	case t.signalStops == 0:
		t.signalStops++
		t.paused, t.frameID = true, 0
		return configurationStop, true
	case t.signalStops == 1:
		t.signalStops++
		t.paused, t.frameID = true, 0
		return trapStop, true
	}
	return passOn, false
}

// resumeAgain resumes the program past a deferred attach signal's stop,
// as the session last resumed it (continue when it has not yet: the
// transport's own continue past the attach stop).
func (t *transport) resumeAgain() {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	t.mu.Lock()
	last := t.lastResume
	t.mu.Unlock()
	command, args := "continue", map[string]any{"threadId": mainThread}
	if last != nil {
		command, args = last.Command, map[string]any{}
		_ = json.Unmarshal(last.Arguments, &args)
	}
	if _, err := t.request(command, args, nil); err != nil {
		t.log.Warn("rdbg: resuming past the deferred attach stop", "command", command, "err", err)
	}
}

// resumes are the requests that set the program running.
var resumes = map[string]bool{"continue": true, "next": true, "stepIn": true, "stepOut": true}

// mainThread is the id rdbg gives the program's main thread (its pause
// stops every thread whatever the id).
const mainThread = 1

// track follows what the breakpoint removal needs (whether the program is
// paused, on which frame) and removes dropped breakpoints before their
// file's new set goes out. writeMu is held.
func (t *transport) track(m message) {
	switch m.Command {
	case "continue", "next", "stepIn", "stepOut", "stepBack", "reverseContinue":
		t.mu.Lock()
		t.paused, t.frameID = false, 0
		t.mu.Unlock()
	case "stackTrace":
		t.mu.Lock()
		t.stackSeqs[m.Seq] = true
		t.mu.Unlock()
	case "setBreakpoints":
		t.removeDropped(m.Arguments)
	}
}

// request sends a request of the transport's own, numbered far above the
// session's; its answer goes to w (when not nil), never to the session.
// writeMu is held.
func (t *transport) request(command string, args map[string]any, w chan response) (int, error) {
	t.mu.Lock()
	t.seq++
	seq := ownSeqBase + t.seq
	if w != nil {
		t.waiters[seq] = w
	}
	t.mu.Unlock()
	body, err := json.Marshal(map[string]any{"seq": seq, "type": "request", "command": command, "arguments": args})
	if err == nil {
		err = t.write(dap.AppendFrame(nil, body))
	}
	if err != nil {
		t.mu.Lock()
		delete(t.waiters, seq)
		t.mu.Unlock()
		return 0, err
	}
	return seq, nil
}

func (t *transport) write(frame []byte) error {
	_, err := t.conn.Write(frame)
	return err
}

// refuse answers a request with a failure of the transport's own.
func (t *transport) refuse(m message, text string) {
	body, _ := json.Marshal(map[string]any{
		"seq": 0, "type": "response", "request_seq": m.Seq, "command": m.Command,
		"success": false, "message": text,
	})
	select {
	case t.inject <- dap.AppendFrame(nil, body):
	case <-t.closed:
	}
}

// removeDropped compares a file's new breakpoint set with what rdbg (before
// 1.5) has and removes the lines that are gone or changed: now if the
// program is paused on a known frame, else at the next stop. writeMu is
// held.
// docs/adapter-quirks.md: rdbg-8.
func (t *transport) removeDropped(raw json.RawMessage) {
	var args struct {
		Source struct {
			Path string `json:"path"`
		} `json:"source"`
		Breakpoints []struct {
			Line      int    `json:"line"`
			Condition string `json:"condition"`
		} `json:"breakpoints"`
	}
	if json.Unmarshal(raw, &args) != nil || args.Source.Path == "" {
		return
	}
	path := args.Source.Path
	now := map[int]string{}
	for _, b := range args.Breakpoints {
		now[b.Line] = b.Condition
	}
	t.mu.Lock()
	var gone []int
	for line, cond := range t.sent[path] {
		if c, ok := now[line]; !ok || c != cond {
			gone = append(gone, line)
		}
	}
	t.sent[path] = now
	// A line re-added before its removal happened stays.
	t.toDelete[path] = slices.DeleteFunc(t.toDelete[path], func(l int) bool { _, ok := now[l]; return ok })
	if len(t.toDelete[path]) == 0 {
		delete(t.toDelete, path)
	}
	paused, frame := t.paused, t.frameID
	if len(gone) > 0 && (!paused || frame == 0) {
		t.toDelete[path] = append(t.toDelete[path], gone...)
		gone = nil
	}
	t.mu.Unlock()
	if len(gone) == 0 {
		return
	}
	slices.Sort(gone)
	// Before the set is forwarded: rdbg would ignore a changed line that
	// it still holds.
	if err := t.deleteLocked(frame, path, gone); err != nil {
		t.log.Warn("rdbg: removing breakpoints", "file", path, "lines", gone, "err", err)
	}
}

// breakpointHit reads the file and line of a breakpoint stop's
// description, " BP - Line  /path/prog.rb:5 (line)" (1.4.0).
var breakpointHit = regexp.MustCompile(`BP - Line\s+(.+):(\d+)`)

// hitRemovedLocked says whether a stopped event is at a line breakpoint
// the session removed while the program ran, which rdbg still holds (its
// removal waits for a stop): the session asked for it to be gone, so the
// stop must not reach it. t.mu is held.
func (t *transport) hitRemovedLocked(body json.RawMessage) bool {
	if len(t.toDelete) == 0 {
		return false
	}
	var b struct {
		Reason      string `json:"reason"`
		Description string `json:"description"`
	}
	if json.Unmarshal(body, &b) != nil || b.Reason != "breakpoint" {
		return false
	}
	m := breakpointHit.FindStringSubmatch(b.Description)
	if m == nil {
		return false
	}
	line, _ := strconv.Atoi(m[2])
	for path, lines := range t.toDelete {
		if !slices.Contains(lines, line) || !sameFile(path, m[1]) {
			continue
		}
		_, kept := t.sent[path][line]
		return !kept
	}
	return false
}

// sameFile says whether the session's path and rdbg's (a real path) name
// one file.
func sameFile(ours, rdbgs string) bool {
	if ours == rdbgs {
		return true
	}
	resolved, err := filepath.EvalSymlinks(ours)
	return err == nil && resolved == rdbgs
}

// skipRemoved, at a stop on a removed breakpoint, removes every
// breakpoint waiting for a stop and continues the program.
func (t *transport) skipRemoved() {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	frame, err := t.topFrameLocked()
	if err != nil {
		t.log.Warn("rdbg: reading the frame to remove breakpoints in", "err", err)
	} else {
		t.mu.Lock()
		pending := t.toDelete
		t.toDelete = map[string][]int{}
		t.mu.Unlock()
		for path, lines := range pending {
			slices.Sort(lines)
			if err := t.deleteLocked(frame, path, slices.Compact(lines)); err != nil {
				t.log.Warn("rdbg: removing breakpoints", "file", path, "lines", lines, "err", err)
			}
		}
	}
	t.mu.Lock()
	t.paused, t.frameID = false, 0
	t.mu.Unlock()
	if _, err := t.request("continue", map[string]any{"threadId": mainThread}, nil); err != nil {
		t.log.Warn("rdbg: continuing past a removed breakpoint", "err", err)
	}
}

// topFrameLocked asks rdbg for the paused program's top frame id.
// writeMu is held.
func (t *transport) topFrameLocked() (int, error) {
	w := make(chan response, 1)
	seq, err := t.request("stackTrace", map[string]any{"threadId": mainThread, "levels": 1}, w)
	if err != nil {
		return 0, err
	}
	r, err := t.await(seq, w)
	if err != nil {
		return 0, err
	}
	if !r.Success || len(r.Body.StackFrames) == 0 {
		return 0, fmt.Errorf("stackTrace failed: %s", r.Message)
	}
	return r.Body.StackFrames[0].ID, nil
}

// await waits, at most deleteTimeout, for the answer to the transport's
// own request seq.
func (t *transport) await(seq int, w chan response) (response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout)
	defer cancel()
	select {
	case r, ok := <-w:
		if !ok {
			return response{}, errors.New("connection ended")
		}
		return r, nil
	case <-ctx.Done():
		t.mu.Lock()
		delete(t.waiters, seq)
		t.mu.Unlock()
		return response{}, ctx.Err()
	}
}

// deleteAll removes the breakpoints that waited for a stop.
func (t *transport) deleteAll(frame int, pending map[string][]int) {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	for path, lines := range pending {
		slices.Sort(lines)
		if err := t.deleteLocked(frame, path, slices.Compact(lines)); err != nil {
			t.log.Warn("rdbg: removing breakpoints", "file", path, "lines", lines, "err", err)
		}
	}
}

// deleteLocked evaluates, in the paused frame, Ruby that deletes the
// line breakpoints of path at lines from rdbg's table, and waits for the
// answer. writeMu is held.
func (t *transport) deleteLocked(frame int, path string, lines []int) error {
	w := make(chan response, 1)
	seq, err := t.request("evaluate", map[string]any{"expression": deleteExpression(path, lines), "frameId": frame, "context": "repl"}, w)
	if err != nil {
		return err
	}
	r, err := t.await(seq, w)
	if err != nil {
		return err
	}
	if !r.Success {
		return fmt.Errorf("evaluate failed: %s %s", r.Message, r.Body.Result)
	}
	t.log.Debug("rdbg: breakpoints removed", "file", path, "lines", lines, "result", r.Body.Result)
	return nil
}

// deleteExpression is Ruby that deletes rdbg's line breakpoints of
// path at lines: its table (SESSION's @bps) is keyed [realpath, line].
// It evaluates to how many were deleted.
func deleteExpression(path string, lines []int) string {
	nums := make([]string, len(lines))
	for i, l := range lines {
		nums[i] = strconv.Itoa(l)
	}
	q := rubyString(path)
	return fmt.Sprintf("(lambda { |bps, path, lines| bps.select { |k, _| k.is_a?(Array) && k.size == 2 && k[0] == path && lines.include?(k[1]) }.each { |k, bp| bp.delete; bps.delete(k) }.size })"+
		".call(::DEBUGGER__::SESSION.instance_variable_get(:@bps), (File.realpath(%s) rescue %s), [%s])",
		q, q, strings.Join(nums, ", "))
}

// rubyString quotes s as a single-quoted Ruby literal, where only \ and '
// are special.
func rubyString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
