package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const outputURIPrefix = "debug://sessions/"

// addOutputResource exposes each session's output as
// debug://sessions/{id}/output, for clients that read resources.
func (s *Server) addOutputResource() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "session-output",
		Title:       "Debuggee output",
		Description: "Everything the session's program printed (stdout, stderr and debugger console), oldest first, as far as the buffer keeps it.",
		MIMEType:    "text/plain",
		URITemplate: outputURIPrefix + "{id}/output",
	}, s.readOutput)
	s.mcp.AddReceivingMiddleware(s.sessionResources)
}

// sessionResources lists the output resource of every debug session the
// calling client may read (resources/list: the SDK lists only resources
// registered ahead, and a session's lives as long as the session), and
// keeps the text of an output read before the program printed. Both
// answers are the caller's own, marked so for caches.
func (s *Server) sessionResources(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.ListResourcesResult:
			// Each client is answered its own sessions: not an answer
			// to share with another (2026-07-28's cache hints).
			r.CacheScope = "private"
			if params, ok := req.GetParams().(*mcp.ListResourcesParams); ok && params != nil && params.Cursor != "" {
				// The sessions were on the first page.
				return r, nil
			}
			r.Resources = append(r.Resources, s.outputResources(callerOfRequest(req))...)
		case *mcp.ReadResourceResult:
			r.CacheScope = "private"
			return &textKeptReadResult{r}, nil
		}
		return res, nil
	}
}

// outputResources are the output resources of the open debug sessions the
// client may read (the rule of get_output), oldest session first.
func (s *Server) outputResources(c caller) []*mcp.Resource {
	var out []*mcp.Resource
	for _, sess := range s.sessions.List() {
		if !s.listed(c, sess.ID) || s.checkOwner(c, sess.ID, false) != nil {
			continue
		}
		name := sess.ID
		if sess.Name() != "" {
			name = sess.Name()
		}
		out = append(out, &mcp.Resource{
			URI:         outputURIPrefix + sess.ID + "/output",
			Name:        "output-" + sess.ID,
			Title:       "Output of " + name + " (" + sess.Language.ID + ")",
			Description: "What the session's program printed so far.",
			MIMEType:    "text/plain",
		})
	}
	return out
}

// textKeptReadResult is a resources/read answer whose text contents keep
// their "text" key when empty: the SDK leaves an empty text out, and a
// content with neither text nor blob is invalid to clients that check (the
// TypeScript SDK throws), which is what reading a session's output before
// the program printed used to answer.
type textKeptReadResult struct{ *mcp.ReadResourceResult }

// MarshalJSON writes the result as the SDK would, with "text": "" in each
// content that has no blob and no text.
func (r *textKeptReadResult) MarshalJSON() ([]byte, error) {
	raw, err := json.Marshal(r.ReadResourceResult)
	if err != nil {
		return nil, fmt.Errorf("encoding a resources/read answer: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("re-reading a resources/read answer: %w", err)
	}
	var contents []map[string]json.RawMessage
	if err := json.Unmarshal(fields["contents"], &contents); err != nil {
		return nil, fmt.Errorf("re-reading a resources/read answer's contents: %w", err)
	}
	for _, c := range contents {
		_, hasText := c["text"]
		_, hasBlob := c["blob"]
		if !hasText && !hasBlob {
			c["text"] = json.RawMessage(`""`)
		}
	}
	if fields["contents"], err = json.Marshal(contents); err != nil {
		return nil, fmt.Errorf("encoding a resources/read answer's contents: %w", err)
	}
	return json.Marshal(fields)
}

func (s *Server) readOutput(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	sess, err := s.outputSession(uri, callerOfRequest(req))
	if err != nil {
		return nil, err
	}
	page := sess.Output().Since(0, 0)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: outputText(page.Entries)}}}, nil
}

// outputSession is the debug session whose output uri names, if the client
// may read it: the same rule as get_output, another client's output is not
// ours to read (and not "not found": list_debug_sessions shows it exists).
func (s *Server) outputSession(uri string, c caller) (*session.Session, error) {
	id, ok := strings.CutPrefix(uri, outputURIPrefix)
	id, ok2 := strings.CutSuffix(id, "/output")
	if !ok || !ok2 || id == "" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	sess, err := s.sessions.Get(id)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err := s.checkOwner(c, id, false); err != nil {
		return nil, fmt.Errorf("%s: %w (%s)", uri, err, foreignHint)
	}
	return sess, nil
}

// outputWatches are the watchers of subscribed output resources, by URI.
type outputWatches struct {
	mu sync.Mutex
	// ctx ends every watch, at the server's Close.
	ctx     context.Context
	cancel  context.CancelFunc
	byURI   map[string]*outputWatch
	running sync.WaitGroup
}

// outputWatch sends notifications/resources/updated for one session's
// output while any client is subscribed to it. Each subscriber is counted
// once, by its MCP session, so that a client's unsubscribe ends its own
// subscription and never another client's.
type outputWatch struct {
	subscribers map[*mcp.ServerSession]bool
	stop        context.CancelFunc
}

// updateInterval spaces the notifications of a program that prints without
// pause: a client re-reads the resource on each, so one per burst is enough.
const updateInterval = 50 * time.Millisecond

// subscribe starts watching a session's output for a client (resources/subscribe).
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	sess, err := s.outputSession(uri, callerOfRequest(req))
	if err != nil {
		return err
	}
	w := &s.watches
	w.mu.Lock()
	defer w.mu.Unlock()
	if watch := w.byURI[uri]; watch != nil {
		watch.subscribers[req.Session] = true
		return nil
	}
	ctx, stop := context.WithCancel(w.ctx)
	w.byURI[uri] = &outputWatch{subscribers: map[*mcp.ServerSession]bool{req.Session: true}, stop: stop}
	w.running.Add(1)
	go func() {
		defer w.running.Done()
		s.notifyOutput(ctx, uri, sess.Output())
	}()
	return nil
}

// notifyOutput tells subscribers each time output arrives, until ctx ends.
func (s *Server) notifyOutput(ctx context.Context, uri string, buf *session.OutputBuffer) {
	cursor := buf.Cursor()
	for buf.Wait(ctx, cursor) {
		cursor = buf.Cursor()
		if err := s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
			s.log.Debug("resources/updated", "uri", uri, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(updateInterval):
		}
	}
}

// unsubscribe ends the calling client's own subscription
// (resources/unsubscribe), if it has one; the watch stops with the last.
func (s *Server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	w := &s.watches
	w.mu.Lock()
	defer w.mu.Unlock()
	if watch := w.byURI[req.Params.URI]; watch != nil && watch.subscribers[req.Session] {
		if delete(watch.subscribers, req.Session); len(watch.subscribers) == 0 {
			watch.stop()
			delete(w.byURI, req.Params.URI)
		}
	}
	return nil
}

// stopOutputWatch ends the watch of a closed debug session's output.
func (s *Server) stopOutputWatch(id string) {
	w := &s.watches
	w.mu.Lock()
	defer w.mu.Unlock()
	uri := outputURIPrefix + id + "/output"
	if watch := w.byURI[uri]; watch != nil {
		watch.stop()
		delete(w.byURI, uri)
	}
}

// stopOutputWatches ends every watch and waits for them, at the server's Close.
func (s *Server) stopOutputWatches() {
	s.watches.cancel()
	s.watches.running.Wait()
}
