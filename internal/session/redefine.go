package session

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// hotSwapLanguage is the language whose adapter can redefine classes.
const hotSwapLanguage = "java"

// defaultRedefineTimeout bounds a redefinition when the caller sets none.
const defaultRedefineTimeout = 30 * time.Second

// RedefineClassesRequest names a compiled classes directory to hot swap
// into the program.
type RedefineClassesRequest struct {
	ClassesDir string
	// SinceTimestamp (Unix ms) leaves out class files not modified after
	// it; 0 takes them all.
	SinceTimestamp int64
	// Timeout bounds the redefinition (0: defaultRedefineTimeout).
	Timeout time.Duration
}

// RedefineClasses swaps the recompiled classes of a directory into the
// running or paused JVM: those it has loaded are redefined, the others it
// loads from the class path when first needed. Breakpoints in redefined
// classes are set again by the adapter. When paused, the stop's locals
// are fetched again, as the frame's method may have changed.
func (s *Session) RedefineClasses(ctx context.Context, req RedefineClassesRequest) (*adapter.RedefineClassesBody, error) {
	if s.Language.ID != hotSwapLanguage {
		return nil, errorf("for a change in another language, restart_debugging runs the changed program", "redefine_classes works only for Java sessions; this one is %s", s.Language.ID)
	}
	if err := checkClassesDir(req.ClassesDir); err != nil {
		return nil, err
	}
	s.mu.Lock()
	r, err := s.requireConnectedLocked("redefine classes")
	var shown *Stop
	if err == nil && s.state == StatePaused {
		shown = s.stop
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = defaultRedefineTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := adapter.RedefineClassesArgs{ClassesDir: req.ClassesDir, SinceTimestamp: req.SinceTimestamp, Timeout: timeout.Milliseconds()}
	var body adapter.RedefineClassesBody
	if err := r.call(ctx, adapter.RedefineClassesCommand, args, &body); err != nil {
		return nil, adapterError("redefine classes", err, "compile the classes first (javac -g -d DIR, or the build tool); the program runs on unchanged")
	}
	if shown != nil && len(body.Redefined) > 0 {
		s.refetch(ctx, shown.top)
	}
	return &body, nil
}

// checkClassesDir refuses a classes directory that is not an absolute
// path to a directory.
func checkClassesDir(dir string) error {
	const hint = "pass the absolute path of the compiled classes directory, e.g. /project/target/classes or /project/build/classes/java/main"
	if !filepath.IsAbs(dir) {
		return errorf(hint, "classesDir %q is not an absolute path", dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return errorf(hint, "classesDir %s is not a directory", dir)
	}
	return nil
}
