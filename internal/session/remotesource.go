package session

// Source the agent does not have: a frame in a file that exists only where
// the program runs (a container's copy) is shown from the adapter, with the
// DAP source request, and marked remote.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// remoteSources caches what the adapter answered for a source, by path
// and reference: its lines, or why it cannot serve them (asked once).
type remoteSources struct {
	mu    sync.Mutex
	files map[string]servedSource
}

type servedSource struct {
	lines []string
	err   error
}

// remoteFrames reports whether the connection's program may report files
// the agent does not have: it runs under path mappings, or elsewhere
// (attached by host and port).
func (r *connection) remoteFrames() bool {
	if r.paths != nil {
		return true
	}
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	return r.s.spec != nil && r.s.spec.attach != nil && r.s.spec.attach.Port > 0
}

// isRemote reports whether a frame's source is one the agent has no file
// for, in a program that runs elsewhere.
func (r *connection) isRemote(src *dap.Source) bool {
	if src == nil || !r.remoteFrames() {
		return false
	}
	if src.Path == "" {
		return src.SourceReference > 0 || src.Name != ""
	}
	// Pseudo-paths ("<string>", "node:internal/…") are no files anywhere.
	if !IsRemoteAbs(src.Path) {
		return false
	}
	_, err := os.Stat(src.Path)
	return err != nil
}

// remoteLines asks the adapter for a source's text: by its sourceReference
// when it has one, else by path, which debugpy serves from the program's
// side.
func (r *connection) remoteLines(ctx context.Context, src *dap.Source) ([]string, error) {
	key := fmt.Sprintf("%d\x00%s", src.SourceReference, src.Path)
	r.remote.mu.Lock()
	served, ok := r.remote.files[key]
	r.remote.mu.Unlock()
	if ok {
		return served.lines, served.err
	}
	args := map[string]any{"sourceReference": src.SourceReference, "source": map[string]any{"path": src.Path, "sourceReference": src.SourceReference}}
	var body dap.SourceResponseBody
	if err := r.call(ctx, "source", args, &body); err != nil {
		served.err = fmt.Errorf("the adapter cannot serve %s: %w", src.Path, err)
	} else {
		text := strings.ReplaceAll(body.Content, "\r\n", "\n")
		served.lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	if ctx.Err() != nil {
		// Cut short by the caller: not the adapter's answer.
		return served.lines, served.err
	}
	r.remote.mu.Lock()
	if r.remote.files == nil {
		r.remote.files = map[string]servedSource{}
	}
	r.remote.files[key] = served
	r.remote.mu.Unlock()
	return served.lines, served.err
}

// remoteContext is ReadContext for a source the adapter serves.
func (r *connection) remoteContext(ctx context.Context, src *dap.Source, line, radius int) (SourceContext, error) {
	lines, err := r.remoteLines(ctx, src)
	if err != nil {
		return SourceContext{}, err
	}
	if line < 1 || line > len(lines) {
		return SourceContext{}, fmt.Errorf("line %d is outside %s as the adapter serves it (%d lines)", line, src.Path, len(lines))
	}
	return contextOf(lines, line, radius), nil
}

// frameContext is the source window of a frame: from the agent's file,
// else from the adapter when the file is remote. remote says it is; an
// adapter that serves no source (Delve: docs/adapter-quirks.md, delve-21)
// leaves it remote without lines.
func (r *connection) frameContext(ctx context.Context, f dap.StackFrame, radius int) (c SourceContext, remote bool, err error) {
	if f.Source == nil {
		return SourceContext{}, false, fmt.Errorf("the frame has no source")
	}
	if !r.isRemote(f.Source) {
		c, err = ReadContext(f.Source.Path, f.Line, radius)
		return c, false, err
	}
	c, err = r.remoteContext(ctx, f.Source, f.Line, radius)
	return c, true, err
}

// SourceContext is get_source_context's window of a file: the agent's own
// file, else, for a file the program reports and the agent does not have,
// the adapter's copy (remote true).
func (s *Session) SourceContext(ctx context.Context, file string, line, radius int) (c SourceContext, remote bool, err error) {
	c, err = ReadContext(file, line, radius)
	if err == nil {
		return c, false, nil
	}
	s.mu.Lock()
	r := s.r
	s.mu.Unlock()
	// A file here that is refused (a device, a FIFO, a huge file) is not
	// asked of the adapter, which would read it.
	var refused *userfile.Error
	if r == nil || r.ended() || !r.remoteFrames() || errors.As(err, &refused) {
		return c, false, err
	}
	src := &dap.Source{Path: file}
	if ref := r.knownReference(file); ref > 0 {
		src.SourceReference = ref
	}
	rc, rerr := r.remoteContext(ctx, src, line, radius)
	if rerr != nil {
		return c, false, fmt.Errorf("%w; %w", err, rerr)
	}
	return rc, true, nil
}

// knownReference is the sourceReference the current stop's frames give
// path, 0 when none does.
func (r *connection) knownReference(path string) int {
	r.s.mu.Lock()
	st := r.s.stop
	r.s.mu.Unlock()
	if st == nil {
		return 0
	}
	select {
	case <-st.ready:
	default:
		return 0
	}
	for _, f := range st.frames {
		if f.Source != nil && f.Source.Path == path && f.Source.SourceReference > 0 {
			return f.Source.SourceReference
		}
	}
	return 0
}
