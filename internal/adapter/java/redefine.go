package java

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// classFile is a compiled class found in a classes directory.
type classFile struct {
	path  string
	mtime int64 // Unix ms
}

// redefineClasses hot swaps the classes of a directory that the VM has
// loaded (JDWP VirtualMachine.RedefineClasses), then sets the
// breakpoints of those classes again.
func (s *server) redefineClasses(ctx context.Context, req *request) (any, error) {
	var args adapter.RedefineClassesArgs
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if s.vm == nil {
		return nil, fmt.Errorf("redefineClasses before launch or attach")
	}
	s.mu.Lock()
	ended := s.ended
	s.mu.Unlock()
	if ended {
		return nil, fmt.Errorf("the program has ended")
	}
	caps, err := s.vm.CapabilitiesNew(ctx)
	if err != nil {
		return nil, fmt.Errorf("ask the VM what it can do: %w", err)
	}
	if !caps.CanRedefineClasses {
		return nil, fmt.Errorf("this JVM cannot redefine classes (canRedefineClasses is false)")
	}
	files, err := classFilesSince(args.ClassesDir, args.SinceTimestamp)
	if err != nil {
		return nil, err
	}
	loaded, err := s.loadedBySignature(ctx)
	if err != nil {
		return nil, err
	}
	body := adapter.RedefineClassesBody{Redefined: []string{}, NotLoaded: []string{}, Failed: []adapter.RedefineFailure{},
		ScannedFiles: len(files), NewestTimestamp: args.SinceTimestamp}
	for _, f := range files {
		body.NewestTimestamp = max(body.NewestTimestamp, f.mtime)
		s.redefineOne(ctx, f, loaded, &body)
	}
	return body, nil
}

// redefineOne swaps one class file into every loaded class of its name
// (one per class loader that loaded it) and notes the outcome in body.
func (s *server) redefineOne(ctx context.Context, f classFile, loaded map[string][]jdwp.ReferenceTypeID, body *adapter.RedefineClassesBody) {
	data, err := os.ReadFile(f.path)
	if err != nil {
		body.Failed = append(body.Failed, adapter.RedefineFailure{Class: f.path, Error: err.Error()})
		return
	}
	name, err := readClassName(bytes.NewReader(data))
	if err != nil {
		body.Failed = append(body.Failed, adapter.RedefineFailure{Class: f.path, Error: "not a class file: " + err.Error()})
		return
	}
	types := loaded[signatureOf(name)]
	if len(types) == 0 {
		body.NotLoaded = append(body.NotLoaded, name)
		return
	}
	for _, t := range types {
		if err := s.vm.RedefineClasses(ctx, []jdwp.ClassDefinition{{Type: t, Bytes: data}}); err != nil {
			body.Failed = append(body.Failed, adapter.RedefineFailure{Class: name, Error: redefineRefusal(err)})
			return
		}
		s.types.forget(t)
		body.ReplantedBreakpoints += s.bps.replant(ctx, t)
	}
	body.Redefined = append(body.Redefined, name)
}

// loadedBySignature maps the signatures of the loaded classes and
// interfaces to their types.
func (s *server) loadedBySignature(ctx context.Context) (map[string][]jdwp.ReferenceTypeID, error) {
	all, err := s.vm.AllClasses(ctx)
	if err != nil {
		return nil, fmt.Errorf("list loaded classes: %w", err)
	}
	out := map[string][]jdwp.ReferenceTypeID{}
	for _, c := range all {
		if c.TypeTag != jdwp.TypeArray {
			out[c.Signature] = append(out[c.Signature], c.ID)
		}
	}
	return out, nil
}

// classFilesSince lists the .class files under dir modified after since
// (Unix ms; 0 takes all).
func classFilesSince(dir string, since int64) ([]classFile, error) {
	var out []classFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".class") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if mtime := info.ModTime().UnixMilli(); mtime > since {
			out = append(out, classFile{path: path, mtime: mtime})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan %s for class files: %w", dir, err)
	}
	return out, nil
}

// structuralChanges are the JDWP errors of a change the JVM cannot swap
// in: HotSpot redefines method bodies only.
var structuralChanges = map[uint16]bool{63: true, 64: true, 66: true, 67: true, 70: true, 71: true, 72: true}

// redefineRefusal says why the VM refused a class, and what to do about
// a change beyond a method body.
func redefineRefusal(err error) string {
	for code := range structuralChanges {
		if jdwp.IsCode(err, code) {
			return err.Error() + ": the JVM swaps method bodies only; restart the program for a change of fields, methods or the class's shape"
		}
	}
	return err.Error()
}

// replant sets again the breakpoints that were in class t before it was
// redefined, and returns how many of the client's are set again.
// RedefineClasses drops the VM's breakpoints in a redefined class (as JDI
// deletes its breakpoint requests there), and the new version's code may
// sit at other indexes: each is resolved afresh in the new version.
func (b *breakpoints) replant(ctx context.Context, t jdwp.ReferenceTypeID) int {
	b.mu.Lock()
	var affected []*bp
	var stale []int32
	for _, p := range b.allLocked() {
		if !p.resolved[t] {
			continue
		}
		delete(p.resolved, t)
		kept := p.reqs[:0]
		for _, id := range p.reqs {
			if b.reqClass[id] == t {
				stale = append(stale, id)
				delete(b.byReq, id)
				delete(b.reqClass, id)
			} else {
				kept = append(kept, id)
			}
		}
		p.reqs = kept
		affected = append(affected, p)
	}
	b.mu.Unlock()
	for _, id := range stale {
		// The VM has mostly forgotten these already; clearing makes sure
		// none fires twice beside its replacement.
		if err := b.s.vm.ClearEvent(ctx, jdwp.EventBreakpoint, id); err != nil {
			b.s.log.Debug("java adapter: clear breakpoint of a redefined class", "err", err)
		}
	}
	replanted := 0
	for _, p := range affected {
		if p.file != nil {
			b.resolveLine(ctx, p, t)
		} else {
			b.resolveMethod(ctx, p, t)
		}
		b.mu.Lock()
		if p != b.entry && b.hasRequestIn(p, t) {
			replanted++
		}
		b.mu.Unlock()
	}
	return replanted
}

// allLocked lists every line, method and entry breakpoint.
func (b *breakpoints) allLocked() []*bp {
	var out []*bp
	for _, f := range b.files {
		out = append(out, f.bps...)
	}
	out = append(out, b.funcs...)
	if b.entry != nil {
		out = append(out, b.entry)
	}
	return out
}

// hasRequestIn says whether p has a breakpoint request in class t.
func (b *breakpoints) hasRequestIn(p *bp, t jdwp.ReferenceTypeID) bool {
	for _, id := range p.reqs {
		if b.reqClass[id] == t {
			return true
		}
	}
	return false
}
