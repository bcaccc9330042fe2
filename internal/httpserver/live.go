package httpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// What the page shows of the output and the timeline.
const (
	pageOutputTail = 60
	pageTimeline   = 40
)

// sessionSummary is one line of the page's session list.
type sessionSummary struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Language string        `json:"language"`
	State    session.State `json:"state"`
	Owner    string        `json:"owner,omitempty"`
	Shared   bool          `json:"shared,omitempty"`
}

// pageState is everything the page renders, sent whole on every change:
// it is small, and a page that missed an update is never left wrong.
type pageState struct {
	Time        time.Time                    `json:"time"`
	Version     string                       `json:"version"`
	Control     bool                         `json:"control"`
	Sessions    []sessionSummary             `json:"sessions"`
	Selected    string                       `json:"selected,omitempty"`
	View        *session.View                `json:"view,omitempty"`
	Breakpoints []session.Breakpoint         `json:"breakpoints,omitempty"`
	Functions   []session.FunctionBreakpoint `json:"functionBreakpoints,omitempty"`
	Output      []session.OutputEntry        `json:"output,omitempty"`
	Timeline    []server.ToolCall            `json:"timeline"`
}

// wake is what an update waits on: any of the channels closing.
type wake struct {
	session, output, timeline <-chan struct{}
}

// viewer is who a page request shows sessions to: nil for the person who
// runs the server (the page's cookie), who sees every session; else the
// header of a client making its own requests with the bearer token, which
// sees what its tools may use (by its MCP session or reconnect key). A
// client request naming neither is refused with 403.
func (h *Handler) viewer(w http.ResponseWriter, r *http.Request) (client http.Header, ok bool) {
	if h.access(r) == ownerAccess {
		return nil, true
	}
	if r.Header.Get(sessionHeader) == "" && r.Header.Get(server.ReconnectKeyHeader) == "" {
		http.Error(w, "the live page's data is the page's: open the login link printed at start; an MCP client sees its own sessions here by sending its "+
			sessionHeader+" or "+server.ReconnectKeyHeader, http.StatusForbidden)
		return nil, false
	}
	return r.Header, true
}

// visible reports whether viewer may see the debug session id: one it
// is shown (a sessionless client's is shown only to it) and may use.
func (h *Handler) visible(viewer http.Header, id string) bool {
	return viewer == nil || (h.srv.Listed(viewer, id) && h.srv.MayUse(viewer, id))
}

// chosenVisible refuses with 403 a request that names a session its viewer
// may not see, as the session's tools refuse it.
func (h *Handler) chosenVisible(w http.ResponseWriter, viewer http.Header, chosen string) bool {
	if chosen == "" || h.visible(viewer, chosen) {
		return true
	}
	http.Error(w, "debug session "+chosen+" belongs to another client", http.StatusForbidden)
	return false
}

// build assembles the state viewer sees for the chosen session (the
// newest one it may see when none is chosen, or the chosen one is gone).
// Every session is listed, as list_debug_sessions lists them; only one the
// viewer may use is shown, and the timeline holds the calls on those.
func (h *Handler) build(ctx context.Context, chosen string, viewer http.Header) (pageState, wake) {
	var wk wake
	st := pageState{Time: time.Now(), Version: server.Version, Control: h.cfg.AllowHumanControl, Sessions: []sessionSummary{}}
	timeline, timelineChanged := h.srv.Timeline(pageTimeline)
	wk.timeline = timelineChanged
	st.Timeline = make([]server.ToolCall, 0, len(timeline))
	for _, c := range timeline {
		if viewer == nil || (c.SessionID != "" && h.visible(viewer, c.SessionID)) {
			st.Timeline = append(st.Timeline, c)
		}
	}
	var sel, newest *session.Session
	for _, s := range h.srv.DebugSessions() {
		if viewer != nil && !h.srv.Listed(viewer, s.ID) {
			continue // its id is its owner's proof
		}
		owner, shared := h.srv.Owner(s.ID)
		st.Sessions = append(st.Sessions, sessionSummary{ID: s.ID, Name: s.Name(), Language: s.Language.ID, State: s.State(), Owner: owner, Shared: shared})
		if !h.visible(viewer, s.ID) {
			continue
		}
		newest = s
		if s.ID == chosen {
			sel = s
		}
	}
	if sel == nil {
		sel = newest
	}
	if sel == nil {
		return st, wk
	}
	// Subscribe before reading, so that a change between the read and the
	// wait is not missed.
	_, wk.session = sel.Changed()
	wk.output = sel.Output().Arrived()
	v := sel.View(ctx)
	st.Selected, st.View = sel.ID, &v
	st.Breakpoints, st.Functions = sel.Breakpoints("")
	st.Output = sel.Output().Tail(pageOutputTail)
	return st, wk
}

func (h *Handler) state(w http.ResponseWriter, r *http.Request) {
	viewer, ok := h.viewer(w, r)
	chosen := r.URL.Query().Get("session")
	if !ok || !h.chosenVisible(w, viewer, chosen) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	st, _ := h.build(ctx, chosen, viewer)
	writeJSON(w, st)
}

// Pacing of the event stream: a program printing in a loop must not turn
// into an update per line (output updates are at least minUpdateGap
// apart), and a quiet stream is kept alive (and a dead
// reader found) by a comment now and then.
const (
	minUpdateGap = 30 * time.Millisecond
	heartbeat    = 15 * time.Second
)

// events streams the page state as server-sent events, one whole state per
// change, until the browser goes away or the server shuts down.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	viewer, ok := h.viewer(w, r)
	chosen := r.URL.Query().Get("session")
	if !ok || !h.chosenVisible(w, viewer, chosen) {
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	ctx := r.Context()
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		bctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		st, wk := h.build(bctx, chosen, viewer)
		cancel()
		body, err := json.Marshal(st)
		if err != nil {
			h.log.Warn("encoding the page state", "err", err)
			return
		}
		if _, err := fmt.Fprintf(w, "event: state\ndata: %s\n\n", body); err != nil {
			return
		}
		flusher.Flush()
		sent := time.Now()
		throttle := false
	wait:
		for {
			select {
			case <-ctx.Done():
				return
			case <-beat.C:
				if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
					return
				}
				flusher.Flush()
			case <-wk.session:
				break wait
			case <-wk.output:
				throttle = true
				break wait
			case <-wk.timeline:
				break wait
			}
		}
		// Only output is paced: a stop or a tool call goes out at once.
		if gap := time.Until(sent.Add(minUpdateGap)); throttle && gap > 0 {
			select {
			case <-time.After(gap):
			case <-ctx.Done():
				return
			}
		}
	}
}

// controlRequest is a person's button press on the page.
type controlRequest struct {
	SessionID string `json:"sessionId"`
	Action    string `json:"action"`
}

var controlKinds = map[string]string{
	"continue": session.Continue, "step_over": session.StepOver, "step_into": session.StepInto, "step_out": session.StepOut,
}

// control runs a person's continue, step or pause, when the server was
// started with --allow-human-control. The Origin check has passed, and
// the JSON body keeps a foreign page from posting a plain form here.
func (h *Handler) control(w http.ResponseWriter, r *http.Request) {
	if !h.cfg.AllowHumanControl {
		http.Error(w, "human control is off; start the server with --allow-human-control", http.StatusForbidden)
		return
	}
	viewer, ok := h.viewer(w, r)
	if !ok {
		return
	}
	var req controlRequest
	if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, "expected a JSON body {sessionId, action}", http.StatusBadRequest)
		return
	}
	if !h.chosenVisible(w, viewer, req.SessionID) {
		return
	}
	sess, err := h.srv.DebugSession(req.SessionID)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	start := time.Now()
	noWait := session.WaitOptions{Wait: false}
	if req.Action == "pause" {
		_, err = sess.Pause(ctx, 0, noWait)
	} else if kind, ok := controlKinds[req.Action]; ok {
		_, err = sess.Resume(ctx, kind, 0, noWait)
	} else {
		http.Error(w, "action must be continue, step_over, step_into, step_out or pause", http.StatusBadRequest)
		return
	}
	entry := server.ToolCall{Time: start, Client: "human", Tool: req.Action, SessionID: sess.ID, Millis: float64(time.Since(start).Microseconds()) / 1000, OK: err == nil}
	if err != nil {
		entry.Error = err.Error()
	}
	h.srv.Record(entry)
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		_ = json.NewEncoder(w).Encode(map[string]any{"success": false, "error": err.Error()})
		return
	}
	writeJSON(w, map[string]any{"success": true})
}
