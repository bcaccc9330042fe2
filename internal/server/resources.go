package server

import (
	"context"
	"fmt"
	"strings"

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
}

func (s *Server) readOutput(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := strings.CutPrefix(uri, outputURIPrefix)
	id, ok2 := strings.CutSuffix(id, "/output")
	if !ok || !ok2 || id == "" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	sess, err := s.sessions.Get(id)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	client := ""
	if req.Session != nil {
		client = req.Session.ID()
	}
	// The same rule as get_output: another client's output is not ours to
	// read. Not "not found": list_debug_sessions shows the session exists.
	if err := s.checkOwner(client, id, false); err != nil {
		return nil, fmt.Errorf("read %s: %w (%s)", uri, err, foreignHint)
	}
	page := sess.Output().Since(0, 0)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: outputText(page.Entries)}}}, nil
}
