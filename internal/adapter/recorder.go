package adapter

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// Recorder is implemented by languages that can record a whole run for
// the record tool: every call into the user's own code with its
// arguments, every return and exception, and the lines of chosen
// functions, written as docs/recording-format.md describes.
type Recorder interface {
	// Record runs cfg's program (or test) to its end while the language's
	// recorder writes cfg.EventsFile; it returns once the program has
	// ended and the file is complete. An error means no recording was
	// made (the runtime is missing, say) and says what to do.
	Record(ctx context.Context, cfg RecordConfig) (*RecordResult, error)
}

// RecordConfig is what the record tool asks a language to run. Paths are
// absolute.
type RecordConfig struct {
	Program string
	Args    []string
	// Cwd is the program's working directory and, with Include, the root
	// of what counts as the user's code.
	Cwd string
	// Env is added to the server's environment.
	Env map[string]string
	// StdinFile, when set, is a regular file the program (or the tests)
	// reads as its standard input; otherwise it reads /dev/null.
	StdinFile string
	// Test, when set, runs the language's test runner on Test.Path (one
	// test when Test.Name is set) instead of Program.
	Test *TestRequest
	// ExecutablePath is the interpreter or runtime the user chose, if any.
	ExecutablePath string
	// Include adds files or directories counted as the user's code
	// (besides Cwd, leaving out installed packages under it).
	Include []string
	// Lines names functions whose executed lines and changed locals are
	// recorded too.
	Lines []string
	// MaxEvents bounds the events kept (docs/recording-format.md, Bounds).
	MaxEvents int
	// UseRepr lets the recorder run the program's own rendering of
	// values (__repr__, toString), which recording otherwise never does.
	UseRepr bool
	// EventsFile is where the recorder writes the events.
	EventsFile string
	// Output receives the program's stdout and stderr.
	Output io.Writer
	// Logger receives the recorder's own diagnostics.
	Logger *slog.Logger
}

// RecordResult is how a recorded run ended.
type RecordResult struct {
	// ExitCode is the program's (or the test runner's) exit status.
	ExitCode int
	// Runtime names what ran the program ("Python 3.11.7 (/usr/bin/python3)").
	Runtime string
	// Runner names the test runner for a test run ("pytest").
	Runner string
	// Mechanism says how the recording was made ("sys.monitoring",
	// "sys.settrace", "JDWP method events"), for the report.
	Mechanism string
}

// RunRecorded runs a recorder's command to its end: under proc, so that
// what the recorded program starts ends with it as in every launch, with
// stdinFile ("" for none) as its standard input. It returns the exit code
// (-1 for a signal); when ctx ends first, the command is killed and ctx's
// error returned, naming what.
func RunRecorded(ctx context.Context, cmd *exec.Cmd, stdinFile, what string) (int, error) {
	stdinDone, err := GiveStdin(cmd, stdinFile)
	if err != nil {
		return 0, err
	}
	p, err := proc.Start(cmd)
	stdinDone()
	if err != nil {
		return 0, fmt.Errorf("start %s to record %s: %w", filepath.Base(cmd.Path), what, err)
	}
	select {
	case <-p.Done():
		return p.ExitCode(), nil
	case <-ctx.Done():
		p.Kill()
		return 0, fmt.Errorf("recording %s: %w", what, ctx.Err())
	}
}
