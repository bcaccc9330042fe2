package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// BenchmarkNodeRawCDP is the floor for JavaScript: the benchmark session's
// operations done in raw CDP on the same node and program (our CDP client,
// with its TCP_QUICKACK re-arming), against the whole server over MCP.
func BenchmarkNodeRawCDP(b *testing.B) {
	testenv.RequireAdapter(b, "javascript")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	srv := startServer(ctx, b)
	defer srv.close()
	tg := target{"javascript", abs(b, "testdata/node/loop.js"), abs(b, "testdata/node/loop.js"), 10, "total + i"}
	viaMCP, viaCDP := map[string][]time.Duration{}, map[string][]time.Duration{}
	if _, err := rawCDPSession(ctx, tg); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		m, err := srv.session(ctx, tg)
		if err != nil {
			b.Fatal(err)
		}
		r, err := rawCDPSession(ctx, tg)
		if err != nil {
			b.Fatal(err)
		}
		for _, op := range ops {
			viaMCP[op] = append(viaMCP[op], m[op])
			viaCDP[op] = append(viaCDP[op], r[op])
		}
	}
	b.StopTimer()
	var table strings.Builder
	fmt.Fprintf(&table, "\njavascript vs raw CDP\n%-11s %8s %8s %6s  (medians of %d sessions)\n", "operation", "mcp ms", "cdp ms", "ratio", len(viaMCP["close"]))
	var mcpTotal, cdpTotal float64
	for _, op := range ops {
		mm, rm := ms(median(viaMCP[op])), ms(median(viaCDP[op]))
		mcpTotal, cdpTotal = mcpTotal+mm, cdpTotal+rm
		fmt.Fprintf(&table, "%-11s %8.2f %8.2f %6.2f\n", op, mm, rm, mm/rm)
		b.ReportMetric(mm, op+"-mcp-ms")
		b.ReportMetric(rm, op+"-cdp-ms")
	}
	fmt.Fprintf(&table, "%-11s %8.2f %8.2f %6.2f\n", "session", mcpTotal, cdpTotal, mcpTotal/cdpTotal)
	b.Log(table.String())
}

// rawCDPSession does each operation with the fewest CDP messages: the
// stop's frames come with the pause, locals are one getProperties per
// scope (pipelined), steps wait for the next pause.
func rawCDPSession(ctx context.Context, tg target) (map[string]time.Duration, error) {
	t := map[string]time.Duration{}
	start := time.Now()
	cmd := exec.Command("node", "--inspect-brk=127.0.0.1:0", tg.scriptPath)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	p, err := proc.Start(cmd)
	if err != nil {
		return nil, err
	}
	defer p.Kill()
	sc := bufio.NewScanner(stderr)
	url := ""
	for url == "" && sc.Scan() {
		if _, u, ok := strings.Cut(sc.Text(), "Debugger listening on "); ok {
			url = u
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	c, err := cdp.Dial(ctx, url)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	for _, m := range []string{"Runtime.enable", "Debugger.enable"} {
		if _, err := c.Send(m, nil); err != nil {
			return nil, err
		}
	}
	rx := "^file://" + strings.ReplaceAll(tg.file, ".", "\\.") + "$"
	if err := c.Call(ctx, "Debugger.setBreakpointByUrl", map[string]any{"lineNumber": tg.line - 1, "urlRegex": rx}, nil); err != nil {
		return nil, err
	}
	if _, err := c.Send("Runtime.runIfWaitingForDebugger", nil); err != nil {
		return nil, err
	}
	nextPause := func() (cdp.Paused, error) {
		for {
			ev, err := c.Next(ctx)
			if err != nil {
				return cdp.Paused{}, err
			}
			if ev.Method != "Debugger.paused" {
				continue
			}
			var pz cdp.Paused
			if err := json.Unmarshal(ev.Params, &pz); err != nil {
				return pz, err
			}
			if pz.Reason == "Break on start" {
				if _, err := c.Send("Debugger.resume", nil); err != nil {
					return pz, err
				}
				continue
			}
			return pz, nil
		}
	}
	pz, err := nextPause()
	if err != nil {
		return nil, err
	}
	t["first_stop"] = time.Since(start)

	locals := func(pz cdp.Paused) error {
		var pending []*cdp.Pending
		for _, s := range pz.CallFrames[0].ScopeChain {
			if s.Type == "global" {
				continue
			}
			q, err := c.Send("Runtime.getProperties", map[string]any{"objectId": s.Object.ObjectID, "ownProperties": true, "generatePreview": true})
			if err != nil {
				return err
			}
			pending = append(pending, q)
		}
		for _, q := range pending {
			if err := q.Wait(ctx, nil); err != nil {
				return err
			}
		}
		return nil
	}
	begin := time.Now()
	if err := locals(pz); err != nil {
		return nil, err
	}
	t["locals"] = time.Since(begin)
	for _, op := range []struct{ name, method string }{{"step_over", "Debugger.stepOver"}, {"continue", "Debugger.resume"}} {
		begin = time.Now()
		if err := c.Call(ctx, op.method, nil, nil); err != nil {
			return nil, err
		}
		if pz, err = nextPause(); err != nil {
			return nil, err
		}
		t[op.name] = time.Since(begin)
	}
	begin = time.Now()
	if err := c.Call(ctx, "Debugger.evaluateOnCallFrame", map[string]any{"callFrameId": pz.CallFrames[0].CallFrameID, "expression": tg.expression, "generatePreview": true}, nil); err != nil {
		return nil, err
	}
	t["evaluate"] = time.Since(begin)
	begin = time.Now()
	c.Close()
	p.Kill()
	t["close"] = time.Since(begin)
	return t, nil
}
