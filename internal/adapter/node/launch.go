package node

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// startTimeout bounds the wait for node to print its inspector URL and
// for the inspector to accept us.
const startTimeout = 15 * time.Second

// launchArgs are the launch request's arguments.
type launchArgs struct {
	Program           string            `json:"program"`
	Args              []string          `json:"args"`
	Cwd               string            `json:"cwd"`
	Env               map[string]string `json:"env"`
	RuntimeExecutable string            `json:"runtimeExecutable"`
	RuntimeArgs       []string          `json:"runtimeArgs"`
	StopOnEntry       bool              `json:"stopOnEntry"`
	JustMyCode        *bool             `json:"justMyCode"`
	// StdinFile is the file node reads as its standard input
	// (adapter.LaunchConfig.StdinFile).
	StdinFile string `json:"stdinFile"`
}

// stdinFileKey is the launch argument naming the program's standard
// input, a file.
const stdinFileKey = "stdinFile"

func (s *server) launch(req *request) (any, error) {
	if s.started {
		return nil, errors.New("the program was already launched")
	}
	var args launchArgs
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if args.Program == "" {
		return nil, errors.New(`no program to run: set "program" to the path of a .js, .mjs, .cjs or .ts file`)
	}
	s.opts = runOptions{stopOnEntry: args.StopOnEntry, justMyCode: args.JustMyCode == nil || *args.JustMyCode}
	// Compiled output usually sits in a directory beside the sources
	// (dist/ next to src/): search from the program's parent.
	s.root = filepath.Dir(filepath.Dir(args.Program))
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cmdline, stripped, err := commandLine(args)
	if err != nil {
		return nil, err
	}
	s.stripsTypes = stripped
	cmd := exec.Command(cmdline[0], cmdline[1:]...)
	cmd.Dir = args.Cwd
	if cmd.Dir == "" {
		cmd.Dir = filepath.Dir(args.Program)
	}
	cmd.Env = os.Environ()
	for k, v := range args.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdinDone, err := adapter.GiveStdin(cmd, args.StdinFile)
	if err != nil {
		return nil, err
	}
	defer stdinDone()
	// Not StdoutPipe: its read end closes when node exits, and the last
	// lines node wrote were lost when our reader lagged.
	stdout, stderr, err := proc.OutputPipes(cmd)
	if err != nil {
		return nil, fmt.Errorf("node output: %w", err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		stdout.Close()
		stderr.Close()
		return nil, fmt.Errorf("start %s: %w", cmdline[0], err)
	}
	s.proc = p
	// The DAP process event tells a client which process to watch.
	s.Event("process", map[string]any{"name": args.Program, "systemProcessId": p.Pid(), "isLocalProcess": true, "startMethod": "launch"})
	urls := make(chan string, 1)
	early := &earlyLines{}
	s.outputs.Add(2)
	go s.pipeOutput(stdout, "stdout", nil, nil)
	go s.pipeOutput(stderr, "stderr", urls, early)

	var url string
	select {
	case url = <-urls:
	case <-p.Done():
		s.outputs.Wait()
		return nil, fmt.Errorf("node exited (code %d) before its inspector started: %s", p.ExitCode(), early.text())
	case <-ctx.Done():
		p.Kill()
		s.outputs.Wait()
		return nil, fmt.Errorf("node did not print its inspector address within %s: %s", startTimeout, early.text())
	}
	c, err := cdp.Dial(ctx, url)
	if err == nil {
		err = s.connectInspector(ctx, c)
		if err != nil {
			c.Close()
		}
	}
	if err != nil {
		p.Kill()
		s.outputs.Wait()
		return nil, err
	}
	return nil, nil
}

// commandLine is node's: `node --inspect-brk=127.0.0.1:0 [runtimeArgs]
// program [args]`; port 0, so the address is read from what node prints,
// never guessed. A .ts program runs with Node's type stripping where the
// installed Node has it, else with a TypeScript runner of its project.
// stripped says Node itself strips the program's types: no loader of the
// user's (runtimeArgs, NODE_OPTIONS) may be transforming them instead.
func commandLine(args launchArgs) (line []string, stripped bool, err error) {
	node := args.RuntimeExecutable
	if node == "" {
		found, err := exec.LookPath("node")
		if err != nil {
			return nil, false, errors.New("node was not found on PATH: install Node.js (Debian: apt-get install nodejs) or set runtimeExecutable")
		}
		node = found
	}
	line = []string{node, "--inspect-brk=127.0.0.1:0"}
	// Without it, a child the program forks waits for a debugger for
	// ever (children.go); a program that forks nothing is unaffected.
	if preload, err := forkPreloadPath(); err == nil {
		line = append(line, "--require", preload)
	}
	// Before runtimeArgs: there, the user's own V8 flags win.
	line = append(line, launchFlags(node)...)
	line = append(line, args.RuntimeArgs...)
	if isTypeScript(args.Program) {
		runner, err := typeScriptRunner(node, args.Program, args.RuntimeArgs)
		if err != nil {
			return nil, false, err
		}
		line = append(line, runner.opts...)
		nodeOptions, set := args.Env["NODE_OPTIONS"]
		if !set {
			nodeOptions = os.Getenv("NODE_OPTIONS")
		}
		stripped = runner.stripped && !hasLoader(args.RuntimeArgs) && !hasLoader(strings.Fields(nodeOptions))
	}
	line = append(line, args.Program)
	return append(line, args.Args...), stripped, nil
}

// launchFlags are node options that its version needs for debugging.
//
// Node 22 (V8 12.4; measured 22.12.0 and 22.23.3) never answers
// Debugger.pause while a loop without calls runs in a script's top-level
// code (CommonJS or ES module) once V8 has replaced the running code with
// optimized code (on-stack replacement): the pause request waits forever
// and pause_execution cannot show where a stuck program is. Loops inside
// functions pause; Node 20.20.2 (V8 11.3) and 24.21.0 (V8 13.6) pause in
// both. --no-use-osr keeps such a loop in baseline code, where the pause
// lands in ~1 ms; it costs long loops in code that runs once about 2x
// (1.1 s -> 2.4 s for 3e8 iterations, measured), only while debugging.
// A version that cannot be read gets no flags.
// docs/adapter-quirks.md: node-14.
func launchFlags(node string) []string {
	release, _, err := nodeVersion(context.Background(), node)
	if err == nil && release[0] == 22 {
		return []string{"--no-use-osr"}
	}
	return nil
}

// loaderFlags preload code or hook module loading: how tsx (--import tsx)
// and ts-node (-r ts-node/register) take over .ts files, transforming them
// with source maps instead of Node stripping them as written.
var loaderFlags = []string{"--import", "--loader", "--experimental-loader", "--require", "-r"}

// hasLoader reports whether node options carry a loader flag (alone or as
// flag=value).
func hasLoader(opts []string) bool {
	for _, o := range opts {
		name, _, _ := strings.Cut(o, "=")
		if slices.Contains(loaderFlags, name) {
			return true
		}
	}
	return false
}

func isTypeScript(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return true
	}
	return false
}

// noiseLines are what the inspector itself writes on the program's stderr
// (docs/adapter-quirks.md, node-2). The help line's address moved: Node 20.20.2
// prints "For help, see: https://nodejs.org/en/docs/inspector", Node
// 22.23.3 ".../learn/getting-started/debugging".
var noiseLines = []string{
	"Debugger listening on ws://",
	"For help, see: https://nodejs.org/",
	"Debugger attached.",
	"Waiting for the debugger to disconnect...",
	"Debugger ending on ws://",
}

func isNoise(line string) bool {
	line = strings.TrimRight(line, "\r\n")
	for _, n := range noiseLines {
		if strings.HasPrefix(line, n) {
			return true
		}
	}
	return false
}

// earlyLines keeps what node printed before its inspector started, for
// the error when it never does.
type earlyLines struct {
	mu    sync.Mutex
	lines []string
}

func (e *earlyLines) add(line string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.lines) < 50 {
		e.lines = append(e.lines, strings.TrimRight(line, "\n"))
	}
}

func (e *earlyLines) text() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.lines) == 0 {
		return "(no output)"
	}
	return strings.Join(e.lines, "\n")
}

// pipeOutput sends a pipe's lines as output events until it ends (node
// exits or is killed). On stderr it takes the inspector's URL from the
// first line that carries it and drops the inspector's own lines.
func (s *server) pipeOutput(r io.ReadCloser, category string, urls chan<- string, early *earlyLines) {
	defer s.outputs.Done()
	defer r.Close()
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			if urls != nil {
				if _, u, ok := strings.Cut(line, "Debugger listening on "); ok {
					urls <- strings.TrimSpace(u)
					urls = nil
				} else if early != nil {
					early.add(line)
				}
			}
			if !isNoise(line) {
				s.Output(category, line)
			}
		}
		if err != nil {
			return
		}
	}
}
