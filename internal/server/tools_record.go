package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/recording"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type recordArgs struct {
	Language   string   `json:"language" jsonschema:"python, javascript, java, go, c, cpp or rust"`
	ScriptPath string   `json:"scriptPath,omitempty" jsonschema:"the program to run"`
	Path       string   `json:"path,omitempty" jsonschema:"a test file or dir instead"`
	Name       string   `json:"name,omitempty" jsonschema:"with path: the one test to run"`
	Args       []string `json:"args,omitempty" jsonschema:"the program's arguments"`
	Cwd        string   `json:"cwd,omitempty" jsonschema:"working directory; the code recorded is what lies under it (and include)"`
	Env        EnvVars  `json:"env,omitempty" jsonschema:"environment variables to add, as KEY=VALUE"`
	inputArgs
	ExecutablePath string   `json:"executablePath,omitempty" jsonschema:"the interpreter or runtime to run it with"`
	Include        []string `json:"include,omitempty" jsonschema:"more directories whose code is recorded"`
	Lines          []string `json:"lines,omitempty" jsonschema:"functions to record lines of (for history)"`
	MaxEvents      Int      `json:"maxEvents,omitempty" jsonschema:"events kept at most (the report warns of those dropped)"`
	UseRepr        bool     `json:"useRepr,omitempty" jsonschema:"Python: show values with repr(), which runs the program's code"`
	MaxBytes       Int      `json:"maxBytes,omitempty" jsonschema:"report size cap (default 4000)"`
}

// recordResult is the report of a recorded run, with what query_recording
// needs to ask more.
type recordResult struct {
	Success      bool          `json:"success"`
	RecordingID  string        `json:"recordingId"`
	SessionID    string        `json:"sessionId"`
	Report       *recordReport `json:"report"`
	ReconnectKey string        `json:"reconnectKey,omitempty"`
}

// recordReport is the recording's report with how it was made: the
// mechanism and its cost.
type recordReport struct {
	*recording.Report
	Runtime   string `json:"runtime,omitempty"`
	Runner    string `json:"runner,omitempty"`
	Mechanism string `json:"mechanism"`
	// ElapsedMs is the recorded run's wall time, interpreter start
	// included.
	ElapsedMs int64       `json:"elapsedMs"`
	Budget    *budgetNote `json:"budget,omitempty"`
}

// recordTimeout bounds a recorded run; defaultRecordMaxBytes is the
// report's size when the agent sets no maxBytes.
const (
	recordTimeout         = 5 * time.Minute
	defaultRecordMaxBytes = 4000
)

func (s *Server) addRecordTools() {
	addTool(s, "record",
		"Run a program or test to its end, recording your code's calls, returns and exceptions: a report and a recordingId.",
		s.record)
	addTool(s, "query_recording",
		"Query a recording: a function's calls (where, first), a local's history (values, setting lines), calls from one id to another.",
		s.queryRecording)
}

func (s *Server) record(ctx context.Context, a *recordArgs) (*recordResult, error) {
	cfg, target, err := s.recordConfig(a)
	if err != nil {
		return nil, err
	}
	sess, key, err := s.recordSession(ctx, a, target)
	if err != nil {
		return nil, err
	}
	if cfg.StdinFile, err = s.inputFile(sess, a.inputArgs); err != nil {
		s.sessions.Close(sess.ID)
		return nil, err
	}
	if cfg.Test != nil {
		cfg.Test.StdinFile = cfg.StdinFile
	}
	runCtx, cancel := context.WithTimeout(ctx, recordTimeout)
	defer cancel()
	rec, err := sess.Record(runCtx, cfg)
	if err == nil {
		var rep *recording.Report
		if rep, err = rec.Report(); err == nil {
			res := &recordResult{Success: true, RecordingID: rec.ID, SessionID: sess.ID, ReconnectKey: key, Report: &recordReport{Report: rep,
				Runtime: rec.Result.Runtime, Runner: rec.Result.Runner, Mechanism: rec.Result.Mechanism, ElapsedMs: rec.Elapsed.Milliseconds()}}
			res.fit(budgetOrDefault(a.MaxBytes, defaultRecordMaxBytes))
			return res, nil
		}
	}
	s.sessions.Close(sess.ID)
	return nil, err
}

// recordConfig checks record's arguments and makes the recorder's
// configuration; target is the program or test, for the session's name.
func (s *Server) recordConfig(a *recordArgs) (adapter.RecordConfig, string, error) {
	if (a.ScriptPath == "") == (a.Path == "") {
		return adapter.RecordConfig{}, "", userError("pass scriptPath for a program, or path (and name) for a test", "record needs one of scriptPath and path")
	}
	if a.MaxEvents < 0 {
		return adapter.RecordConfig{}, "", userError("maxEvents is a count: 0 or more", "negative argument")
	}
	cfg := adapter.RecordConfig{Args: a.Args, Env: a.Env, ExecutablePath: s.absExecutable(a.ExecutablePath),
		Lines: a.Lines, MaxEvents: int(a.MaxEvents), UseRepr: a.UseRepr}
	target := s.absPath(a.ScriptPath)
	if a.Path != "" {
		target = s.absPath(a.Path)
		cfg.Test = &adapter.TestRequest{Path: target, Name: a.Name, ExecutablePath: cfg.ExecutablePath}
	} else {
		cfg.Program = target
	}
	if a.Cwd != "" {
		cfg.Cwd = s.absPath(a.Cwd)
	}
	for _, inc := range a.Include {
		cfg.Include = append(cfg.Include, s.absPath(inc))
	}
	return cfg, target, nil
}

// recordSession is a new session for a recording, which stays open for
// query_recording (closing it deletes its recordings).
func (s *Server) recordSession(ctx context.Context, a *recordArgs, target string) (*session.Session, string, error) {
	if a.Language == "" {
		return nil, "", userError("pass language (python)", "language is required")
	}
	sess, err := s.sessions.Create(a.Language, session.Options{Name: "record " + filepath.Base(target), ExecutablePath: s.absExecutable(a.ExecutablePath), PathBase: s.cwd})
	if err != nil {
		return nil, "", err
	}
	key, err := s.own(ctx, sess.ID)
	if err != nil {
		s.sessions.Close(sess.ID)
		return nil, "", err
	}
	return sess, key, nil
}

// budgetOrDefault is budgetOf with a tool's own default.
func budgetOrDefault(maxBytes Int, def int) int {
	if maxBytes <= 0 {
		return def
	}
	return budgetOf(maxBytes)
}

// Report cuts, least useful first.
const (
	reportCallsKept     = 3
	reportSwallowedKept = 2
	reportMessageCut    = 300
	reportFrameCut      = 160
)

// fit cuts the report to maxBytes: fewer last calls and swallowed
// exceptions, a shorter test message and shorter frames, then none of the
// last calls and swallowed exceptions. It says what went.
func (res *recordResult) fit(maxBytes int) {
	if sizeOf(res) <= maxBytes {
		return
	}
	note := &budgetNote{MaxBytes: maxBytes}
	res.Report.Budget = note
	rep := res.Report.Report
	steps := []func(){
		func() {
			if n := len(rep.LastCalls) - reportCallsKept; n > 0 {
				rep.LastCalls = rep.LastCalls[n:]
				note.LeftOut = append(note.LeftOut, fmt.Sprintf("%d earlier last calls (query_recording between)", n))
			}
		},
		func() {
			if n := len(rep.Swallowed) - reportSwallowedKept; n > 0 {
				rep.Swallowed = rep.Swallowed[n:]
				note.LeftOut = append(note.LeftOut, fmt.Sprintf("%d swallowed exceptions", n))
			}
		},
		func() {
			if rep.Test != nil && len(rep.Test.Msg) > reportMessageCut {
				rep.Test.Msg = cutValue(rep.Test.Msg, reportMessageCut)
				note.LeftOut = append(note.LeftOut, "the rest of the test's message")
			}
			for i := range rep.Path {
				rep.Path[i].Call = cutValue(rep.Path[i].Call, reportFrameCut)
			}
		},
		func() {
			if len(rep.LastCalls) > 0 {
				rep.LastCalls = nil
				note.LeftOut = append(note.LeftOut, "the last calls (query_recording between)")
			}
		},
		func() {
			if len(rep.Swallowed) > 0 {
				rep.Swallowed = nil
				note.LeftOut = append(note.LeftOut, "the swallowed exceptions")
			}
		},
	}
	for _, step := range steps {
		step()
		if sizeOf(res) <= maxBytes {
			return
		}
	}
}

type queryRecordingArgs struct {
	RecordingID string `json:"recordingId" jsonschema:"record's recordingId"`
	Calls       string `json:"calls,omitempty" jsonschema:"a function: its calls"`
	Where       string `json:"where,omitempty" jsonschema:"with calls: comparisons on argument names and return, joined by &&"`
	First       bool   `json:"first,omitempty" jsonschema:"with calls: the first match only"`
	History     string `json:"history,omitempty" jsonschema:"a function named in record's lines: a local's history in it"`
	Local       string `json:"local,omitempty" jsonschema:"with history: the local"`
	From        Int    `json:"from,omitempty" jsonschema:"a call's id: the calls from it to to"`
	To          Int    `json:"to,omitempty" jsonschema:"with from: the last call's id"`
	Cursor      Int    `json:"cursor,omitempty" jsonschema:"the previous answer's nextCursor"`
	Limit       Int    `json:"limit,omitempty" jsonschema:"rows per page"`
}

type queryRecordingResult struct {
	Success    bool              `json:"success"`
	Tables     []recording.Table `json:"tables"`
	Count      int               `json:"count"`
	More       bool              `json:"more,omitempty"`
	NextCursor int               `json:"nextCursor,omitempty"`
}

func (s *Server) queryRecording(ctx context.Context, a *queryRecordingArgs) (*queryRecordingResult, error) {
	rec, _, err := s.recorded(ctx, a.RecordingID)
	if err != nil {
		return nil, err
	}
	if a.Cursor < 0 || a.Limit < 0 || a.From < 0 || a.To < 0 {
		return nil, userError("cursor, limit, from and to are counts: 0 or more", "negative argument")
	}
	page, err := s.answer(rec, a)
	if err != nil {
		return nil, err
	}
	return &queryRecordingResult{Success: true, Tables: page.Tables, Count: page.Count, More: page.More, NextCursor: page.NextCursor}, nil
}

// answer runs the query the arguments ask.
func (s *Server) answer(rec *session.Recorded, a *queryRecordingArgs) (*recording.Page, error) {
	if a.History != "" {
		if a.Calls != "" || a.Where != "" || a.From != 0 || a.To != 0 {
			return nil, userError("ask history alone, or calls (where, first, from, to) alone", "history does not combine with calls, where, from or to")
		}
		page, err := rec.History(recording.HistoryQuery{Fn: a.History, Name: a.Local, Cursor: int(a.Cursor), Limit: int(a.Limit)})
		return page, queryError(err, a.History)
	}
	if a.Calls == "" && a.From == 0 && a.To == 0 && a.Where == "" {
		return nil, userError("pass calls (a function), history (a function) and local, or from and to (call ids)", "nothing to query")
	}
	q := recording.CallsQuery{Fn: a.Calls, First: a.First, From: int(a.From), To: int(a.To), Cursor: int(a.Cursor), Limit: int(a.Limit)}
	if a.Where != "" {
		where, err := recording.ParsePredicate(a.Where)
		if err != nil {
			return nil, userError("compare an argument or return with a literal: n > 3 && name == 'x'", "%v", err)
		}
		q.Where = where
	}
	page, err := rec.Calls(q)
	return page, queryError(err, a.Calls)
}

// queryError gives a query's failure its hint.
func queryError(err error, fn string) error {
	switch {
	case errors.Is(err, recording.ErrNoLines):
		return userError(fmt.Sprintf("record again with lines: [%q]", fn), "%v", err)
	case errors.Is(err, recording.ErrUnknownFunction):
		return userError("name a function the recording has (module.function, a::b::function, or its last part)", "%v", err)
	}
	return err
}

// recorded finds a recording and the session that made it. A recording is
// its session's: another client is refused it as it is the session
// (checkOwner), with the same words.
func (s *Server) recorded(ctx context.Context, id string) (*session.Recorded, *session.Session, error) {
	if id == "" {
		return nil, nil, userError("pass the recordingId that record returned", "recordingId is required")
	}
	for _, sess := range s.sessions.List() {
		if rec, ok := sess.Recorded(id); ok {
			if err := s.checkOwner(callerOf(ctx), sess.ID, false); err != nil {
				return nil, nil, userError(foreignHint, "recording %s belongs to another client; only the client that created its debug session can use it", id)
			}
			return rec, sess, nil
		}
	}
	return nil, nil, userError("record makes recordings; closing its session deletes them", "no recording %q", id)
}
