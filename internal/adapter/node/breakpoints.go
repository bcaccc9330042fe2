package node

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// breakpoint is one DAP source breakpoint and the inspector breakpoints
// that implement it.
type breakpoint struct {
	id   int
	path string
	line int // as requested, 1-based
	// mapped is set for a source that is compiled to JavaScript (a .ts
	// file): it binds through a source map, once a script maps to it.
	mapped       bool
	condition    string
	hitCondition string
	logMessage   string
	hit          dap.HitCondition
	hitErr       error // an invalid hitCondition: the breakpoint never binds
	hits         int
	cdpIDs       []string
	boundIn      map[string]bool // compiled files it is bound in
	verified     bool
	actualLine   int
	message      string
	// fn is set when the inspector breakpoint implements a function
	// breakpoint, bound (by URL) at the body of the function declared at
	// fnPath:fnLine when those are set.
	fn     *funcBreakpoint
	fnPath string
	fnLine int
}

func (b *breakpoint) sameAs(o *breakpoint) bool {
	return b.line == o.line && b.condition == o.condition && b.hitCondition == o.hitCondition && b.logMessage == o.logMessage
}

func (b *breakpoint) dap() godap.Breakpoint {
	out := godap.Breakpoint{Id: b.id, Verified: b.verified, Line: b.line, Message: b.message,
		Source: &godap.Source{Name: filepath.Base(b.path), Path: b.path}}
	if b.verified && b.actualLine > 0 {
		out.Line = b.actualLine
	}
	return out
}

// plainScript reports whether breakpoints in path bind by its own lines:
// JavaScript runs as written; anything else is compiled to it.
func plainScript(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".js", ".mjs", ".cjs":
		return true
	}
	return false
}

// runsAsWritten reports whether breakpoints in path bind by its own lines
// in this session: JavaScript, and TypeScript that node strips of its
// types. Type stripping replaces the annotations with blanks and keeps
// every position, and the script gets no source map (Node 22.23.3:
// scriptParsed of a stripped .ts has its file URL and an empty
// sourceMapURL); binding such a .ts through source maps waits for a map
// that never comes, and the program runs past its breakpoints.
func (s *server) runsAsWritten(path string) bool {
	return plainScript(path) || s.stripsTypes && isTypeScript(path)
}

func (s *server) setBreakpoints(req *request) (any, error) {
	var args godap.SetBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	path := args.Source.Path
	if path == "" {
		return nil, errors.New("setBreakpoints needs source.path")
	}
	path = filepath.Clean(path)
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()

	s.mu.Lock()
	old := s.bps[path]
	var stale []string
	for _, bp := range old {
		for _, id := range bp.cdpIDs {
			stale = append(stale, id)
			delete(s.byCDP, id)
		}
	}
	var fresh []*breakpoint
	for _, sb := range args.Breakpoints {
		bp := &breakpoint{path: path, line: sb.Line, mapped: !s.runsAsWritten(path), condition: sb.Condition, hitCondition: sb.HitCondition, logMessage: sb.LogMessage}
		for _, o := range old {
			if o.sameAs(bp) {
				bp.id, bp.hits = o.id, o.hits
			}
		}
		if bp.id == 0 {
			s.nextBP++
			bp.id = s.nextBP
		}
		fresh = append(fresh, bp)
	}
	s.bps[path] = fresh
	s.mu.Unlock()

	for _, id := range stale {
		if err := s.cdp.Call(ctx, "Debugger.removeBreakpoint", map[string]any{"breakpointId": id}, nil); err != nil {
			s.log.Debug("node adapter: remove breakpoint", "id", id, "err", err)
		}
	}
	out := make([]godap.Breakpoint, 0, len(fresh))
	needInstrumentation := false
	for _, bp := range fresh {
		bp.hit, bp.hitErr = dap.ParseHitCondition(bp.hitCondition)
		if err := bp.hitErr; err != nil {
			bp.message = err.Error()
		} else if bp.mapped {
			if !s.bindOriginal(ctx, bp) {
				needInstrumentation = true
			}
		} else {
			s.bindPlain(ctx, bp)
		}
		s.mu.Lock()
		out = append(out, bp.dap())
		s.mu.Unlock()
	}
	if needInstrumentation {
		s.instrument(ctx)
	}
	return godap.SetBreakpointsResponseBody{Breakpoints: out}, nil
}

// bindPlain sets a breakpoint by URL, so that it binds in the script now
// or when it loads (docs/adapter-quirks.md, node-5).
func (s *server) bindPlain(ctx context.Context, bp *breakpoint) {
	params := map[string]any{"lineNumber": bp.line - 1, "urlRegex": urlRegex(s.os, bp.path), "condition": bpCondition(bp)}
	var res cdp.SetBreakpointByURLResult
	if err := s.cdp.Call(ctx, "Debugger.setBreakpointByUrl", params, &res); err != nil {
		bp.message = err.Error()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	bp.cdpIDs = append(bp.cdpIDs, res.BreakpointID)
	s.byCDP[res.BreakpointID] = bp
	if len(res.Locations) > 0 {
		bp.verified, bp.actualLine = true, s.originalLineLocked(bp, res.Locations[0])
	} else {
		bp.message = "pending: binds when the script loads"
	}
}

// bindOriginal binds a breakpoint of a compiled source in every loaded
// script whose source map names it, and in every compiled file on disk
// that does (by URL, so that it binds when that file loads). It reports
// whether it found one.
func (s *server) bindOriginal(ctx context.Context, bp *breakpoint) bool {
	s.mu.Lock()
	targets := map[string]*script{}
	for _, sc := range s.scripts {
		if sc.sm != nil && sc.path != "" && sc.sm.sourceIndex(bp.path) >= 0 {
			targets[sc.path] = sc
		}
	}
	if !s.scanned && s.root != "" {
		s.scanned = true
		s.compiled = scanCompiled(s.os, s.root)
	}
	for _, c := range s.compiled {
		if _, loaded := targets[c.path]; !loaded && c.sm.sourceIndex(bp.path) >= 0 {
			targets[c.path] = &script{url: fileURL(s.os, c.path), path: c.path, sm: c.sm}
		}
	}
	s.mu.Unlock()
	for _, sc := range targets {
		s.bindInScript(ctx, bp, sc)
	}
	if len(targets) == 0 {
		bp.message = "pending: binds when a script compiled from this file loads"
	}
	return len(targets) > 0
}

// bindInScript sets a compiled source's breakpoint at its generated
// position in one script (by its URL, or its path's), once per script.
func (s *server) bindInScript(ctx context.Context, bp *breakpoint, sc *script) {
	s.mu.Lock()
	done := bp.boundIn[sc.path]
	s.mu.Unlock()
	if done {
		return
	}
	genLine, genCol, line, ok := sc.sm.generated(bp.path, bp.line-1)
	if !ok {
		bp.message = "no code was generated for this line or the lines below it"
		return
	}
	params := map[string]any{"lineNumber": genLine, "columnNumber": genCol, "urlRegex": urlRegex(s.os, sc.path), "condition": bpCondition(bp)}
	var res cdp.SetBreakpointByURLResult
	if err := s.cdp.Call(ctx, "Debugger.setBreakpointByUrl", params, &res); err != nil {
		bp.message = err.Error()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if bp.boundIn == nil {
		bp.boundIn = map[string]bool{}
	}
	bp.boundIn[sc.path] = true
	bp.cdpIDs = append(bp.cdpIDs, res.BreakpointID)
	s.byCDP[res.BreakpointID] = bp
	bp.verified, bp.actualLine, bp.message = true, line+1, ""
	if len(res.Locations) > 0 {
		bp.actualLine = s.originalLineLocked(bp, res.Locations[0])
	}
}

// bindMapped binds the breakpoints still waiting for a script compiled
// from their source, now that sc (with a source map) has been parsed. The
// script has not run yet: the instrumentation pause holds it.
func (s *server) bindMapped(sc *script) {
	s.mu.Lock()
	var waiting []*breakpoint
	for path, bps := range s.bps {
		if sc.sm.sourceIndex(path) < 0 {
			continue
		}
		for _, bp := range bps {
			if bp.mapped && bp.hitErr == nil {
				waiting = append(waiting, bp)
			}
		}
	}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	for _, bp := range waiting {
		s.mu.Lock()
		was := bp.verified
		s.mu.Unlock()
		s.bindInScript(ctx, bp, sc)
		s.mu.Lock()
		changed := bp.verified && !was
		body := godap.BreakpointEventBody{Reason: "changed", Breakpoint: bp.dap()}
		s.mu.Unlock()
		if changed {
			s.Event("breakpoint", body)
		}
	}
}

// instrument asks the inspector to pause before every script with a source
// map runs, so that breakpoints in its sources bind first.
func (s *server) instrument(ctx context.Context) {
	s.mu.Lock()
	done := s.instrumenting
	s.instrumenting = true
	s.mu.Unlock()
	if done {
		return
	}
	params := map[string]any{"instrumentation": "beforeScriptWithSourceMapExecution"}
	if err := s.cdp.Call(ctx, "Debugger.setInstrumentationBreakpoint", params, nil); err != nil {
		s.log.Debug("node adapter: instrumentation breakpoint", "err", err)
	}
}

// breakpointResolved records where a breakpoint landed once its script
// loaded: the moment it is verified, and its actual line.
func (s *server) breakpointResolved(id string, loc cdp.Location) {
	s.mu.Lock()
	bp := s.byCDP[id]
	if bp == nil {
		s.mu.Unlock()
		return
	}
	if bp.fn != nil {
		s.functionResolvedLocked(bp)
		return
	}
	line := s.originalLineLocked(bp, loc)
	changed := !bp.verified || bp.actualLine != line
	bp.verified, bp.actualLine, bp.message = true, line, ""
	body := godap.BreakpointEventBody{Reason: "changed", Breakpoint: bp.dap()}
	s.mu.Unlock()
	if changed {
		s.Event("breakpoint", body)
	}
}

// originalLineLocked is the 1-based line of bp's own source where the
// inspector placed it.
func (s *server) originalLineLocked(bp *breakpoint, loc cdp.Location) int {
	if sc := s.scripts[loc.ScriptID]; bp.mapped && sc != nil && sc.sm != nil {
		if path, line, _, ok := sc.sm.original(loc.LineNumber, loc.ColumnNumber); ok && s.os.SamePath(path, bp.path) {
			return line + 1
		}
		return bp.line
	}
	return loc.LineNumber + 1
}

// urlRegex matches the URL Node gives a file on o: its file: URL (how
// CommonJS and ES modules are reported) or its bare path, and the same for
// the path with symbolic links resolved, since Node reports the real path.
// Where o's file system folds case, so does the match: V8's regular
// expressions take no inline flag, so each letter becomes a class.
func urlRegex(o platform.OS, path string) string {
	forms := []string{fileURL(o, path), path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		forms = append(forms, fileURL(o, real), real)
	}
	for i, f := range forms {
		forms[i] = regexp.QuoteMeta(f)
		if o.FoldsCase {
			forms[i] = foldLetters(forms[i])
		}
	}
	return "^(?:" + strings.Join(forms, "|") + ")$"
}

// foldLetters makes each ASCII letter of a pattern match either case.
func foldLetters(pattern string) string {
	var b strings.Builder
	for _, r := range pattern {
		lower, upper := unicode.ToLower(r), unicode.ToUpper(r)
		if r < unicode.MaxASCII && lower != upper {
			b.WriteString("[" + string(lower) + string(upper) + "]")
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// bpCondition is the inspector condition of a breakpoint: its own, and for
// a logpoint one that prints the message and never stops.
func bpCondition(bp *breakpoint) string {
	if bp.logMessage == "" {
		return bp.condition
	}
	logCall := "(console.log(" + logTemplate(bp.logMessage) + "), false)"
	if bp.condition == "" {
		return logCall
	}
	return "(" + bp.condition + ") && " + logCall
}

// logTemplate turns a DAP log message ("x is {x}") into a JavaScript
// template literal.
func logTemplate(msg string) string {
	var b strings.Builder
	b.WriteByte('`')
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c == '{' {
			depth, j := 1, i+1
			for ; j < len(msg) && depth > 0; j++ {
				switch msg[j] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			if depth == 0 {
				b.WriteString("${" + msg[i+1:j-1] + "}")
				i = j - 1
				continue
			}
		}
		switch c {
		case '`', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '$':
			b.WriteString("\\$")
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('`')
	return b.String()
}

func (s *server) setExceptionBreakpoints(req *request) (any, error) {
	var args godap.SetExceptionBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	mode := "none"
	for _, f := range args.Filters {
		switch {
		case f == "all":
			mode = "all"
		case f == userUnhandled && mode != "all":
			mode = userUnhandled
		case f == "uncaught" && mode == "none":
			mode = "uncaught"
		}
	}
	// userUnhandled needs every exception from the inspector; the
	// adapter keeps those that leave the user's code (userunhandled.go).
	state := mode
	if mode == userUnhandled {
		state = "all"
	}
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	if err := s.cdp.Call(ctx, "Debugger.setPauseOnExceptions", map[string]any{"state": state}, nil); err != nil {
		return nil, fmt.Errorf("set exception breakpoints: %w", err)
	}
	s.mu.Lock()
	changed := (s.excState == userUnhandled) != (mode == userUnhandled)
	s.excState = mode
	s.mu.Unlock()
	if changed && s.opts.justMyCode {
		patterns := blackboxPatterns
		if mode == userUnhandled {
			patterns = userUnhandledBlackbox
		}
		if err := s.cdp.Call(ctx, "Debugger.setBlackboxPatterns", map[string]any{"patterns": patterns}, nil); err != nil {
			return nil, fmt.Errorf("set exception breakpoints: %w", err)
		}
	}
	return nil, nil
}
