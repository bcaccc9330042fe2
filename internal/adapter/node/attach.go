package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// defaultInspectorPort is where openInspector opens a process's inspector.
const defaultInspectorPort = 9229

// attachArgs are the attach request's arguments.
type attachArgs struct {
	Host        string `json:"host"`
	Port        int    `json:"port"`
	ProcessID   int    `json:"processId"`
	StopOnEntry bool   `json:"stopOnEntry"`
	JustMyCode  *bool  `json:"justMyCode"`
}

// attach connects to a running node: at host:port (its --inspect address),
// or to a local process by id, whose inspector openInspector opens.
func (s *server) attach(req *request) (any, error) {
	if s.started {
		return nil, errors.New("already attached")
	}
	var args attachArgs
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	s.opts = runOptions{stopOnEntry: args.StopOnEntry, justMyCode: args.JustMyCode == nil || *args.JustMyCode}
	if args.Host == "" {
		args.Host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if args.ProcessID != 0 {
		if err := openInspector(ctx, args.ProcessID); err != nil {
			return nil, fmt.Errorf("open the inspector of process %d: %w", args.ProcessID, err)
		}
		if args.Port == 0 {
			args.Port = defaultInspectorPort
		}
	}
	if args.Port == 0 {
		return nil, errors.New("attach needs the inspector's port (node --inspect=HOST:PORT) or a processId")
	}
	host, err := inspectorHost(ctx, args.Host)
	if err != nil {
		return nil, err
	}
	url, err := discoverTarget(ctx, net.JoinHostPort(host, strconv.Itoa(args.Port)), args.ProcessID != 0)
	if err != nil {
		return nil, err
	}
	c, err := cdp.Dial(ctx, url)
	if err != nil {
		return nil, err
	}
	s.attached = true
	if err := s.connectInspector(ctx, c); err != nil {
		c.Close()
		return nil, err
	}
	if args.ProcessID != 0 {
		// The DAP process event tells a client which process to watch.
		s.Event("process", map[string]any{"name": fmt.Sprintf("pid %d", args.ProcessID), "systemProcessId": args.ProcessID, "isLocalProcess": true, "startMethod": "attach"})
	}
	return nil, nil
}

// inspectorHost is host as Node's inspector accepts it in the HTTP Host
// header and the WebSocket handshake: an IP address or "localhost". Any
// other name, a compose service's or another machine's, is refused (a
// guard against DNS rebinding; node 20 answers "WebSockets request was
// expected"), so it is resolved here, IPv4 first.
// docs/adapter-quirks.md: node-20.
func inspectorHost(ctx context.Context, host string) (string, error) {
	if host == "localhost" || net.ParseIP(host) != nil {
		return host, nil
	}
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return "", fmt.Errorf("resolve the inspector's host: %w", err)
	}
	if len(addrs) == 0 {
		return "", fmt.Errorf("resolve the inspector's host: %s has no address", host)
	}
	for _, a := range addrs {
		if a.IP.To4() != nil {
			return a.IP.String(), nil
		}
	}
	return addrs[0].String(), nil
}

// discoverTarget reads the inspector's /json/list and returns the first
// target's WebSocket URL. Once opened, the inspector takes a moment to
// listen, so refusals are retried until ctx ends.
func discoverTarget(ctx context.Context, addr string, retry bool) (string, error) {
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/json/list", nil)
		if err != nil {
			return "", fmt.Errorf("inspector address %s: %w", addr, err)
		}
		resp, err := client.Do(req)
		if err == nil {
			var targets []cdp.TargetInfo
			err = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			if err != nil {
				return "", fmt.Errorf("read the inspector's target list at %s: %w", addr, err)
			}
			for _, t := range targets {
				if t.WebSocketDebuggerURL != "" {
					return t.WebSocketDebuggerURL, nil
				}
			}
			return "", fmt.Errorf("the inspector at %s lists no target (is another debugger attached?)", addr)
		}
		if !retry {
			return "", fmt.Errorf("no node inspector at %s (start node with --inspect=%s): %w", addr, addr, err)
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no node inspector at %s after opening it: %w", addr, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
