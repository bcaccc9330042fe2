package java

import (
	"bufio"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// breakpoints keeps the client's breakpoints and the JDWP requests that
// implement them. A breakpoint in a class not loaded yet waits for the
// class's ClassPrepare event (requested by source file name, or by class
// name for method breakpoints).
type breakpoints struct {
	s *server

	mu       sync.Mutex
	nextID   int
	files    map[string]*fileBPs // by source path
	funcs    []*bp
	entry    *bp
	prepares map[string]int32 // ClassPrepare requests by what they match
	byReq    map[int32]*bp
	// reqClass is the class each breakpoint request is in.
	reqClass map[int32]jdwp.ReferenceTypeID
	excReqs  []int32
	excMode  string
	// shown are the exceptions already stopped at: the source launcher
	// rethrows what main threw, which must not stop a second time.
	shown map[jdwp.ObjectID]bool
}

// fileBPs are the line breakpoints of one source file.
type fileBPs struct {
	path, base, pkg string
	bps             []*bp
}

// bp is one line or method breakpoint.
type bp struct {
	id       int
	file     *fileBPs
	line     int
	actual   int
	class    string // method breakpoint: class name, qualified or simple
	method   string
	reason   string
	cond     string
	hitCond  string
	logMsg   string
	hits     int
	verified bool
	message  string
	reqs     []int32
	resolved map[jdwp.ReferenceTypeID]bool
	// bound: the source of the method a method breakpoint was first set
	// in (its line is actual).
	bound *godap.Source
	// moved: the requests are at the next line with code of a method
	// that spans the line, which is only a stand-in until a class with
	// code on the line itself loads (an enum constant's body, an
	// anonymous class: docs/adapter-quirks.md, jvm-10).
	moved bool
}

func newBreakpoints(s *server) *breakpoints {
	return &breakpoints{
		s:        s,
		files:    map[string]*fileBPs{},
		prepares: map[string]int32{},
		byReq:    map[int32]*bp{},
		reqClass: map[int32]jdwp.ReferenceTypeID{},
		shown:    map[jdwp.ObjectID]bool{},
	}
}

// mayHaveLoaded says whether program classes may already be loaded:
// before a launched VM is resumed for the first time none are.
func (b *breakpoints) mayHaveLoaded() bool {
	return b.s.configured || b.s.attached
}

func (s *server) setBreakpoints(ctx context.Context, req *request) (any, error) {
	var args godap.SetBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if s.bps == nil {
		return nil, fmt.Errorf("setBreakpoints before launch or attach")
	}
	path := args.Source.Path
	if path == "" {
		return nil, fmt.Errorf("setBreakpoints needs source.path")
	}
	return s.bps.setFile(ctx, path, args.Breakpoints)
}

func (b *breakpoints) setFile(ctx context.Context, path string, specs []godap.SourceBreakpoint) (any, error) {
	b.mu.Lock()
	old := b.files[path]
	b.mu.Unlock()
	if old != nil {
		for _, p := range old.bps {
			b.drop(ctx, p)
		}
	}
	f := &fileBPs{path: path, base: filepath.Base(path), pkg: packageOf(path)}
	b.s.source.addFile(path, f.pkg)
	for _, sp := range specs {
		b.mu.Lock()
		b.nextID++
		p := &bp{id: b.nextID, file: f, line: sp.Line, cond: sp.Condition, hitCond: sp.HitCondition, logMsg: sp.LogMessage,
			resolved: map[jdwp.ReferenceTypeID]bool{}, message: "the class of this file is not loaded yet"}
		b.mu.Unlock()
		f.bps = append(f.bps, p)
	}
	b.mu.Lock()
	b.files[path] = f
	b.mu.Unlock()
	if len(f.bps) > 0 {
		if err := b.ensurePrepare(ctx, "source:"+f.base, jdwp.SourceNameMatch(f.base)); err != nil {
			return nil, err
		}
		if b.mayHaveLoaded() {
			classes, err := b.loadedForFile(ctx, f)
			if err != nil {
				return nil, err
			}
			for _, c := range classes {
				for _, p := range f.bps {
					b.resolveLine(ctx, p, c)
				}
			}
		}
	}
	out := godap.SetBreakpointsResponseBody{Breakpoints: []godap.Breakpoint{}}
	for _, p := range f.bps {
		out.Breakpoints = append(out.Breakpoints, b.describe(p))
	}
	return out, nil
}

// describe is the DAP view of a breakpoint.
func (b *breakpoints) describe(p *bp) godap.Breakpoint {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := godap.Breakpoint{Id: p.id, Verified: p.verified, Line: p.line}
	if p.file != nil {
		d.Source = &godap.Source{Name: p.file.base, Path: p.file.path}
		if p.actual > 0 {
			d.Line = p.actual
		}
	}
	if p.bound != nil {
		d.Source, d.Line = p.bound, p.actual
	}
	if !p.verified {
		d.Message = p.message
	}
	return d
}

// drop clears a breakpoint's requests.
func (b *breakpoints) drop(ctx context.Context, p *bp) {
	b.mu.Lock()
	reqs := p.reqs
	p.reqs = nil
	for _, id := range reqs {
		delete(b.byReq, id)
		delete(b.reqClass, id)
	}
	b.mu.Unlock()
	for _, id := range reqs {
		if err := b.s.vm.ClearEvent(ctx, jdwp.EventBreakpoint, id); err != nil {
			b.s.log.Debug("java adapter: clear breakpoint", "err", err)
		}
	}
}

// ensurePrepare requests ClassPrepare events once per key.
func (b *breakpoints) ensurePrepare(ctx context.Context, key string, mods ...jdwp.Modifier) error {
	b.mu.Lock()
	_, ok := b.prepares[key]
	b.mu.Unlock()
	if ok {
		return nil
	}
	id, err := b.s.vm.SetEvent(ctx, jdwp.EventClassPrepare, jdwp.SuspendAll, mods...)
	if err != nil {
		return fmt.Errorf("watch for classes (%s): %w", key, err)
	}
	b.mu.Lock()
	b.prepares[key] = id
	b.mu.Unlock()
	return nil
}

// loadedForFile lists loaded classes compiled from the file: those of its
// package whose SourceFile is its name.
func (b *breakpoints) loadedForFile(ctx context.Context, f *fileBPs) ([]jdwp.ReferenceTypeID, error) {
	all, err := b.s.vm.AllClasses(ctx)
	if err != nil {
		return nil, fmt.Errorf("list loaded classes: %w", err)
	}
	prefix := "L" + strings.ReplaceAll(f.pkg, ".", "/")
	if f.pkg != "" {
		prefix += "/"
	}
	var out []jdwp.ReferenceTypeID
	for _, c := range all {
		if c.TypeTag == jdwp.TypeArray || !strings.HasPrefix(c.Signature, prefix) || strings.Contains(c.Signature[len(prefix):], "/") {
			continue
		}
		b.s.types.remember(c.ID, c.Signature)
		if src, err := b.s.types.sourceFile(ctx, c.ID); err == nil && src == f.base {
			out = append(out, c.ID)
		}
	}
	return out, nil
}

// classPrepared sets the waiting breakpoints of a class just loaded.
func (b *breakpoints) classPrepared(ctx context.Context, t jdwp.ReferenceTypeID, sig string) {
	b.s.types.remember(t, sig)
	name := typeName(sig)
	src, _ := b.s.types.sourceFile(ctx, t)
	pkg := ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		pkg = name[:i]
	}
	b.mu.Lock()
	var files []*fileBPs
	for _, f := range b.files {
		if f.base == src && f.pkg == pkg {
			files = append(files, f)
		}
	}
	funcs := append([]*bp(nil), b.funcs...)
	entry := b.entry
	b.mu.Unlock()
	for _, f := range files {
		for _, p := range f.bps {
			b.resolveLine(ctx, p, t)
		}
	}
	if entry != nil {
		funcs = append(funcs, entry)
	}
	for _, p := range funcs {
		if classMatches(p.class, name) {
			b.resolveMethod(ctx, p, t)
		}
	}
}

// classMatches says whether a loaded class is the one a method
// breakpoint names: the qualified name, the simple name in any package,
// or, for a bare method name (want ""), any class of the program's.
func classMatches(want, name string) bool {
	if want == "" {
		return !isJDKClass(name)
	}
	if want == name {
		return true
	}
	return !strings.Contains(want, ".") && simpleName(name) == want
}

// resolveLine sets a line breakpoint in one class: at the first code of
// the line in every method that has it, or else at the next line with
// code in the method that spans it.
func (b *breakpoints) resolveLine(ctx context.Context, p *bp, t jdwp.ReferenceTypeID) {
	b.mu.Lock()
	done := p.resolved[t]
	p.resolved[t] = true
	b.mu.Unlock()
	if done {
		return
	}
	methods, err := b.s.types.methodsOf(ctx, t)
	if err != nil {
		return
	}
	var locs []jdwp.Location
	actual := 0
	next, nextLoc := 0, jdwp.Location{}
	for _, m := range methods {
		lt, err := b.s.types.lineTable(ctx, t, m.ID)
		if err != nil || len(lt.Lines) == 0 {
			continue
		}
		var found *jdwp.LineEntry
		lo, hi := int32(1<<30), int32(0)
		for i, e := range lt.Lines {
			lo, hi = min(lo, e.Line), max(hi, e.Line)
			if int(e.Line) == p.line && (found == nil || e.Index < found.Index) {
				found = &lt.Lines[i]
			}
		}
		if found != nil {
			locs = append(locs, jdwp.Location{TypeTag: jdwp.TypeClass, Class: t, Method: m.ID, Index: found.Index})
			actual = p.line
			continue
		}
		if int(lo) <= p.line && p.line <= int(hi) {
			for _, e := range lt.Lines {
				if int(e.Line) > p.line && (next == 0 || int(e.Line) < next) {
					next, nextLoc = int(e.Line), jdwp.Location{TypeTag: jdwp.TypeClass, Class: t, Method: m.ID, Index: e.Index}
				}
			}
		}
	}
	b.mu.Lock()
	verified, moved := p.verified, p.moved
	b.mu.Unlock()
	switch {
	case len(locs) > 0 && moved:
		b.drop(ctx, p)
	case len(locs) == 0 && next > 0 && verified:
		// Set already, on the line or at a stand-in of another class.
		return
	case len(locs) == 0 && next > 0:
		locs, actual = []jdwp.Location{nextLoc}, next
	}
	if len(locs) == 0 {
		b.mu.Lock()
		if !p.verified {
			p.message = fmt.Sprintf("no code at line %d of %s", p.line, b.s.types.className(ctx, t))
		}
		b.mu.Unlock()
		return
	}
	b.mu.Lock()
	p.moved = actual != p.line
	b.mu.Unlock()
	b.setRequests(ctx, p, locs, actual)
}

// setRequests creates the breakpoint requests and tells the client the
// breakpoint is now verified.
func (b *breakpoints) setRequests(ctx context.Context, p *bp, locs []jdwp.Location, actual int) {
	for _, l := range locs {
		id, err := b.s.vm.SetEvent(ctx, jdwp.EventBreakpoint, jdwp.SuspendAll, jdwp.LocationOnly(l))
		if err != nil {
			b.s.log.Debug("java adapter: set breakpoint", "err", err)
			continue
		}
		b.mu.Lock()
		p.reqs = append(p.reqs, id)
		b.byReq[id] = p
		b.reqClass[id] = l.Class
		b.mu.Unlock()
	}
	b.mu.Lock()
	was, wasLine := p.verified, p.actual
	p.verified = len(p.reqs) > 0
	if actual > 0 {
		p.actual = actual
	}
	now, line := p.verified, p.actual
	b.mu.Unlock()
	if now && (!was || line != wasLine) && p != b.entry {
		b.s.Event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: b.describe(p)})
	}
}

// resolveMethod sets a method breakpoint at the start of every method of
// the class with its name that has code (every concrete overload), and
// says where the first of them begins.
func (b *breakpoints) resolveMethod(ctx context.Context, p *bp, t jdwp.ReferenceTypeID) {
	b.mu.Lock()
	done := p.resolved[t]
	p.resolved[t] = true
	b.mu.Unlock()
	if done {
		return
	}
	methods, err := b.s.types.methodsOf(ctx, t)
	if err != nil {
		return
	}
	var locs []jdwp.Location
	for _, m := range methods {
		if m.Name != p.method {
			continue
		}
		lt, err := b.s.types.lineTable(ctx, t, m.ID)
		if err != nil || lt.End <= lt.Start {
			continue
		}
		locs = append(locs, jdwp.Location{TypeTag: jdwp.TypeClass, Class: t, Method: m.ID, Index: lt.Start})
	}
	if len(locs) == 0 {
		return
	}
	b.mu.Lock()
	first := p.bound == nil
	b.mu.Unlock()
	line := 0
	if first {
		line = b.s.types.lineOf(ctx, locs[0])
		b.bindSource(ctx, p, t)
	}
	b.setRequests(ctx, p, locs, line)
}

// bindSource records the source file a method breakpoint's class comes
// from, for the answers to say where it was bound.
func (b *breakpoints) bindSource(ctx context.Context, p *bp, t jdwp.ReferenceTypeID) {
	src, err := b.s.types.sourceFile(ctx, t)
	if err != nil {
		return
	}
	source := &godap.Source{Name: src, Path: b.s.source.find(b.s.types.className(ctx, t), src)}
	b.mu.Lock()
	p.bound = source
	b.mu.Unlock()
}

func (s *server) setFunctionBreakpoints(ctx context.Context, req *request) (any, error) {
	var args godap.SetFunctionBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if s.bps == nil {
		return nil, fmt.Errorf("setFunctionBreakpoints before launch or attach")
	}
	b := s.bps
	b.mu.Lock()
	old := b.funcs
	b.funcs = nil
	b.mu.Unlock()
	for _, p := range old {
		b.drop(ctx, p)
	}
	out := godap.SetFunctionBreakpointsResponseBody{Breakpoints: []godap.Breakpoint{}}
	var all []jdwp.ClassRef
	for _, fb := range args.Breakpoints {
		class, method, ok := splitMethodName(fb.Name)
		b.mu.Lock()
		b.nextID++
		p := &bp{id: b.nextID, class: class, method: method, cond: fb.Condition, hitCond: fb.HitCondition, reason: "function breakpoint",
			resolved: map[jdwp.ReferenceTypeID]bool{}, message: "class " + class + " is not loaded yet"}
		b.mu.Unlock()
		if !ok {
			if !isJavaName(method) {
				out.Breakpoints = append(out.Breakpoints, godap.Breakpoint{Id: p.id, Message: "name a method as method, Class.method or com.example.Class.method"})
				continue
			}
			p.class, p.message = "", "no class of the program with a method "+method+" is loaded yet"
		}
		b.mu.Lock()
		b.funcs = append(b.funcs, p)
		b.mu.Unlock()
		if err := b.watchClassesOf(ctx, p.class); err != nil {
			return nil, err
		}
		if b.mayHaveLoaded() {
			if all == nil {
				var err error
				if all, err = s.vm.AllClasses(ctx); err != nil {
					return nil, fmt.Errorf("list loaded classes: %w", err)
				}
			}
			for _, c := range all {
				if c.TypeTag != jdwp.TypeArray && classMatches(class, typeName(c.Signature)) {
					s.types.remember(c.ID, c.Signature)
					b.resolveMethod(ctx, p, c.ID)
				}
			}
		}
		out.Breakpoints = append(out.Breakpoints, b.describe(p))
	}
	return out, nil
}

// watchClassesOf asks for the ClassPrepare events of the classes a method
// breakpoint may be in: the class named (simply: in any package), or for a
// bare method name every class outside the JDK.
func (b *breakpoints) watchClassesOf(ctx context.Context, class string) error {
	if class == "" {
		var mods []jdwp.Modifier
		for _, p := range jdkPrefixes {
			mods = append(mods, jdwp.ClassExclude(p+"*"))
		}
		return b.ensurePrepare(ctx, "program classes", mods...)
	}
	pattern := class
	if !strings.Contains(class, ".") {
		pattern = "*" + class
	}
	return b.ensurePrepare(ctx, "class:"+pattern, jdwp.ClassMatch(pattern))
}

// isJavaName says whether name is a plain Java identifier.
func isJavaName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if !(unicode.IsLetter(r) || r == '_' || r == '$' || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// setEntry stops at the start of main of the main class.
func (b *breakpoints) setEntry(ctx context.Context, class string) error {
	p := &bp{id: -1, class: class, method: "main", reason: "entry", resolved: map[jdwp.ReferenceTypeID]bool{}}
	b.mu.Lock()
	b.entry = p
	b.mu.Unlock()
	return b.ensurePrepare(ctx, "class:"+class, jdwp.ClassMatch(class))
}

// splitMethodName splits "com.example.Foo.bar" (or "Foo.bar", "Foo::bar",
// "Foo#bar") into class and method.
func splitMethodName(name string) (class, method string, ok bool) {
	name = strings.TrimSpace(name)
	name = strings.TrimSuffix(name, "()")
	for _, sep := range []string{"::", "#"} {
		if c, m, found := strings.Cut(name, sep); found {
			return c, m, c != "" && m != ""
		}
	}
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || i == len(name)-1 {
		return "", name, false
	}
	return name[:i], name[i+1:], true
}

func (s *server) setExceptionBreakpoints(ctx context.Context, req *request) (any, error) {
	var args godap.SetExceptionBreakpointsArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if s.bps == nil {
		return nil, fmt.Errorf("setExceptionBreakpoints before launch or attach")
	}
	b := s.bps
	b.mu.Lock()
	old := b.excReqs
	b.excReqs = nil
	b.mu.Unlock()
	for _, id := range old {
		_ = s.vm.ClearEvent(ctx, jdwp.EventException, id)
	}
	mode := ""
	for _, f := range args.Filters {
		if f == "all" {
			mode = "all"
		} else if f == "uncaught" && mode == "" {
			mode = "uncaught"
		}
	}
	b.mu.Lock()
	b.excMode = mode
	b.mu.Unlock()
	if mode == "" {
		return godap.SetExceptionBreakpointsResponseBody{Breakpoints: []godap.Breakpoint{}}, nil
	}
	// "Uncaught" means not caught by the program: an exception only the
	// JDK catches (the source launcher and reflection wrap main) counts,
	// so caught ones are requested too and judged in wantException.
	id, err := s.vm.SetEvent(ctx, jdwp.EventException, jdwp.SuspendAll, jdwp.ExceptionOnly(0, true, true))
	if err != nil {
		return nil, fmt.Errorf("exception breakpoints: %w", err)
	}
	b.mu.Lock()
	b.excReqs = append(b.excReqs, id)
	b.mu.Unlock()
	return godap.SetExceptionBreakpointsResponseBody{Breakpoints: []godap.Breakpoint{{Verified: true}}}, nil
}

// launcherCatchers are the JDK classes that catch what main throws on
// its way out: the single-file source launcher, and the JNI launcher's
// reflection.
var launcherCatchers = []string{"com.sun.tools.javac.launcher.", "jdk.internal.reflect.", "java.lang.reflect."}

// wantException decides whether an exception event stops: in "all" mode
// unless the JDK both throws and catches it (class loading and the source
// launcher's compiler do so by the dozen: noise, not the program's); in
// "uncaught" mode when nothing catches it, or only the launcher does, and
// the program threw it (not the JDK for itself).
func (b *breakpoints) wantException(ctx context.Context, e jdwp.Event) bool {
	b.mu.Lock()
	mode := b.excMode
	seen := b.shown[e.Exception.Object]
	b.mu.Unlock()
	if seen || !b.exceptionStops(ctx, mode, e) {
		return false
	}
	b.mu.Lock()
	b.shown[e.Exception.Object] = true
	b.mu.Unlock()
	return true
}

// uncaught reports whether the program itself does not catch an exception:
// nothing catches it, or only the JDK code that runs main does. From JDK 18
// reflection calls main through method handles (JEP 416), so what main
// throws is caught in jdk.internal.reflect, where JDK 17's native
// reflection left it without a catch location (docs/adapter-quirks.md,
// jvm-7).
func (b *breakpoints) uncaught(ctx context.Context, e jdwp.Event) bool {
	if e.CatchLocation.Class == 0 {
		return true
	}
	catcher := b.s.types.className(ctx, e.CatchLocation.Class)
	for _, p := range launcherCatchers {
		if strings.HasPrefix(catcher, p) {
			return true
		}
	}
	return false
}

// exceptionStops applies the exception mode to one exception event.
func (b *breakpoints) exceptionStops(ctx context.Context, mode string, e jdwp.Event) bool {
	switch mode {
	case "all":
		return e.CatchLocation.Class == 0 ||
			!isJDKClass(b.s.types.className(ctx, e.Location.Class)) ||
			!isJDKClass(b.s.types.className(ctx, e.CatchLocation.Class))
	case "uncaught":
	default:
		return false
	}
	if e.CatchLocation.Class == 0 {
		return true
	}
	catcher := b.s.types.className(ctx, e.CatchLocation.Class)
	for _, p := range launcherCatchers {
		if strings.HasPrefix(catcher, p) {
			return !isJDKClass(b.s.types.className(ctx, e.Location.Class))
		}
	}
	if hasPrefix(catcher, b.s.frameworkCatchers) {
		return b.throughProgram(ctx, e.Thread)
	}
	return false
}

// throughProgram reports whether the stack of a thread stopped at an
// exception holds a frame of the program's own (neither the JDK's nor the
// test framework's): a test framework also throws and catches for itself
// (JUnit's discovery of a method that is not there), which is no failure
// of the program's.
func (b *breakpoints) throughProgram(ctx context.Context, thread jdwp.ObjectID) bool {
	frames, err := b.s.vm.Frames(ctx, thread, 0, -1)
	if err != nil {
		return true
	}
	for _, f := range frames {
		name := b.s.types.className(ctx, f.Location.Class)
		if !isJDKClass(name) && !hasPrefix(name, b.s.frameworkCatchers) {
			return true
		}
	}
	return false
}

// hasPrefix reports whether name starts with one of prefixes.
func hasPrefix(name string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

// hit handles a breakpoint event: its hit count, condition and log
// message. It returns the ids of the breakpoints that stop, and the stop
// reason when it is not "breakpoint".
func (b *breakpoints) hit(ctx context.Context, e jdwp.Event) ([]int, string) {
	b.mu.Lock()
	p := b.byReq[e.RequestID]
	if p == nil {
		b.mu.Unlock()
		return nil, ""
	}
	p.hits++
	hits := p.hits
	b.mu.Unlock()
	if p == b.entry {
		return nil, "entry"
	}
	if h, err := dap.ParseHitCondition(p.hitCond); err == nil && !h.Match(hits) {
		return nil, ""
	}
	if p.cond != "" {
		v, err := b.s.evalAt(ctx, e.Thread, 0, p.cond)
		if err != nil {
			b.s.Output("console", fmt.Sprintf("breakpoint condition %q failed: %v\n", p.cond, err))
		} else if !truthy(v) {
			return nil, ""
		}
	}
	if p.logMsg != "" {
		b.s.Output("console", b.s.interpolate(ctx, e.Thread, p.logMsg)+"\n")
		return nil, ""
	}
	reason := ""
	if p.reason != "" {
		reason = p.reason
	}
	return []int{p.id}, reason
}

var packageLine = regexp.MustCompile(`^\s*package\s+([\w.]+)\s*;?`)

// packageOf reads a source file's package declaration ("" for the
// default package or an unreadable file).
func packageOf(path string) string {
	f, _, err := userfile.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; i < 200 && sc.Scan(); i++ {
		line := strings.TrimSpace(sc.Text())
		if m := packageLine.FindStringSubmatch(line); m != nil {
			return m[1]
		}
		if strings.HasPrefix(line, "import ") || strings.Contains(line, "class ") {
			return ""
		}
	}
	return ""
}
