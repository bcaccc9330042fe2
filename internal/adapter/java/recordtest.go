package java

import (
	"context"
	"io"
	"maps"
	"regexp"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// testLaunch runs a JUnit test class (or one test) as debug_test does:
// the console launcher from the project's test classes, classes and
// jars.
func (a *Adapter) testLaunch(ctx context.Context, javaPath string, cfg adapter.RecordConfig) (*launchConfig, func(), error) {
	req := *cfg.Test
	req.ExecutablePath = javaPath
	plan, err := a.TestPlan(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	args := map[string]any{"program": plan.Program, "args": plan.Args, "javaPath": javaPath, "cwd": plan.Cwd}
	env := maps.Clone(plan.Env)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, cfg.Env)
	if len(env) > 0 {
		args["env"] = env
	}
	maps.Copy(args, plan.Extra)
	lc, err := parseLaunch(args)
	if err != nil {
		return nil, nil, err
	}
	return lc, func() {}, nil
}

// teeWriter writes to w (when set) and to copy.
func teeWriter(w io.Writer, copy io.Writer) io.Writer {
	if w == nil {
		return copy
	}
	return io.MultiWriter(w, copy)
}

// junitTestLine is a test or container of the console launcher's tree:
// "│     └─ taxesTwoPrices() ✘ two prices with tax ==> expected: …".
var junitTestLine = regexp.MustCompile(`^[\s│├└─]*(.+?) ([✔✘↷])(?: (.*))?$`)

// writeTestEvents writes a test event for each test method the launcher's
// tree reports, named Class.method after the class it is listed under.
func writeTestEvents(log *eventLog, output, file string) {
	container := ""
	for _, line := range strings.Split(output, "\n") {
		m := junitTestLine.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		name, mark, msg := m[1], m[2], strings.TrimSpace(m[3])
		method, isTest := strings.CutSuffix(name, "()")
		if !isTest {
			container = name
			continue
		}
		e := recEvent{K: "test", File: file, Outcome: testOutcome(mark)}
		e.Name = method
		if container != "" {
			e.Name = container + "." + method
		}
		if msg != "" {
			e.Msg = &msg
		}
		log.always(e)
	}
}

// testOutcome is the format's outcome for a launcher's mark.
func testOutcome(mark string) string {
	switch mark {
	case "✔":
		return "passed"
	case "✘":
		return "failed"
	}
	return "skipped"
}
