package server

import (
	"context"
	"path/filepath"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type debugTestArgs struct {
	Language       string  `json:"language,omitempty" jsonschema:"python, go, rust, ruby, javascript, java (a JUnit class's .java); not with sessionId"`
	Path           string  `json:"path" jsonschema:"test file or directory"`
	Name           string  `json:"name,omitempty" jsonschema:"only this test, as its runner names it (java: method)"`
	SessionID      string  `json:"sessionId,omitempty" jsonschema:"run in this session, not a new one"`
	ExecutablePath string  `json:"executablePath,omitempty" jsonschema:"interpreter or runtime"`
	Runner         string  `json:"runner,omitempty" jsonschema:"python: pytest or unittest (default: the project's)"`
	Cwd            string  `json:"cwd,omitempty" jsonschema:"working directory (default: the project's root)"`
	Env            EnvVars `json:"env,omitempty" jsonschema:"environment variables to add, as KEY=VALUE"`
	inputArgs
	Timeout Int      `json:"timeout,omitempty" jsonschema:"ms to wait for the failure or the end (default 60000)"`
	Record  bool     `json:"record,omitempty" jsonschema:"record it first: the calls and returns that led to the failure (recordingId), then stop before its raise"`
	Probes  []string `json:"probes,omitempty" jsonschema:"as start_debugging's"`
	shapeArgs
}

type testInfo struct {
	Runner  string `json:"runner"`
	Runtime string `json:"runtime,omitempty"`
	Failed  bool   `json:"failed"`
	Passed  bool   `json:"passed,omitempty"`
	Name    string `json:"name,omitempty"`
	Message string `json:"message,omitempty"`
	// NoneMatched: no test ran; Available names the tests there are.
	NoneMatched bool     `json:"noneMatched,omitempty"`
	Available   []string `json:"available,omitempty"`
}

// debugTestResult leads with the test, which carries the failure's message
// the rest of the answer then does not repeat.
type debugTestResult struct {
	Test testInfo `json:"test"`
	runResult
	SessionID string `json:"sessionId"`
	// ReconnectKey is given over HTTP when debug_test created the session:
	// the one create_debug_session gives.
	ReconnectKey string `json:"reconnectKey,omitempty"`
	// Recording is the recorded run's report, with record.
	Recording *recordResult `json:"recording,omitempty"`
}

// defaultTestTimeout allows for building and collecting the tests.
const defaultTestTimeout = 60000

func (s *Server) addDebugTestTool() {
	addTool(s, "debug_test",
		"Run a failing test under the debugger and stop at the failure: test {failed, passed, name, message} and the snapshot of the frame that raised, or the test's own at a failed assertion. The session stays open.",
		s.debugTest)
}

func (s *Server) debugTest(ctx context.Context, a *debugTestArgs) (*debugTestResult, error) {
	if a.Path == "" {
		return nil, userError("pass path, the test file or directory", "path is required")
	}
	probes, err := parseProbes(a.Probes)
	if err != nil {
		return nil, err
	}
	var sess *session.Session
	if a.SessionID != "" {
		sess, err = s.session(a.SessionID)
	} else {
		if a.Language == "" {
			return nil, userError("pass language (python, go), or the sessionId of a session created for it", "language is required")
		}
		sess, err = s.sessions.Create(a.Language, session.Options{Name: "test " + filepath.Base(a.Path), ExecutablePath: s.absExecutable(a.ExecutablePath), PathBase: s.cwd})
	}
	if err != nil {
		return nil, err
	}
	var key string
	if a.SessionID == "" {
		if key, err = s.own(ctx, sess.ID); err != nil {
			s.sessions.Close(sess.ID)
			return nil, err
		}
	}
	prints, _, err := s.setProbes(ctx, sess.ID, probes)
	if err != nil {
		if a.SessionID == "" {
			s.sessions.Close(sess.ID)
		}
		return nil, err
	}
	timeout := a.Timeout
	if timeout == 0 {
		timeout = defaultTestTimeout
	}
	req := adapter.TestRequest{Path: s.absPath(a.Path), Name: a.Name, ExecutablePath: s.absExecutable(a.ExecutablePath), Runner: a.Runner, Env: a.Env}
	if a.Cwd != "" {
		req.Cwd = s.absPath(a.Cwd)
	}
	if req.StdinFile, err = s.inputFile(sess, a.inputArgs); err != nil {
		if a.SessionID == "" {
			s.sessions.Close(sess.ID)
		}
		return nil, err
	}
	wait := session.WaitOptions{Wait: true, Timeout: millis(timeout)}
	if a.Record {
		res, err := s.debugTestRecorded(ctx, sess, a, req, wait)
		if err != nil && a.SessionID == "" {
			s.sessions.Close(sess.ID)
		}
		if res != nil {
			res.ReconnectKey = key
		}
		return res, err
	}
	res, err := sess.DebugTest(ctx, req, wait)
	if err != nil {
		if a.SessionID == "" {
			s.sessions.Close(sess.ID)
		}
		return nil, err
	}
	var prefix string
	switch {
	case res.Failed:
		prefix = failedPrefix(res)
	case res.NoneMatched:
		prefix = "No test ran: " + res.Message + "; nothing passed or failed. Pass name as the runner prints it (test.available lists the tests)."
	case res.Passed:
		prefix = "The tests passed: nothing to debug."
	}
	run := runResultOf(res.Snapshot, prefix)
	run.sayDeadlock(ctx, sess)
	run = run.shape(a.shapeArgs)
	if prints {
		if trace := s.printedValues(ctx, sess.ID); trace != nil {
			run.Trace = trace.Tables
		}
	}
	return &debugTestResult{
		runResult:    *run,
		SessionID:    sess.ID,
		ReconnectKey: key,
		Test: testInfo{Runner: res.Runner, Runtime: res.Runtime, Failed: res.Failed, Passed: res.Passed, Name: res.Name, Message: res.Message,
			NoneMatched: res.NoneMatched, Available: res.Available},
	}, nil
}

// failedPrefix says a test failed; its name and message stay in test
// alone, where the answer begins.
func failedPrefix(res *session.TestResult) string {
	if res.Message == "" {
		return "Test failed (no message)."
	}
	return "Test failed."
}
