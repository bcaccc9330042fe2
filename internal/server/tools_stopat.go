package server

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/recording"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// stopAtArgs name a recorded event that start_debugging runs to live.
type stopAtArgs struct {
	RecordingID string `json:"recordingId" jsonschema:"record's recordingId"`
	Event       string `json:"event" jsonschema:"#7 (call 7's entry), #7 return, #7 raise, #7 line 27 [x2], or failure"`
}

// stopAtNote says which recorded event the stop is, and whether the run
// reached it.
type stopAtNote struct {
	Event   string `json:"event"`
	Reached bool   `json:"reached"`
}

// recordedEvent finds a recording, the session that made it, and where a
// live run meets the event.
func (s *Server) recordedEvent(ctx context.Context, a *stopAtArgs) (*session.Recorded, *session.Session, *recording.Target, error) {
	rec, owner, err := s.recorded(ctx, a.RecordingID)
	if err != nil {
		return nil, nil, nil, err
	}
	ev, err := recording.ParseEvent(a.Event)
	if err != nil {
		return nil, nil, nil, userError("ids are the #N of record's report and query_recording's rows", "event %q: %v", a.Event, err)
	}
	t, err := rec.Locate(ev)
	if err != nil {
		return nil, nil, nil, userError("query_recording lists the calls and their ids", "%v", err)
	}
	return rec, owner, t, nil
}

// startAt runs the recorded program again in sess and stops live at the
// event: start_debugging with stopAt.
func (s *Server) startAt(ctx context.Context, sess *session.Session, a *startArgs, spec session.LaunchSpec) (*runResult, error) {
	rec, owner, t, err := s.recordedEvent(ctx, a.StopAt)
	if err != nil {
		return nil, err
	}
	if owner != nil && owner.Language.ID != sess.Language.ID {
		return nil, userError("stopAt in a "+owner.Language.ID+" session (the recording's own session will do)",
			"the recording is of a %s program; this session debugs %s", owner.Language.ID, sess.Language.ID)
	}
	cfg := rec.Config
	if err := sameRun(cfg, spec, a); err != nil {
		return nil, err
	}
	wait := waitOpts(nil, a.Timeout)
	var res *session.StopAtResult
	if cfg.Test != nil {
		res, err = sess.TestAt(ctx, *cfg.Test, t, wait)
	} else {
		spec.Program, spec.Args, spec.Cwd = cfg.Program, cfg.Args, cfg.Cwd
		if spec.Cwd == "" {
			spec.Cwd = rec.Cwd
		}
		spec.Env = mergeEnv(cfg.Env, spec.Env)
		if cfg.ExecutablePath != "" {
			spec.ExecutablePath, spec.ExecutableReason = cfg.ExecutablePath, "the recording's executablePath"
		}
		res, err = sess.StartAt(ctx, spec, t, wait)
	}
	if err != nil {
		return nil, err
	}
	out := runResultOf(res.Snapshot, stopAtMessage(t, res))
	out.Data = &runData{Reason: out.StopReason, Runtime: res.Runtime, StopAt: &stopAtNote{Event: t.Name, Reached: res.Reached}}
	out.Warning = unverifiedWarning(sess)
	return out.shape(a.shapeArgs), nil
}

// sameRun refuses a start whose program or arguments differ from the
// recording's: the event is only where it was in the same run.
func sameRun(cfg adapter.RecordConfig, spec session.LaunchSpec, a *startArgs) error {
	recorded := cfg.Program
	if cfg.Test != nil {
		recorded = cfg.Test.Path
	}
	if a.ScriptPath != "" && filepath.Clean(spec.Program) != filepath.Clean(recorded) {
		return userError("leave scriptPath out: stopAt runs the recorded program ("+recorded+") again",
			"stopAt's recording ran %s, not %s", recorded, spec.Program)
	}
	if a.Args != nil && !slices.Equal(a.Args, cfg.Args) {
		return userError("leave args out: stopAt runs the program with the recorded arguments", "stopAt's recording ran with args %q, not %q", cfg.Args, a.Args)
	}
	return nil
}

// mergeEnv is the recorded environment with the agent's additions.
func mergeEnv(recorded, added map[string]string) map[string]string {
	if len(added) == 0 {
		return recorded
	}
	out := maps.Clone(recorded)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, added)
	return out
}

// stopAtMessage says whether the run reached the event.
func stopAtMessage(t *recording.Target, res *session.StopAtResult) string {
	switch {
	case res.Reached && res.BeforePrologue:
		return "Stopped live at recorded " + t.Name + ", at the function's entry: its arguments are not stored yet (a one-line function GCC compiled, whose prologue lldb does not skip), so the locals are not them; the recorded values are in the event."
	case res.Reached && res.Differs != "":
		return "Stopped at the same call by count as recorded " + t.Name + ", but its arguments differ: " + res.Differs + ". This run did not repeat the recorded one (another input, the time, or threads taking turns differently)."
	case res.Reached:
		return "Stopped live at recorded " + t.Name + "."
	}
	return "Did not reach recorded " + t.Name + ": the run stopped or ended elsewhere first."
}

// debugTestRecorded is debug_test with record: the test runs once under
// the recorder, then again under the debugger to the failure's raise.
func (s *Server) debugTestRecorded(ctx context.Context, sess *session.Session, a *debugTestArgs, req adapter.TestRequest, wait session.WaitOptions) (*debugTestResult, error) {
	runCtx, cancel := context.WithTimeout(ctx, recordTimeout)
	rec, err := sess.Record(runCtx, adapter.RecordConfig{Test: &req, ExecutablePath: req.ExecutablePath, Cwd: req.Cwd, Env: req.Env, StdinFile: req.StdinFile})
	cancel()
	if err != nil {
		return nil, err
	}
	rep, err := rec.Report()
	if err != nil {
		return nil, err
	}
	recorded := &recordResult{Success: true, RecordingID: rec.ID, SessionID: sess.ID, Report: &recordReport{Report: rep,
		Runtime: rec.Result.Runtime, Runner: rec.Result.Runner, Mechanism: rec.Result.Mechanism, ElapsedMs: rec.Elapsed.Milliseconds()}}
	recorded.fit(defaultRecordMaxBytes)
	info := testInfo{Runner: rec.Result.Runner, Runtime: rec.Result.Runtime}
	if rep.Test != nil {
		info.Failed, info.Name, info.Message = true, rep.Test.Name, rep.Test.Msg
	}
	t, err := rec.Locate(recording.Event{Failure: true, Kind: recording.EventRaise})
	if err != nil {
		if errors.Is(err, recording.ErrNoFailure) {
			info.Passed = rep.Test == nil && rec.Exit != nil && *rec.Exit == 0
			return &debugTestResult{Test: info, runResult: runResult{Success: true, Message: "Recorded: " + rep.Outcome + ". Nothing raised in your code to stop at.",
				Snapshot: session.Snapshot{State: sess.State()}}, SessionID: sess.ID, Recording: recorded}, nil
		}
		return nil, err
	}
	res, err := sess.TestAt(ctx, req, t, wait)
	if err != nil {
		return nil, err
	}
	run := runResultOf(res.Snapshot, stopAtMessage(t, res))
	run.Data = &runData{StopAt: &stopAtNote{Event: t.Name, Reached: res.Reached}}
	return &debugTestResult{Test: info, runResult: *run.shape(a.shapeArgs), SessionID: sess.ID, Recording: recorded}, nil
}
