package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests of a Node program in its project: the project's Node
// (a version manager's, by .nvmrc), its tsx from the npm registry, its
// "type": "module", and its package.json test script.

// TestNodeProjectTypeModule: a .js file is an ES module when its
// package.json says "type": "module"; breakpoints in the module it imports
// stop.
func TestNodeProjectTypeModule(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	snap := h.stopAt(id, nodeProgram(t, "module/weigh.js"), 3, nodeProgram(t, "module/main.js"))
	if l := snap.vars("locals"); l["item"] != "1" || l["factor"] != "10" {
		t.Fatalf("locals: %v", l)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("end: %v", end)
	}
	// typeof require is "undefined" only in an ES module.
	h.waitForOutput(id, "module w10,w20,w30 undefined")
}

// TestNodeProjectDebugTestRunsThePackageTestScript: a test file of a
// project whose package.json scripts.test is `NODE_ENV=test node --require
// ./setup.cjs --test ...` runs with that preload and environment, so the
// test fails at its assertion (not at a ReferenceError for the rate the
// preload sets), and the answer says where the options came from.
func TestNodeProjectDebugTestRunsThePackageTestScript(t *testing.T) {
	project := nodeProgram(t, "project")
	file := filepath.Join(project, "test", "rate.test.js")
	for _, path := range []string{file, project} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			h := newHarness(t)
			testenv.RequireAdapter(t, "javascript")
			res := h.ok("debug_test", map[string]any{"language": "javascript", "path": path})
			test := res.obj("test")
			if test["failed"] != true || test.str("name") != "scaled by the project rate" {
				t.Fatalf("debug_test names the failing test: %v", res)
			}
			if m := test.str("message"); !strings.Contains(m, "scaled price in test") || !strings.Contains(m, "30 !== 40") {
				t.Fatalf("the assertion's message: %q", m)
			}
			wantStop(t, res, "exception", 8)
			if l := res.vars("locals"); l["mode"] != `"test"` || l["scaled"] != "30" {
				t.Errorf("locals: %v", l)
			}
			rt := test.str("runtime")
			if !strings.Contains(rt, "node: ") || !strings.Contains(rt, "scripts.test") || !strings.Contains(rt, ": --require ./setup.cjs") || strings.Contains(rt, ": --test-reporter") {
				t.Errorf("test.runtime should name the node and the options taken from the script: %q", rt)
			}
		})
	}
}

// fakeNode writes, at path, a node that runs the real one with
// MCP_TEST_NODE set to mark, so the program can say which ran it.
func fakeNode(t *testing.T, path, mark string) {
	t.Helper()
	real := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nMCP_TEST_NODE=" + mark + " exec " + real + ` "$@"` + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestNodeProjectNvmrcChoosesTheVersionManagersNode: with nvm's versions
// at NVM_DIR, a project's .nvmrc picks the newest installed version it
// matches over PATH's node; a version nvm lacks runs PATH's node and says
// so; an explicit runtimeExecutable wins over both.
func TestNodeProjectNvmrcChoosesTheVersionManagersNode(t *testing.T) {
	nvm := t.TempDir()
	t.Setenv("NVM_DIR", nvm)
	t.Setenv("FNM_DIR", t.TempDir())
	t.Setenv("VOLTA_HOME", t.TempDir())
	for _, v := range []string{"v20.0.0", "v22.1.0", "v22.99.0"} {
		fakeNode(t, filepath.Join(nvm, "versions", "node", v, "bin", "node"), "nvm-"+v)
	}
	pathNode := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	project := t.TempDir()
	main := filepath.Join(project, "main.js")
	if err := os.WriteFile(main, []byte("console.log(`ran by ${process.env.MCP_TEST_NODE}`);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, nvmrc string
		launch      map[string]any
		runtime     []string
		output      string
	}{
		{"pinned", "22\n", nil, []string{"node: " + filepath.Join(nvm, "versions/node/v22.99.0/bin/node") + " (", ".nvmrc 22: nvm's v22.99.0"}, "ran by nvm-v22.99.0"},
		{"not installed", "lts/hydrogen\n", nil, []string{"node: " + pathNode + " (PATH, v", ".nvmrc asks for lts/hydrogen, which no version manager here has installed"}, "ran by undefined"},
		{"explicit", "22\n", map[string]any{"runtimeExecutable": pathNode}, []string{"node: " + pathNode + " (runtimeExecutable)"}, "ran by undefined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(project, ".nvmrc"), []byte(c.nvmrc), 0o644); err != nil {
				t.Fatal(err)
			}
			h := newHarness(t)
			id := h.sessionFor("javascript")
			args := map[string]any{"sessionId": id, "scriptPath": main}
			if c.launch != nil {
				args["dapLaunchArgs"] = c.launch
			}
			res := h.ok("start_debugging", args)
			rt := res.obj("data").str("runtime")
			for _, want := range c.runtime {
				if !strings.Contains(rt, want) {
					t.Errorf("data.runtime %q should contain %q", rt, want)
				}
			}
			h.waitForOutput(id, c.output)
		})
	}
}

// npmInstall installs packages from the npm registry into dir; a failed
// install skips the test, and fails it under CI=true.
func npmInstall(t *testing.T, dir string, packages ...string) {
	t.Helper()
	npm := testenv.RequireTool(t, "apt-get install -y npm", "npm")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, append([]string{"install", "--no-audit", "--no-fund", "--save-dev"}, packages...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := "npm install " + strings.Join(packages, " ") + ": " + err.Error() + "\n" + string(out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// cachedNode22 is a Node 22 from the npm registry's node@22 (a 125 MB
// download), kept where `make test-matrix` keeps its own so that the two,
// and every later run, share one download.
func cachedNode22(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "mcp-debugger", "matrix", "node-22")
	node := filepath.Join(dir, "node_modules", "node", "bin", "node")
	if exec.Command(node, "--version").Run() == nil {
		return node
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	npmInstall(t, dir, "node@22")
	return node
}

// tsxProject is a TypeScript project with tsx from the npm registry: an
// enum (which Node's type stripping refuses, and tsx compiles), a program
// and a node:test file its package.json runs with `node --import tsx
// --test`.
var tsxProject = map[string]string{
	"package.json": `{
  "name": "tsx-project",
  "private": true,
  "type": "module",
  "scripts": { "test": "node --import tsx --test test/*.test.ts" }
}
`,
	"src/price.ts": `export enum Tier { Basic = 1, Gold = 2 }

export function discounted(total: number, tier: Tier): number {
  const rate: number = tier === Tier.Gold ? 0.2 : 0;
  return total - total * rate;
}
`,
	"src/main.ts": `import { discounted, Tier } from "./price.ts";

const total: number = discounted(100, Tier.Gold);
console.log("tsx total " + total);
`,
	"test/price.test.ts": `import test from "node:test";
import assert from "node:assert";
import { discounted, Tier } from "../src/price.ts";

test("gold tier pays 90", () => {
  const paid: number = discounted(100, Tier.Gold);
  assert.strictEqual(paid, 90);
});
`,
}

// TestNodeProjectTypeScriptWithTsxFromNpm: a TypeScript project with tsx
// installed from the npm registry runs its .ts by its tsx: a breakpoint in
// the .ts stops, and the answer names node and tsx; debug_test runs the
// test file (or the project's directory) as its test script does.
func TestNodeProjectTypeScriptWithTsxFromNpm(t *testing.T) {
	testenv.RequireAdapter(t, "typescript")
	project := t.TempDir()
	writeProject(t, project, tsxProject)
	npmInstall(t, project, "tsx")
	tsx := filepath.Join(project, "node_modules", "tsx")

	t.Run("start_debugging", func(t *testing.T) {
		h := newHarness(t)
		id := h.sessionFor("typescript")
		snap := h.stopAt(id, filepath.Join(project, "src/price.ts"), 5, filepath.Join(project, "src/main.ts"))
		if l := snap.vars("locals"); l["rate"] != "0.2" || l["total"] != "100" {
			t.Errorf("locals: %v", l)
		}
		h.ok("clear_breakpoints", map[string]any{"sessionId": id})
		h.ok("continue_execution", map[string]any{"sessionId": id})
		h.waitForOutput(id, "tsx total 80")
	})
	t.Run("cwd outside the project", func(t *testing.T) {
		h := newHarness(t)
		id := h.sessionFor("typescript")
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": filepath.Join(project, "src/price.ts"), "line": 5})
		snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(project, "src/main.ts"), "cwd": t.TempDir()})
		wantStop(t, snap, "breakpoint", 5)
	})
	for _, path := range []string{filepath.Join(project, "test", "price.test.ts"), project} {
		t.Run("debug_test "+filepath.Base(path), func(t *testing.T) {
			h := newHarness(t)
			res := h.ok("debug_test", map[string]any{"language": "typescript", "path": path})
			test := res.obj("test")
			if test["failed"] != true || test.str("name") != "gold tier pays 90" || !strings.Contains(test.str("message"), "80 !== 90") {
				t.Fatalf("debug_test names the failing test: %v", res)
			}
			wantStop(t, res, "exception", 7)
			if f := res.stopFile(t); f != filepath.Join(project, "test", "price.test.ts") {
				t.Errorf("the stop should be shown in the .ts test file: %s", f)
			}
			rt := test.str("runtime")
			if !strings.Contains(rt, "node: ") || !strings.Contains(rt, `scripts.test "node --import tsx --test test/*.test.ts": --import tsx`) || !strings.Contains(rt, ".ts run by --import tsx") {
				t.Errorf("test.runtime should name the node, the script's options and tsx: %q", rt)
			}
		})
	}
	t.Run("runtime names tsx", func(t *testing.T) {
		h := newHarness(t)
		id := h.sessionFor("typescript")
		res := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(project, "src/main.ts"), "dryRunSpawn": true})
		if rt := res.obj("data").str("runtime"); !strings.Contains(rt, ".ts run by tsx from "+tsx) {
			t.Errorf("data.runtime should name the project's tsx: %q", rt)
		}
	})
}

// writeProject writes files (relative name to text) under dir.
func writeProject(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNodeProjectNvmNode22RunsTheProjectsTsx: a real Node 22 (the npm
// registry's node@22) in an nvm layout, chosen by the project's .nvmrc
// over PATH's node, runs the project's .ts with its tsx, not with Node 22's
// own type stripping, which refuses the project's enum.
func TestNodeProjectNvmNode22RunsTheProjectsTsx(t *testing.T) {
	testenv.RequireAdapter(t, "typescript")
	node22 := cachedNode22(t)
	out, err := exec.Command(node22, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", node22, err)
	}
	version := strings.TrimSpace(string(out))
	nvm := t.TempDir()
	t.Setenv("NVM_DIR", nvm)
	t.Setenv("FNM_DIR", t.TempDir())
	t.Setenv("VOLTA_HOME", t.TempDir())
	pinned := filepath.Join(nvm, "versions", "node", version, "bin", "node")
	if err := os.MkdirAll(filepath.Dir(pinned), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(node22, pinned); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	writeProject(t, project, tsxProject)
	writeProject(t, project, map[string]string{".nvmrc": "22\n"})
	npmInstall(t, project, "tsx")

	h := newHarness(t)
	id := h.sessionFor("typescript")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": filepath.Join(project, "src/price.ts"), "line": 5})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(project, "src/main.ts")})
	wantStop(t, snap, "breakpoint", 5)
	rt := snap.obj("data").str("runtime")
	for _, want := range []string{"node: " + pinned + " (", ".nvmrc 22: nvm's " + version, ".ts run by tsx from " + filepath.Join(project, "node_modules", "tsx")} {
		if !strings.Contains(rt, want) {
			t.Errorf("data.runtime %q should contain %q", rt, want)
		}
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "process.version"}); ev.str("result") != `"`+version+`"` {
		t.Errorf("the program should run on %s: %v", version, ev)
	}
}
