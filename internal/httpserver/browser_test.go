package httpserver_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// requireChromium finds Debian's chromium, skipping the test without it
// (failing under CI=true, where the README's test command installs it).
func requireChromium(t *testing.T) string {
	t.Helper()
	return testenv.RequireTool(t, "scripts/install-adapters.sh browser (Debian: apt-get install chromium)", "chromium", "chromium-browser", "google-chrome")
}

var devtoolsURL = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// startBrowser starts headless chromium and returns its DevTools address
// (host:port). The browser and everything it started are killed at the
// end of the test.
func startBrowser(t *testing.T, chromium string) string {
	t.Helper()
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--window-size=1280,900",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-port=0", "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	t.Cleanup(p.Kill)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := devtoolsURL.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		// Keep draining so that chromium never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case ws := <-found:
		u, err := url.Parse(ws)
		if err != nil {
			t.Fatal(err)
		}
		return u.Host
	case <-p.Done():
		t.Fatal("chromium exited before printing its DevTools address")
	case <-time.After(30 * time.Second):
		t.Fatal("chromium printed no DevTools address within 30 s")
	}
	return ""
}

// page is one browser tab driven over CDP.
type page struct {
	t *testing.T
	c *cdp.Client
}

// openPage opens a new tab, connects to it and loads target, following
// redirects, until the page's load event.
func openPage(t *testing.T, devtools, target string) *page {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, "http://"+devtools+"/json/new?about:blank", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	defer resp.Body.Close()
	var tab struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tab); err != nil || tab.WebSocketDebuggerURL == "" {
		t.Fatalf("opening a tab: %d %v", resp.StatusCode, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := cdp.Dial(ctx, tab.WebSocketDebuggerURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Call(ctx, "Page.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, "Page.navigate", map[string]any{"url": target}, nil); err != nil {
		t.Fatal(err)
	}
	for {
		ev, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for the page to load: %v", err)
		}
		if ev.Method == "Page.loadEventFired" {
			return &page{t: t, c: c}
		}
	}
}

// waitFor waits until a JavaScript condition holds in the page, on the
// page's own DOM mutations (no polling), and returns how long it took.
func (p *page) waitFor(cond string, within time.Duration) time.Duration {
	p.t.Helper()
	expr := `new Promise((resolve) => {
		const ok = () => { try { return (` + cond + `); } catch (e) { return false; } };
		if (ok()) { resolve(true); return; }
		const obs = new MutationObserver(() => { if (ok()) { obs.disconnect(); resolve(true); } });
		obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
	})`
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	start := time.Now()
	var res struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	err := p.c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &res)
	if err != nil || res.Result.Value != true {
		p.t.Fatalf("the page never showed %s: %v %v\npage text:\n%s", cond, err, res.ExceptionDetails, p.text())
	}
	return time.Since(start)
}

// text is the page's visible text, for failure messages and checks.
func (p *page) text() string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var res struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	_ = p.c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.body.innerText", "returnByValue": true}, &res)
	return res.Result.Value
}

// screenshot saves a PNG of the page where test artifacts are kept.
func (p *page) screenshot(name string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res struct {
		Data string `json:"data"`
	}
	if err := p.c.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &res); err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	png, err := base64.StdEncoding.DecodeString(res.Data)
	if err != nil || len(png) < 1000 {
		p.t.Fatalf("screenshot: %d bytes, %v", len(png), err)
	}
	dir := os.Getenv("MCP_DEBUGGER_ARTIFACTS")
	if dir == "" {
		dir = p.t.ArtifactDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
	return path
}

// The live page, in a real browser, shows a session stopping at a
// breakpoint and follows the agent's step; it needs the token like every
// other client.
func TestLivePageInBrowser(t *testing.T) {
	chromium := requireChromium(t)
	const token = "page-token-0123456789"
	l := startLive(t, httpserver.Config{Token: token})
	a := l.agent(token)
	id := a.pausedMock(t)
	a.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "total"})

	devtools := startBrowser(t, chromium)
	p := openPage(t, devtools, l.url+"/?token="+token)
	where := `document.getElementById("where").dataset`
	p.waitFor(where+`.state === "paused" && `+where+`.line === "12"`, 30*time.Second)
	text := p.text()
	for _, want := range []string{
		"stopped on breakpoint",     // why it stopped
		"▶ 12  let w = weigh(i, 3)", // the current line, marked, in its source window
		"total",                     // a local of the top frame
		"basic.mock:12",             // the breakpoint
		"start_debugging",           // the agent's tool calls
		"evaluate_expression",
		"read-only", // no control buttons without --allow-human-control
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q:\n%s", want, text)
		}
	}

	if snap := a.ok("step_over", map[string]any{"sessionId": id}); snap.line() != 13 {
		t.Fatalf("step_over: %v", snap)
	}
	delay := p.waitFor(where+`.line === "13"`, 10*time.Second)
	t.Logf("the page showed the step %v after its result reached the agent", delay)
	if !strings.Contains(p.text(), "step_over") {
		t.Errorf("the timeline does not show the step:\n%s", p.text())
	}
	p.screenshot("live-page.png")
}
