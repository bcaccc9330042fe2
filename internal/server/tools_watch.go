package server

import (
	"context"
	"fmt"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type addWatchArgs struct {
	SessionID  string `json:"sessionId"`
	Expression string `json:"expression" jsonschema:"expression evaluated in the top frame at every stop, e.g. len(items) or order.total"`
}

type watchResult struct {
	Success bool                 `json:"success"`
	Message string               `json:"message"`
	Watch   session.WatchValue   `json:"watch"`
	Watches []session.WatchValue `json:"watches,omitempty"`
}

type removeWatchArgs struct {
	SessionID  string `json:"sessionId"`
	WatchID    Int    `json:"watchId,omitempty" jsonschema:"id of the watch to remove (from add_watch or list_watches)"`
	Expression string `json:"expression,omitempty" jsonschema:"or the watched expression itself"`
}

type listWatchesResult struct {
	Success bool                 `json:"success"`
	Message string               `json:"message"`
	Watches []session.WatchValue `json:"watches"`
}

func (s *Server) addWatchTools() {
	addTool(s, "add_watch",
		"Watch an expression: every stop snapshot from now on carries its value, marked in changed when it differs from the previous stop's.",
		s.addWatch)
	addTool(s, "remove_watch", "Stop watching an expression (by watchId or by the expression).", s.removeWatch)
	addTool(s, "list_watches", "List the watches, with their values in the top frame when the program is paused.", s.listWatches)
}

func (s *Server) addWatch(ctx context.Context, a *addWatchArgs) (*watchResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	v, err := sess.AddWatch(ctx, a.Expression)
	if err != nil {
		return nil, err
	}
	v = briefWatch(v)
	msg := fmt.Sprintf("Watching %s (watch %d); every stop snapshot shows it.", v.Expression, v.ID)
	switch {
	case v.Error != "":
		msg += " It cannot be evaluated here: " + v.Error
	case v.Value != "":
		msg += " Now: " + v.Value
	}
	return &watchResult{Success: true, Message: msg, Watch: v}, nil
}

func (s *Server) removeWatch(_ context.Context, a *removeWatchArgs) (*watchResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.WatchID == 0 && a.Expression == "" {
		return nil, userError("pass watchId (list_watches shows them) or expression", "name the watch to remove")
	}
	w, err := sess.RemoveWatch(int(a.WatchID), a.Expression)
	if err != nil {
		return nil, err
	}
	brief := session.Brief(w.Expression)
	return &watchResult{Success: true, Message: fmt.Sprintf("Removed watch %d (%s).", w.ID, brief), Watch: session.WatchValue{ID: w.ID, Expression: brief}}, nil
}

func (s *Server) listWatches(ctx context.Context, a *sessionIDArgs) (*listWatchesResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	watches, values := sess.Watches(ctx)
	if values == nil {
		values = make([]session.WatchValue, len(watches))
		for i, w := range watches {
			values[i] = session.WatchValue{ID: w.ID, Expression: w.Expression}
		}
	}
	for i := range values {
		values[i] = briefWatch(values[i])
	}
	msg := fmt.Sprintf("%d watches.", len(values))
	if sess.State() != session.StatePaused && len(values) > 0 {
		msg += " The program is not paused: values appear in the next stop's snapshot."
	}
	return &listWatchesResult{Success: true, Message: msg, Watches: values}, nil
}
