package node

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

var _ adapter.Recorder = (*Adapter)(nil)

// recorderFiles is the in-process recorder node preloads: recorder.js
// (the event writer and the CommonJS compile hook), instrument.js (the
// rewriting of the user's functions) and reporter.mjs (node:test results
// as test events).
//
//go:embed recorder/recorder.js recorder/instrument.js recorder/reporter.mjs
var recorderFiles embed.FS

// recordEnv carries the recording's settings to recorder.js, which
// removes it from the program's environment.
const recordEnv = "MCP_DEBUGGER_RECORD"

// defaultMaxEvents is docs/recording-format.md's default bound.
const defaultMaxEvents = 200_000

// Record runs the program (or the node:test file) with the recorder
// preloaded. Each CommonJS file of the user's code is rewritten as Node
// compiles it so that its functions write their own events, in the
// process: no event crosses to the server. The parser is the acorn Node
// bundles for itself, which --expose-internals makes loadable; ES modules
// and TypeScript are not recorded yet and are refused.
func (a *Adapter) Record(ctx context.Context, cfg adapter.RecordConfig) (*adapter.RecordResult, error) {
	found, err := findNode(a.machine, cfg.ExecutablePath)
	if err != nil {
		return nil, err
	}
	_, version, err := nodeVersion(ctx, found.path)
	if err != nil {
		return nil, err
	}
	if err := requireBundledParser(ctx, found.path); err != nil {
		return nil, err
	}
	run, err := a.recordedRun(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := refuseUnrecordable(run.program); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "mcp-debugger-record-js-")
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := writeRecorder(dir); err != nil {
		return nil, err
	}
	settings, err := recordSettings(cfg, run.cwd)
	if err != nil {
		return nil, err
	}
	line := []string{"--expose-internals", "--require", filepath.Join(dir, "recorder.js")}
	if cfg.Test != nil {
		// The recording's reporter prints nothing, but needs a
		// destination: a file of the run's own, because Node 24 syncs a
		// file destination at the end and fsync of /dev/null fails
		// (EINVAL), an uncaught error that the recording took for the
		// run's outcome.
		line = append(line, "--test-reporter=spec", "--test-reporter-destination=stdout",
			"--test-reporter="+filepath.Join(dir, "reporter.mjs"), "--test-reporter-destination="+filepath.Join(dir, "reporter.out"))
	}
	line = append(append(append(line, run.options...), run.program), cfg.Args...)
	cmd := exec.Command(found.path, line...)
	cmd.Dir = run.cwd
	cmd.Env = recordEnviron(cfg.Env, run.env, settings)
	cmd.Stdout, cmd.Stderr = cfg.Output, cfg.Output
	result := &adapter.RecordResult{Runtime: "Node.js " + version + " (" + found.path + ")", Mechanism: "load-time instrumentation of CommonJS (Node's bundled acorn)"}
	if cfg.Test != nil {
		result.Runner = "node:test"
	}
	if result.ExitCode, err = adapter.RunRecorded(ctx, cmd, cfg.StdinFile, filepath.Base(run.program)); err != nil {
		return nil, err
	}
	if _, err := os.Stat(cfg.EventsFile); err != nil {
		return nil, fmt.Errorf("record: node wrote no recording (%s exited with %d): %w", filepath.Base(run.program), result.ExitCode, err)
	}
	return result, nil
}

// bundledParser is the acorn Node bundles for its own use, which
// instrument.js requires to parse the user's files.
const bundledParser = "internal/deps/acorn/acorn/dist/acorn"

// parsers remembers, per node binary, whether it loads bundledParser.
var parsers adapter.VersionCache

// requireBundledParser fails, saying what to do, when node cannot load
// bundledParser: a Node built without it, or one that refuses
// --expose-internals, would otherwise fail inside the recorder with a
// stack trace in the program's output and no recording.
func requireBundledParser(ctx context.Context, node string) error {
	_, err := parsers.Version(ctx, node, func(ctx context.Context) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, node, "--expose-internals", "-e", "require('"+bundledParser+"')").CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("record: %s cannot load the acorn parser Node bundles (%s), which JavaScript recording parses your files with; "+
				"record with executablePath set to an official Node.js build (nodejs.org, nvm), which bundles it: %w (%s)", node, bundledParser, err, errorLine(out))
		}
		return "loads " + bundledParser, nil
	})
	return err
}

// errorLine is the line of node's output that says what failed.
func errorLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, line := range lines {
		if strings.HasPrefix(line, "Error") {
			return line
		}
	}
	return lines[0]
}

// recordedRun is what node runs for a recording: the program, or the
// test file as debug_test would run it.
type recordedRun struct {
	program, cwd string
	options      []string
	env          map[string]string
}

func (a *Adapter) recordedRun(ctx context.Context, cfg adapter.RecordConfig) (recordedRun, error) {
	if cfg.Test == nil {
		// As a launch does (and Python's recorder), a program without a
		// cwd runs in its own directory, which is then its user code.
		cwd := cfg.Cwd
		if cwd == "" {
			cwd = filepath.Dir(cfg.Program)
		}
		return recordedRun{program: cfg.Program, cwd: cwd}, nil
	}
	plan, err := a.TestPlan(ctx, *cfg.Test)
	if err != nil {
		return recordedRun{}, err
	}
	run := recordedRun{program: plan.Program, cwd: plan.Cwd, env: plan.Env}
	if opts, ok := plan.Extra["runtimeArgs"].([]string); ok {
		run.options = opts
	}
	if cfg.Cwd != "" {
		run.cwd = cfg.Cwd
	}
	return run, nil
}

// refuseUnrecordable says which programs the recorder cannot rewrite: it
// hooks CommonJS compilation only.
func refuseUnrecordable(program string) error {
	if isTypeScript(program) {
		return fmt.Errorf("record: %s is TypeScript, which JavaScript recording does not cover yet; record the compiled .js", filepath.Base(program))
	}
	if filepath.Ext(program) == ".mjs" || filepath.Ext(program) != ".cjs" && packageIsModule(filepath.Dir(program)) {
		return fmt.Errorf("record: %s is an ES module, which JavaScript recording does not cover yet (it records CommonJS files)", filepath.Base(program))
	}
	return nil
}

// packageIsModule reports whether the package.json nearest above dir says
// "type": "module".
func packageIsModule(dir string) bool {
	for {
		data, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var pkg struct {
				Type string `json:"type"`
			}
			return json.Unmarshal(data, &pkg) == nil && pkg.Type == "module"
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

func writeRecorder(dir string) error {
	entries, err := recorderFiles.ReadDir("recorder")
	if err != nil {
		return fmt.Errorf("record: the embedded recorder: %w", err)
	}
	for _, e := range entries {
		data, err := recorderFiles.ReadFile("recorder/" + e.Name())
		if err != nil {
			return fmt.Errorf("record: the embedded recorder: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o600); err != nil {
			return fmt.Errorf("record: writing the recorder: %w", err)
		}
	}
	return nil
}

// recordSettings is the recorder's configuration, as JSON.
func recordSettings(cfg adapter.RecordConfig, cwd string) (string, error) {
	maxEvents := cfg.MaxEvents
	if maxEvents <= 0 {
		maxEvents = defaultMaxEvents
	}
	roots := append([]string{cwd}, cfg.Include...)
	lines := cfg.Lines
	if lines == nil {
		lines = []string{}
	}
	data, err := json.Marshal(map[string]any{
		"eventsFile": cfg.EventsFile, "roots": roots, "lines": lines,
		"maxEvents": maxEvents, "useRepr": cfg.UseRepr,
	})
	if err != nil {
		return "", fmt.Errorf("record: settings: %w", err)
	}
	return string(data), nil
}

// recordEnviron is the server's environment with the test script's and
// the agent's additions and the recorder's settings.
func recordEnviron(agent, script map[string]string, settings string) []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, recordEnv+"=") })
	for _, add := range []map[string]string{script, agent} {
		for k, v := range add {
			env = append(env, k+"="+v)
		}
	}
	return append(env, recordEnv+"="+settings)
}
