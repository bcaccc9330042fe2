package golang

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"
)

// Delve before 1.27 sends no DAP exited event: the program's exit code
// only appears in a console output line, "Process 28200 has exited with
// status 3", followed by terminated (measured with Delve 1.25.2; the DAP
// server of 1.25.2 and 1.26.2 has no exited event at all, 1.27.1 has). The
// agent would see the program end without its exit code. exitCodeTransport
// adds the exited event after that line, as Delve 1.27 sends it.

// sendsExitedEvents reports whether a Delve version ("1.25.2") sends DAP
// exited events. A version that cannot be read is taken as recent.
func sendsExitedEvents(version string) bool {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return true
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return true
	}
	return major > 1 || major == 1 && minor >= 27
}

// processExited matches Delve's console line at the program's end (its
// proc.ErrProcessExited).
var processExited = regexp.MustCompile(`^Process \d+ has exited with status (-?\d+)\s*$`)

// exitCodeTransport passes Delve's DAP messages through unchanged and adds
// an exited event after the console line that carries the exit code.
// Writes go straight to Delve.
type exitCodeTransport struct {
	conn io.ReadWriteCloser
	r    *io.PipeReader
}

// withExitedEvents wraps the connection to a Delve that sends no exited
// events.
// docs/adapter-quirks.md: delve-12.
func withExitedEvents(conn io.ReadWriteCloser) io.ReadWriteCloser {
	r, w := io.Pipe()
	go relayAddingExited(conn, w)
	return &exitCodeTransport{conn: conn, r: r}
}

func (t *exitCodeTransport) Read(p []byte) (int, error)  { return t.r.Read(p) }
func (t *exitCodeTransport) Write(p []byte) (int, error) { return t.conn.Write(p) }

// Close closes the connection to Delve, which ends the relay.
func (t *exitCodeTransport) Close() error {
	t.r.Close()
	return t.conn.Close()
}

// relayAddingExited copies messages from Delve to w until the connection
// ends, then ends w with the same error (io.EOF for a plain close).
func relayAddingExited(from io.Reader, w *io.PipeWriter) {
	br := bufio.NewReader(from)
	for {
		msg, err := godap.ReadBaseMessage(br)
		if err != nil {
			w.CloseWithError(err)
			return
		}
		if err := godap.WriteBaseMessage(w, msg); err != nil {
			return
		}
		if code, ok := exitStatus(msg); ok {
			ev, _ := json.Marshal(godap.ExitedEvent{
				Event: godap.Event{ProtocolMessage: godap.ProtocolMessage{Type: "event"}, Event: "exited"},
				Body:  godap.ExitedEventBody{ExitCode: code},
			})
			if err := godap.WriteBaseMessage(w, ev); err != nil {
				return
			}
		}
	}
}

// exitStatus reads the exit code from Delve's console line at the
// program's end, if msg is that output event.
func exitStatus(msg []byte) (int, bool) {
	if !bytes.Contains(msg, []byte("has exited with status")) {
		return 0, false
	}
	var ev struct {
		Type  string `json:"type"`
		Event string `json:"event"`
		Body  struct {
			Category string `json:"category"`
			Output   string `json:"output"`
		} `json:"body"`
	}
	// The program's own output comes as stdout and stderr (outputMode
	// remote); Delve's lines as console.
	if json.Unmarshal(msg, &ev) != nil || ev.Type != "event" || ev.Event != "output" || ev.Body.Category != "console" {
		return 0, false
	}
	m := processExited.FindStringSubmatch(ev.Body.Output)
	if m == nil {
		return 0, false
	}
	code, err := strconv.Atoi(m[1])
	return code, err == nil
}
