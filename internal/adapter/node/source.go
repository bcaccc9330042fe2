package node

import (
	"context"
	"fmt"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// source answers the DAP source request from the inspector's copy of the
// script: a program attached to elsewhere (a container) runs files the
// agent has no copy of, and the inspector holds their text. The script is
// found by the path (or, for Node's own modules, the URL) its frames
// report; frames carry no sourceReference. docs/adapter-quirks.md: node-21.
func (s *server) source(ctx context.Context, req *request) (any, error) {
	var args godap.SourceArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if args.Source == nil || args.Source.Path == "" {
		return nil, fmt.Errorf("source needs source.path (this adapter gives no sourceReference)")
	}
	sc := s.scriptAt(args.Source.Path)
	if sc == nil {
		return nil, fmt.Errorf("no script loaded from %s", args.Source.Path)
	}
	ctx, cancel := context.WithTimeout(ctx, cdp.DefaultTimeout)
	defer cancel()
	text, err := s.scriptSource(ctx, sc)
	if err != nil {
		return nil, fmt.Errorf("the inspector's source of %s: %w", args.Source.Path, err)
	}
	return godap.SourceResponseBody{Content: text}, nil
}

// scriptAt is the loaded script with the given path or URL, nil if none.
func (s *server) scriptAt(path string) *script {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sc := range s.scripts {
		if sc.url == path || (sc.path != "" && s.os.SamePath(sc.path, path)) {
			return sc
		}
	}
	return nil
}
