package session

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// Watch is an expression evaluated at every stop, its value shown in the
// stop's snapshot.
type Watch struct {
	ID         int    `json:"id"`
	Expression string `json:"expression"`
}

// WatchValue is a watch's value at one stop. Error says why it has none
// (a name not defined in this frame, say): a watch never fails a call.
type WatchValue struct {
	ID         int    `json:"id"`
	Expression string `json:"expression"`
	Value      string `json:"value,omitempty"`
	Type       string `json:"type,omitempty"`
	Error      string `json:"error,omitempty"`
	Truncated  bool   `json:"truncated,omitempty"`
	Masked     bool   `json:"masked,omitempty"`
}

// Change is a local or watch whose value differs from the previous stop in
// the same frame (object addresses aside).
type Change struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// maxWatches bounds the evaluations added to every stop.
const maxWatches = 20

// AddWatch adds a watch; when the program is paused it is evaluated at once
// in the top frame of the stop.
func (s *Session) AddWatch(ctx context.Context, expression string) (WatchValue, error) {
	expression = strings.TrimSpace(expression)
	if expression == "" {
		return WatchValue{}, errorf(`pass the expression to watch, e.g. "len(items)"`, "expression is empty")
	}
	s.mu.Lock()
	for _, w := range s.watches {
		if w.Expression == expression {
			s.mu.Unlock()
			return WatchValue{}, errorf("list_watches shows the watches; remove_watch removes one", "%q is already watched (watch %d)", Brief(expression), w.ID)
		}
	}
	if len(s.watches) >= maxWatches {
		s.mu.Unlock()
		return WatchValue{}, errorf("remove a watch first (list_watches shows them)", "at most %d watches per session", maxWatches)
	}
	s.nextWatchID++
	w := Watch{ID: s.nextWatchID, Expression: expression}
	s.watches = append(s.watches, w)
	r, st := s.r, s.stop
	s.mu.Unlock()
	if st == nil {
		return WatchValue{ID: w.ID, Expression: w.Expression}, nil
	}
	<-st.ready
	v := evalWatches(ctx, r, st, []Watch{w})[0]
	if v.Error == "" {
		// The current stop is the one the next compares with.
		s.mu.Lock()
		if prev := s.lastValues[stopKey(st)]; prev != nil {
			prev[w.Expression] = st.watchValue(w.ID)
		}
		s.mu.Unlock()
	}
	return v, nil
}

// RemoveWatch removes a watch by id or by expression.
func (s *Session) RemoveWatch(id int, expression string) (Watch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, w := range s.watches {
		if (id != 0 && w.ID == id) || (id == 0 && w.Expression == strings.TrimSpace(expression)) {
			s.watches = append(s.watches[:i:i], s.watches[i+1:]...)
			return w, nil
		}
	}
	return Watch{}, errorf("list_watches shows the watches and their ids", "no watch %s", watchName(id, expression))
}

func watchName(id int, expression string) string {
	if id != 0 {
		return fmt.Sprint(id)
	}
	return fmt.Sprintf("%q", Brief(expression))
}

// Watches returns the watches, with their values in the current stop's top
// frame when the program is paused (nil values otherwise).
func (s *Session) Watches(ctx context.Context) ([]Watch, []WatchValue) {
	s.mu.Lock()
	watches := append([]Watch(nil), s.watches...)
	r, st := s.r, s.stop
	s.mu.Unlock()
	if st == nil || len(watches) == 0 {
		return watches, nil
	}
	<-st.ready
	return watches, evalWatches(ctx, r, st, watches)
}

// evalWatches evaluates watches in the stop's shown frame, all at once.
func evalWatches(ctx context.Context, r *connection, st *Stop, watches []Watch) []WatchValue {
	out := make([]WatchValue, len(watches))
	for i, w := range watches {
		out[i] = WatchValue{ID: w.ID, Expression: w.Expression}
	}
	if len(st.frames) == 0 {
		for i := range out {
			out[i].Error = "no stack frame to evaluate in"
		}
		return out
	}
	exprs := make([]string, len(watches))
	for i, w := range watches {
		exprs[i] = w.Expression
	}
	for i, e := range r.evaluateAll(ctx, st.frames[st.top].Id, exprs) {
		if e.err != nil {
			out[i].Error = e.err.Error()
			continue
		}
		out[i].Value, out[i].Truncated, out[i].Masked = shapeValue(exprs[i], e.body.Result, e.body.VariablesReference, snapshotValueLen)
		out[i].Type = e.body.Type
		st.watchRaw(watches[i].ID, e.body.Result)
	}
	return out
}

// watchRaw keeps a watch's whole value for change detection.
func (st *Stop) watchRaw(id int, value string) {
	st.rawMu.Lock()
	defer st.rawMu.Unlock()
	if st.rawWatches == nil {
		st.rawWatches = map[int]string{}
	}
	st.rawWatches[id] = value
}

func (st *Stop) watchValue(id int) string {
	st.rawMu.Lock()
	defer st.rawMu.Unlock()
	return st.rawWatches[id]
}

// stopKey names the frame a stop shows, for comparing with the previous
// stop in that frame: its function and its depth from the bottom of the
// stack. A recursive function's activations sit at different depths, so
// a stop never compares with another activation (the caller a step out
// returns to). Frame ids cannot serve: adapters renumber frames at every
// stop. "" when the stop has no frame or its depth is a guess.
func stopKey(st *Stop) string {
	if len(st.frames) == 0 || !st.depthKnown {
		return ""
	}
	f := st.frames[st.top]
	name := f.Name
	if f.Source != nil {
		name = f.Source.Path + "\x00" + f.Name
	}
	return fmt.Sprintf("%s\x00%d", name, st.depth-1-st.top)
}

// objectAddress is a non-zero address as adapters print them in values:
// "<Box object at 0x7f52c6e919d0>", "(*main.label)(0xc000012345)",
// "0x00005555555592a0".
var objectAddress = regexp.MustCompile(`0x0*[1-9a-fA-F][0-9a-fA-F]{3,}`)

// withoutAddresses is a value as compared for changes: an object at
// another address, in this run or the previous, is the same value when
// nothing else differs. A null pointer still differs from a set one.
func withoutAddresses(value string) string {
	return objectAddress.ReplaceAllString(value, "0x…")
}

// noteChanges compares the stop's locals and watches with the previous stop
// in the same frame (see stopKey), records the differences on the stop and
// remembers this stop's values for the next one. Called once per stop, by
// prefetch.
func (s *Session) noteChanges(st *Stop) {
	key := stopKey(st)
	if key == "" {
		return
	}
	now := map[string]string{}
	var order []string
	for _, v := range filterSpecial(st.locals, false) {
		if _, dup := now[v.Name]; !dup {
			order = append(order, v.Name)
		}
		now[v.Name] = v.Value
	}
	for _, w := range st.watches {
		if w.Error != "" {
			continue
		}
		if _, dup := now[w.Expression]; dup {
			continue
		}
		order = append(order, w.Expression)
		now[w.Expression] = st.watchValue(w.ID)
	}
	s.mu.Lock()
	before, seen := s.lastValues[key]
	if s.lastValues == nil {
		s.lastValues = map[string]map[string]string{}
	}
	s.lastValues[key] = now
	s.mu.Unlock()
	if !seen {
		return
	}
	st.compared = true
	for _, name := range order {
		was, ok := before[name]
		switch {
		case !ok:
			st.added = append(st.added, name)
		case withoutAddresses(was) != withoutAddresses(now[name]):
			from, _, _ := shapeValue(name, was, 0, snapshotValueLen)
			to, _, _ := shapeValue(name, now[name], 0, snapshotValueLen)
			st.changed = append(st.changed, Change{Name: name, From: from, To: to})
		}
	}
}
