package python

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// recorderFile is the recorder's path under the scripts directory: a
// directory of its own, so that the recorder's own frames are told from
// the user's by their directory.
var recorderFile = filepath.Join("recorder", "mcp_debugger_recorder.py")

// recorderScript writes a recording (docs/recording-format.md) of the
// program it runs.
//
//go:embed scripts/recorder/mcp_debugger_recorder.py
var recorderScript string

// Mechanisms the recorder can use: sys.monitoring (PEP 669) from Python
// 3.12, whose callbacks switch themselves off for code that is not the
// user's, else sys.settrace.
const (
	mechanismMonitoring = "sys.monitoring"
	mechanismSettrace   = "sys.settrace"
)

// Record runs the program, or pytest on a test, under the recorder. The
// program runs under the interpreter a launch would choose; it needs no
// debugpy.
func (a *Adapter) Record(ctx context.Context, cfg adapter.RecordConfig) (*adapter.RecordResult, error) {
	run, err := a.recordRun(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var cleanups []func()
	defer func() {
		for _, c := range cleanups {
			c()
		}
	}()
	scripts, err := scriptsDir(&cleanups)
	if err != nil {
		return nil, err
	}
	args := append([]string{filepath.Join(scripts, recorderFile)}, recorderOptions(cfg, run)...)
	cmd := exec.Command(run.python.Path, args...)
	cmd.Dir = run.cwd
	cmd.Env = mergeEnv(os.Environ(), cfg.Env)
	cmd.Stdout, cmd.Stderr = cfg.Output, cfg.Output
	code, err := adapter.RunRecorded(ctx, cmd, cfg.StdinFile, filepath.Base(run.target))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(cfg.EventsFile); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the recorder under %s wrote no recording (exit code %d): its output says why", run.python.Path, code)
	}
	return &adapter.RecordResult{
		ExitCode:  code,
		Runtime:   fmt.Sprintf("Python %s (%s)", run.python.Version, run.python.Path),
		Runner:    run.runner,
		Mechanism: run.mechanism,
	}, nil
}

// recordRun is what a recording runs: the interpreter, the directory,
// and the program's (or pytest's) arguments.
type recordRun struct {
	python    *interpreter
	cwd       string
	target    string
	args      []string
	runner    string
	mechanism string
}

func (a *Adapter) recordRun(ctx context.Context, cfg adapter.RecordConfig) (*recordRun, error) {
	run := &recordRun{cwd: cfg.Cwd, target: cfg.Program, args: append([]string{cfg.Program}, cfg.Args...)}
	explicit := cfg.ExecutablePath
	if cfg.Test != nil {
		plan, err := a.TestPlan(ctx, *cfg.Test)
		if err != nil {
			return nil, err
		}
		if plan.Runner != runnerPytest {
			// The recorder reads each test's outcome through pytest's hooks.
			return nil, fmt.Errorf("recording runs Python tests with pytest, and these run with %s: pass runner pytest (it runs unittest suites too) or debug_test without record", plan.Runner)
		}
		run.target, run.args, run.runner, explicit = cfg.Test.Path, plan.Args, plan.Runner, plan.ExecutablePath
		if run.cwd == "" {
			run.cwd = plan.Cwd
		}
	}
	if run.cwd == "" {
		run.cwd = filepath.Dir(run.target)
	}
	s := search{explicit: explicit, script: run.target, dir: run.cwd, env: cfg.Env}
	prog, err := a.finder.program(ctx, s, a.finder.preferred(ctx, s))
	if err != nil {
		return nil, err
	}
	if prog == nil {
		return nil, unavailableError(nil)
	}
	run.python = prog.interpreter
	run.mechanism = mechanismSettrace
	if prog.atLeast(3, 12) {
		run.mechanism = mechanismMonitoring
	}
	return run, nil
}

// recorderOptions is the recorder's command line after its own path.
func recorderOptions(cfg adapter.RecordConfig, run *recordRun) []string {
	opts := []string{"--out", cfg.EventsFile, "--root", run.cwd, "--mechanism", "settrace"}
	if run.mechanism == mechanismMonitoring {
		opts[len(opts)-1] = "monitoring"
	}
	for _, inc := range cfg.Include {
		opts = append(opts, "--include", inc)
	}
	for _, fn := range cfg.Lines {
		opts = append(opts, "--lines", fn)
	}
	if cfg.MaxEvents > 0 {
		opts = append(opts, "--max-events", strconv.Itoa(cfg.MaxEvents))
	}
	if cfg.UseRepr {
		opts = append(opts, "--repr")
	}
	if cfg.Test != nil {
		opts = append(opts, "--pytest")
	}
	return append(append(opts, "--"), run.args...)
}
