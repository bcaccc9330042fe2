package node

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf16"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// funcBreakpoint is a DAP function breakpoint. A function reachable by
// name (globally, or from the paused frame) breaks on its calls through
// the inspector's function-call breakpoint; any other (a module's own
// function, not exported to the global scope) is found by its declaration
// in the scripts' sources and breaks at the start of its body, by URL, in
// the scripts loaded now and in those that load later.
type funcBreakpoint struct {
	id        int
	name      string
	condition string
	bySource  bool            // resolved by declaration, not by a function object
	boundIn   map[string]bool // script paths searched (bound or not)
	cdpIDs    []string
	verified  bool
	// path and line: the declaration it is bound to (the function's line,
	// which is what a function breakpoint's bound location says).
	line    int
	path    string
	message string
}

// bindAt records that fb is bound to the function declared at path:line.
func (fb *funcBreakpoint) bindAt(path string, line int) {
	fb.verified, fb.path, fb.line, fb.message = true, path, line, ""
}

func (fb *funcBreakpoint) dap() godap.Breakpoint {
	out := godap.Breakpoint{Id: fb.id, Verified: fb.verified, Message: fb.message}
	if fb.verified && fb.path != "" {
		out.Line = fb.line
		out.Source = &godap.Source{Name: filepath.Base(fb.path), Path: fb.path}
	}
	return out
}

// setFunctionBreakpoints replaces the function breakpoints.
func (s *server) setFunctionBreakpoints(req *request) (any, error) {
	var args godap.SetFunctionBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	s.mu.Lock()
	var stale []string
	for _, fb := range s.funcBPs {
		for _, id := range fb.cdpIDs {
			stale = append(stale, id)
			delete(s.byCDP, id)
		}
	}
	s.funcBPs = nil
	var top *cdp.CallFrame
	if s.pause != nil && len(s.pause.ev.CallFrames) > 0 {
		top = &s.pause.ev.CallFrames[0]
	}
	s.mu.Unlock()
	for _, id := range stale {
		_ = s.cdp.Call(ctx, "Debugger.removeBreakpoint", map[string]any{"breakpointId": id}, nil)
	}
	out := []godap.Breakpoint{}
	for _, b := range args.Breakpoints {
		s.mu.Lock()
		s.nextBP++
		fb := &funcBreakpoint{id: s.nextBP, name: strings.TrimSpace(b.Name), condition: b.Condition}
		s.funcBPs = append(s.funcBPs, fb)
		s.mu.Unlock()
		if !s.bindFunctionObject(ctx, fb, top) {
			// From here on, scripts that load are searched as they parse.
			s.mu.Lock()
			fb.bySource = true
			s.mu.Unlock()
			s.bindDeclarations(ctx, fb, s.userScripts())
			s.bindDeclarationsOnDisk(ctx, fb)
			s.mu.Lock()
			if !fb.verified && fb.message == "" {
				fb.message = fmt.Sprintf("pending: no declaration of %s found in the loaded scripts or the program's files; binds if a script declaring it loads", fb.name)
			}
			s.mu.Unlock()
		}
		s.mu.Lock()
		out = append(out, fb.dap())
		s.mu.Unlock()
	}
	return godap.SetFunctionBreakpointsResponseBody{Breakpoints: out}, nil
}

// bindFunctionObject breaks on calls of the function the name evaluates
// to, when it evaluates to one.
func (s *server) bindFunctionObject(ctx context.Context, fb *funcBreakpoint, top *cdp.CallFrame) bool {
	fn, err := s.evalIn(ctx, top, fb.name, 0)
	if err != nil || fn.Type != "function" {
		return false
	}
	var res struct {
		BreakpointID string `json:"breakpointId"`
	}
	params := map[string]any{"objectId": fn.ObjectID}
	if fb.condition != "" {
		params["condition"] = fb.condition
	}
	if err := s.cdp.Call(ctx, "Debugger.setBreakpointOnFunctionCall", params, &res); err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fb.verified = true
	fb.cdpIDs = append(fb.cdpIDs, res.BreakpointID)
	s.byCDP[res.BreakpointID] = &breakpoint{id: fb.id, fn: fb}
	return true
}

// userScripts are the loaded scripts that come from files.
func (s *server) userScripts() []*script {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*script
	for _, sc := range s.scripts {
		if sc.path != "" && !sc.internal() {
			out = append(out, sc)
		}
	}
	return out
}

// bindDeclarations sets fb at the body of every declaration of its
// function in the given loaded scripts (each script searched once).
func (s *server) bindDeclarations(ctx context.Context, fb *funcBreakpoint, scripts []*script) {
	for _, sc := range scripts {
		if !s.claimPath(fb, sc.path) {
			continue
		}
		src, err := s.scriptSource(ctx, sc)
		if err != nil {
			s.log.Debug("node adapter: script source", "path", sc.path, "err", err)
			continue
		}
		s.bindDeclarationsInText(ctx, fb, sc.path, src)
	}
}

// bindDeclarationsOnDisk sets fb in the program's JavaScript files that
// declare its function, by URL, so that it is bound before they load: a
// script's scriptParsed event comes too late to bind in code that runs
// at once (and the inspector's beforeScriptExecution pause does not come
// for CommonJS modules, which Node compiles as functions; measured on
// Node 20).
func (s *server) bindDeclarationsOnDisk(ctx context.Context, fb *funcBreakpoint) {
	s.mu.Lock()
	if !s.filesScanned && s.root != "" {
		s.filesScanned = true
		s.files = scanScripts(s.root)
	}
	files := s.files
	s.mu.Unlock()
	for _, path := range files {
		data, err := userfile.Read(path)
		if err != nil || !strings.Contains(string(data), lastPart(fb.name)) || !s.claimPath(fb, path) {
			continue
		}
		s.bindDeclarationsInText(ctx, fb, path, string(data))
	}
}

// claimPath records that fb's declarations are searched for in path, and
// reports whether it had not been.
func (s *server) claimPath(fb *funcBreakpoint, path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fb.boundIn[path] {
		return false
	}
	if fb.boundIn == nil {
		fb.boundIn = map[string]bool{}
	}
	fb.boundIn[path] = true
	return true
}

// bindDeclarationsInText sets fb at each declaration of its function in
// the text of the script at path.
func (s *server) bindDeclarationsInText(ctx context.Context, fb *funcBreakpoint, path, src string) {
	for _, decl := range findDeclarations(src, fb.name) {
		params := map[string]any{"lineNumber": decl.body.line, "columnNumber": decl.body.column, "urlRegex": urlRegex(s.os, path)}
		if fb.condition != "" {
			params["condition"] = fb.condition
		}
		var res cdp.SetBreakpointByURLResult
		if err := s.cdp.Call(ctx, "Debugger.setBreakpointByUrl", params, &res); err != nil {
			s.log.Debug("node adapter: function breakpoint", "name", fb.name, "err", err)
			continue
		}
		s.mu.Lock()
		fb.cdpIDs = append(fb.cdpIDs, res.BreakpointID)
		s.byCDP[res.BreakpointID] = &breakpoint{id: fb.id, fn: fb, fnPath: path, fnLine: decl.line + 1}
		// Set by URL, it binds only once a script of that URL is loaded:
		// a module required later is pending until then
		// (breakpointResolved binds it).
		if !fb.verified && len(res.Locations) > 0 {
			fb.bindAt(path, decl.line+1)
		} else if !fb.verified {
			fb.message = fmt.Sprintf("pending: binds when %s loads", filepath.Base(path))
		}
		s.mu.Unlock()
	}
}

// functionResolvedLocked binds a function breakpoint whose declaration's
// script has loaded, and says so with a changed event. s.mu is held and
// released.
func (s *server) functionResolvedLocked(bp *breakpoint) {
	fb := bp.fn
	changed := !fb.verified && bp.fnPath != ""
	if changed {
		fb.bindAt(bp.fnPath, bp.fnLine)
	}
	body := godap.BreakpointEventBody{Reason: "changed", Breakpoint: fb.dap()}
	s.mu.Unlock()
	if changed {
		s.Event("breakpoint", body)
	}
}

// bindDeclarationsIn searches a newly parsed script for the functions of
// the function breakpoints resolved by declaration. The script may have
// started running: bound here, a breakpoint catches the calls that come
// after (bindDeclarationsOnDisk binds in time, where it can).
func (s *server) bindDeclarationsIn(sc *script) {
	s.mu.Lock()
	var want []*funcBreakpoint
	for _, fb := range s.funcBPs {
		if fb.bySource {
			want = append(want, fb)
		}
	}
	s.mu.Unlock()
	if len(want) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	for _, fb := range want {
		s.mu.Lock()
		was := fb.verified
		s.mu.Unlock()
		s.bindDeclarations(ctx, fb, []*script{sc})
		s.mu.Lock()
		changed := fb.verified && !was
		body := godap.BreakpointEventBody{Reason: "changed", Breakpoint: fb.dap()}
		s.mu.Unlock()
		if changed {
			s.Event("breakpoint", body)
		}
	}
}

// scriptSource is a script's text, read once.
func (s *server) scriptSource(ctx context.Context, sc *script) (string, error) {
	s.mu.Lock()
	src, ok := sc.source, sc.sourceRead
	s.mu.Unlock()
	if ok {
		return src, nil
	}
	var res struct {
		ScriptSource string `json:"scriptSource"`
	}
	if err := s.cdp.Call(ctx, "Debugger.getScriptSource", map[string]any{"scriptId": sc.id}, &res); err != nil {
		return "", err
	}
	s.mu.Lock()
	sc.source, sc.sourceRead = res.ScriptSource, true
	s.mu.Unlock()
	return res.ScriptSource, nil
}

// position is a zero-based place in a script, its column in UTF-16 code
// units as the inspector counts them.
type position struct{ line, column int }

// declarationForms are the ways a function gets its name (the first
// group), each ending where the text before the function's body ends: its
// parameter list's opening parenthesis, or an arrow.
var declarationForms = []string{
	// function name(, async function* name(
	`\bfunction\s*\*?\s*(%[1]s)\s*\(`,
	// name = function (, exports.name = async function named(, name: function (
	`(?:^|[^\p{L}\p{N}_$])(%[1]s)\s*[:=]\s*(?:async\s+)?function\b[^(]*\(`,
	// name = (a, b) =>, name: async x =>
	`(?:^|[^\p{L}\p{N}_$])(%[1]s)\s*[:=]\s*(?:async\s+)?(?:\([^()]*\)|[\p{L}_$][\p{L}\p{N}_$]*)\s*=>`,
	// a class's or an object literal's method: name(a) {, static async name() {
	`(?m)^[ \t]*(?:(?:static|async|get|set)\s+)*\*?\s*(%[1]s)\s*\(`,
}

// declaration is a function found in a script's text: the line its name
// is on (zero-based), and where its body starts.
type declaration struct {
	line int
	body position
}

// findDeclarations finds the functions declared with the given name in
// src. A qualified name (Cart.total) is looked up by its last part.
func findDeclarations(src, name string) []declaration {
	name = lastPart(name)
	if !identifier.MatchString(name) {
		return nil
	}
	var out []declaration
	seen := map[int]bool{}
	for _, form := range declarationForms {
		re := regexp.MustCompile(fmt.Sprintf(form, regexp.QuoteMeta(name)))
		for _, m := range re.FindAllStringSubmatchIndex(src, -1) {
			body := bodyStart(src, m[1])
			if body < 0 || seen[body] {
				continue
			}
			seen[body] = true
			out = append(out, declaration{line: offsetPosition(src, m[2]).line, body: offsetPosition(src, body)})
		}
	}
	return out
}

// lastPart is a qualified name's last part: total of Cart.total.
func lastPart(name string) string {
	return name[strings.LastIndex(name, ".")+1:]
}

// bodyStart is the offset of a function's first statement or expression,
// given the offset just past its parameter list's "(" or its arrow.
func bodyStart(src string, at int) int {
	if strings.HasSuffix(src[:at], "(") {
		depth := 1
		for at < len(src) && depth > 0 {
			switch src[at] {
			case '(':
				depth++
			case ')':
				depth--
			}
			at++
		}
		if depth > 0 {
			return -1
		}
		rest := strings.TrimLeft(src[at:], " \t\r\n")
		if !strings.HasPrefix(rest, "{") {
			// A call, not a declaration.
			return -1
		}
		return len(src) - len(rest) + 1
	}
	rest := strings.TrimLeft(src[at:], " \t\r\n")
	body := len(src) - len(rest)
	if strings.HasPrefix(rest, "{") {
		body++
	}
	return body
}

// offsetPosition turns a byte offset into a line and UTF-16 column.
func offsetPosition(src string, off int) position {
	lineStart := strings.LastIndexByte(src[:off], '\n') + 1
	line := strings.Count(src[:lineStart], "\n")
	return position{line: line, column: len(utf16.Encode([]rune(src[lineStart:off])))}
}
