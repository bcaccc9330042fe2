package mock

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// breakpoint is a line or function breakpoint. Everything but hits is fixed
// when it is set.
type breakpoint struct {
	id        int
	requested int    // the line asked for; 0 for a function breakpoint
	fn        string // the function, for a function breakpoint
	line      int    // where it takes effect

	condition string
	cond      expr
	condErr   error // a syntax error in condition, reported at each hit

	hitCondition string
	hit          dap.HitCondition
	logMessage   string

	hits int // guarded by server.mu
}

// sameAs reports whether o asks for the same thing, so that re-sending a
// file's breakpoints keeps their ids and hit counts.
func (b *breakpoint) sameAs(o *breakpoint) bool {
	return b.requested == o.requested && b.fn == o.fn && b.condition == o.condition &&
		b.hitCondition == o.hitCondition && b.logMessage == o.logMessage
}

// bpSet is the breakpoints of one file (by line) or the function
// breakpoints (by name). A set is replaced, never changed, so the program
// may use a slice it read under the lock after releasing it.
type bpSet[K comparable] struct {
	all []*breakpoint
	by  map[K][]*breakpoint
}

func newBPSet[K comparable]() *bpSet[K] { return &bpSet[K]{by: map[K][]*breakpoint{}} }

// newBreakpoint fills what line and function breakpoints share and returns
// why it cannot be verified, if it cannot.
func newBreakpoint(b *breakpoint, condition, hitCondition string) string {
	b.condition, b.hitCondition = condition, hitCondition
	if condition != "" {
		b.cond, b.condErr = parseExpression(condition)
	}
	h, err := dap.ParseHitCondition(hitCondition)
	if err != nil {
		return err.Error()
	}
	b.hit = h
	return ""
}

// adopt gives b the id and hit count of the same breakpoint in old, or a
// new id.
func (s *server) adopt(b *breakpoint, old []*breakpoint, taken map[*breakpoint]bool) {
	for _, o := range old {
		if !taken[o] && b.sameAs(o) {
			taken[o] = true
			b.id = o.id
			s.mu.Lock()
			b.hits = o.hits
			s.mu.Unlock()
			return
		}
	}
	s.nextBPID++
	b.id = s.nextBPID
}

func (s *server) setBreakpoints(req *request) (any, error) {
	var args godap.SetBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if args.Source.Path == "" {
		return nil, errors.New("setBreakpoints needs source.path (the mock adapter has no source references)")
	}
	if s.hs.refuseBreakpoints != "" {
		return nil, errors.New(s.hs.refuseBreakpoints)
	}
	path, err := filepath.Abs(args.Source.Path)
	if err != nil {
		return nil, fmt.Errorf("source path %s: %v", args.Source.Path, err)
	}
	prog, progErr := s.sourceFor(path)
	wanted := args.Breakpoints
	if len(wanted) == 0 {
		for _, l := range args.Lines {
			wanted = append(wanted, godap.SourceBreakpoint{Line: l})
		}
	}
	s.mu.Lock()
	old := s.lineBPs[path]
	s.mu.Unlock()
	var oldAll []*breakpoint
	if old != nil {
		oldAll = old.all
	}
	set := newBPSet[int]()
	taken := map[*breakpoint]bool{}
	source := &godap.Source{Name: filepath.Base(path), Path: path}
	out := make([]godap.Breakpoint, 0, len(wanted))
	for _, w := range wanted {
		b := &breakpoint{requested: w.Line, logMessage: w.LogMessage}
		msg := newBreakpoint(b, w.Condition, w.HitCondition)
		if progErr != nil {
			msg = progErr.Error()
		} else if line, why := prog.resolveLine(w.Line); why != "" {
			msg = why
		} else {
			b.line = line
		}
		s.adopt(b, oldAll, taken)
		set.all = append(set.all, b)
		resp := godap.Breakpoint{Id: b.id, Verified: msg == "", Message: msg, Source: source, Line: w.Line}
		if msg == "" {
			set.by[b.line] = append(set.by[b.line], b)
			resp.Line = b.line
		}
		out = append(out, resp)
	}
	s.mu.Lock()
	s.lineBPs[path] = set
	s.mu.Unlock()
	return godap.SetBreakpointsResponseBody{Breakpoints: out}, nil
}

// sourceFor parses the file breakpoints are set in: the program once it is
// launched, or whatever file the client names (it may come before launch).
func (s *server) sourceFor(path string) (*program, error) {
	if s.prog != nil && s.prog.path == path {
		return s.prog, nil
	}
	src, err := userfile.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("source not found: %s", path)
	case err != nil:
		return nil, fmt.Errorf("cannot read source %s: %v", path, err)
	}
	return parseProgram(path, src)
}

func (s *server) setFunctionBreakpoints(req *request) (any, error) {
	var args godap.SetFunctionBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	s.mu.Lock()
	oldAll := s.funcBPs.all
	s.mu.Unlock()
	set := newBPSet[string]()
	taken := map[*breakpoint]bool{}
	out := make([]godap.Breakpoint, 0, len(args.Breakpoints))
	for _, w := range args.Breakpoints {
		b := &breakpoint{fn: w.Name}
		msg := newBreakpoint(b, w.Condition, w.HitCondition)
		var fn *funcStmt
		switch {
		case s.prog == nil:
			msg = "the program is not launched yet: send launch before setFunctionBreakpoints"
		case s.prog.funcs[w.Name] == nil:
			msg = fmt.Sprintf("function %s is not defined in %s", w.Name, filepath.Base(s.prog.path))
		default:
			fn = s.prog.funcs[w.Name]
		}
		s.adopt(b, oldAll, taken)
		set.all = append(set.all, b)
		resp := godap.Breakpoint{Id: b.id, Verified: msg == "", Message: msg}
		if msg == "" {
			b.line = fn.line
			if len(fn.body) > 0 {
				b.line = fn.body[0].lineNo()
			}
			set.by[w.Name] = append(set.by[w.Name], b)
			resp.Source = &godap.Source{Name: filepath.Base(s.prog.path), Path: s.prog.path}
			resp.Line = b.line
		}
		out = append(out, resp)
	}
	s.mu.Lock()
	s.funcBPs = set
	s.mu.Unlock()
	return godap.SetFunctionBreakpointsResponseBody{Breakpoints: out}, nil
}

func (s *server) setExceptionBreakpoints(req *request) (any, error) {
	var args godap.SetExceptionBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	ids := args.Filters
	for _, o := range args.FilterOptions {
		ids = append(ids, o.FilterId)
	}
	var filters excFilters
	out := make([]godap.Breakpoint, 0, len(ids))
	for _, id := range ids {
		b := godap.Breakpoint{Verified: true}
		switch id {
		case "all":
			filters.all = true
		case "uncaught":
			filters.uncaught = true
		default:
			b = godap.Breakpoint{Message: fmt.Sprintf("unknown exception filter %q (this adapter has uncaught and all)", id)}
		}
		out = append(out, b)
	}
	s.mu.Lock()
	s.exc = filters
	s.mu.Unlock()
	return godap.SetExceptionBreakpointsResponseBody{Breakpoints: out}, nil
}

// hits returns the ids of the breakpoints among bps that stop the program
// here, counting hits and writing log messages on the way. It runs on the
// program's goroutine.
func (s *server) hits(t *thread, fr *frame, bps []*breakpoint) []int {
	var ids []int
	for _, b := range bps {
		if !s.conditionHolds(t, fr, b) {
			continue
		}
		s.mu.Lock()
		b.hits++
		n := b.hits
		s.mu.Unlock()
		if !b.hit.Match(n) {
			continue
		}
		if b.logMessage != "" {
			s.Output("console", interpolate(t, fr, b.logMessage, s.Output)+"\n")
			continue
		}
		ids = append(ids, b.id)
	}
	return ids
}

// conditionHolds evaluates a breakpoint's condition. A condition that
// cannot be evaluated counts as true, as in debugpy, so that a typo stops
// the program rather than silently never stopping it; the console says why.
func (s *server) conditionHolds(t *thread, fr *frame, b *breakpoint) bool {
	if b.condition == "" {
		return true
	}
	err := b.condErr
	if err == nil {
		var v value
		if v, err = evalIn(t.prog, t.globals, fr, b.cond, s.Output); err == nil {
			return truthy(v)
		}
	}
	s.Output("console", fmt.Sprintf("breakpoint %d at line %d: condition %q could not be evaluated (%v); treating it as true\n",
		b.id, fr.line, b.condition, err))
	return true
}

// interpolate replaces each {expression} in a log message with its value.
func interpolate(t *thread, fr *frame, msg string, out func(category, text string)) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(msg, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(msg[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(msg[:open])
		src := msg[open+1 : open+end]
		msg = msg[open+end+1:]
		x, err := parseExpression(src)
		var v value
		if err == nil {
			v, err = evalIn(t.prog, t.globals, fr, x, out)
		}
		if err != nil {
			fmt.Fprintf(&b, "<error: %v>", err)
			continue
		}
		b.WriteString(text(v))
	}
	b.WriteString(msg)
	return b.String()
}
