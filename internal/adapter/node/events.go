package node

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// script is one script the inspector parsed.
type script struct {
	id  string
	url string
	// path is the file it came from, empty for Node's internals and
	// evaluated snippets.
	path string
	// sm is its source map, when it has one that could be read.
	sm *sourceMap
	// source is its text once read (sourceRead), for function breakpoints.
	source     string
	sourceRead bool
}

// internal reports whether the script is Node's own.
func (sc *script) internal() bool { return strings.HasPrefix(sc.url, "node:") }

// eventLoop applies the inspector's events until the connection ends, then
// reports the program's end (unless the client is disconnecting).
func (s *server) eventLoop() {
	defer close(s.eventsDone)
	for {
		ev, err := s.cdp.Next(context.Background())
		if err != nil {
			break
		}
		s.handleEvent(ev)
	}
	s.programEnded()
}

func (s *server) handleEvent(ev cdp.Event) {
	switch ev.Method {
	case "Debugger.scriptParsed":
		var p cdp.ScriptParsed
		if json.Unmarshal(ev.Params, &p) == nil {
			s.scriptParsed(p)
		}
	case "Debugger.breakpointResolved":
		var p cdp.BreakpointResolved
		if json.Unmarshal(ev.Params, &p) == nil {
			s.breakpointResolved(p.BreakpointID, p.Location)
		}
	case "Debugger.paused":
		var p cdp.Paused
		if err := json.Unmarshal(ev.Params, &p); err != nil {
			s.log.Warn("node adapter: undecodable pause", "err", err)
			return
		}
		s.paused(p)
	case "Debugger.resumed":
		s.mu.Lock()
		s.clearPauseLocked()
		s.mu.Unlock()
	case "Runtime.executionContextCreated":
		var p cdp.ExecutionContextCreated
		if json.Unmarshal(ev.Params, &p) == nil && p.Context.AuxData.IsDefault {
			s.mu.Lock()
			if s.defaultContext == 0 {
				s.defaultContext = p.Context.ID
			}
			s.mu.Unlock()
		}
	case "Runtime.executionContextDestroyed":
		var p cdp.ExecutionContextDestroyed
		if json.Unmarshal(ev.Params, &p) != nil {
			return
		}
		s.mu.Lock()
		main := p.ExecutionContextID == s.defaultContext
		s.mu.Unlock()
		if main {
			// The script has finished; node holds the process until we
			// let go of it, and only then exits with the real code
			// (docs/adapter-quirks.md, node-11).
			s.cdp.Close()
		}
	case "Runtime.consoleAPICalled":
		// A launched program's console output comes on its pipes; an
		// attached one's only here.
		if s.attached {
			var p cdp.ConsoleAPICalled
			if json.Unmarshal(ev.Params, &p) == nil {
				s.consoleOutput(p)
			}
		}
	case "NodeWorker.attachedToWorker":
		s.workerNoted(ev.Params)
	}
}

// scriptParsed records a script, reads its source map, and binds the
// breakpoints waiting for the sources it was compiled from.
func (s *server) scriptParsed(p cdp.ScriptParsed) {
	sc := &script{id: p.ScriptID, url: p.URL}
	if path, ok := filePath(s.os, p.URL); ok {
		sc.path = path
	} else if s.os.IsAbs(p.URL) {
		sc.path = p.URL
	}
	if sc.path != "" && p.SourceMapURL != "" {
		sm, err := loadSourceMap(s.os, sc.path, p.SourceMapURL)
		if err != nil {
			s.log.Debug("node adapter: source map", "script", sc.path, "err", err)
		} else {
			sc.sm = sm
		}
	}
	if sc.path != "" {
		s.log.Debug("node adapter: script parsed", "path", sc.path, "map", p.SourceMapURL, "mapped", sc.sm != nil)
	}
	s.mu.Lock()
	s.scripts[sc.id] = sc
	s.mu.Unlock()
	if sc.sm != nil {
		s.bindMapped(sc)
	}
	if sc.path != "" && !sc.internal() {
		s.bindDeclarationsIn(sc)
	}
}

// programEnded reports the end of the program: once node has exited and
// its pipes are drained (so that no output line comes after the end), its
// exit code and then terminated.
func (s *server) programEnded() {
	if s.closing.Load() {
		return
	}
	if s.proc != nil {
		select {
		case <-s.proc.Done():
		case <-time.After(endWait):
			s.proc.Kill()
		}
		s.outputs.Wait()
		if code := s.proc.ExitCode(); code >= 0 {
			s.Event("exited", godap.ExitedEventBody{ExitCode: code})
		}
	}
	if s.closing.Load() {
		return
	}
	s.Event("terminated", nil)
}

// consoleOutput turns a console call of an attached program into output.
// docs/adapter-quirks.md: node-10.
func (s *server) consoleOutput(p cdp.ConsoleAPICalled) {
	parts := make([]string, 0, len(p.Args))
	for _, a := range p.Args {
		if a.Type == "string" {
			var str string
			_ = json.Unmarshal(a.Value, &str)
			parts = append(parts, str)
			continue
		}
		v, _, _ := formatValue(&a)
		parts = append(parts, v)
	}
	category := "stdout"
	if p.Type == "error" || p.Type == "warning" || p.Type == "trace" || p.Type == "assert" {
		category = "stderr"
	}
	s.Output(category, strings.Join(parts, " ")+"\n")
}

// workerNoted tells the client that a worker thread started: its code runs
// on its own isolate, which this session does not debug.
func (s *server) workerNoted(params json.RawMessage) {
	var p struct {
		WorkerInfo struct {
			Title string `json:"title"`
			URL   string `json:"url"`
		} `json:"workerInfo"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	s.Output("console", "[mcp-debugger] a worker thread started ("+p.WorkerInfo.URL+"); breakpoints in worker code do not stop: only the main thread is debugged\n")
}
