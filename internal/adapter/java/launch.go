package java

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

const (
	// listeningPrefix starts the line the JDWP agent prints on stdout
	// once it listens; the port follows.
	listeningPrefix = "Listening for transport dt_socket at address: "
	// portTimeout bounds the wait for that line: the agent prints it
	// before any class of the program loads (~50 ms here).
	portTimeout = 20 * time.Second
	// outputDrain bounds the wait for the program's output pipes to end
	// once the VM has died, so that no last line is lost.
	outputDrain = 2 * time.Second
)

// launchConfig is what a launch request asks for.
type launchConfig struct {
	Program string            `json:"program"`
	Args    []string          `json:"args"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`
	// StdinFile is the file the JVM reads as its standard input
	// (adapter.LaunchConfig.StdinFile).
	StdinFile   string   `json:"stdinFile"`
	JavaPath    string   `json:"javaPath"`
	MainClass   string   `json:"mainClass"`
	ClassPaths  []string `json:"classPaths"`
	VMArgs      []string `json:"vmArgs"`
	SourcePaths []string `json:"sourcePaths"`
	StopOnEntry bool     `json:"stopOnEntry"`
	// TestFrameworkPackages name the packages of a test framework that
	// runs the program: an exception only they catch counts as uncaught,
	// as the framework catches every failing test's to report it.
	TestFrameworkPackages []string `json:"testFrameworkPackages"`
}

// parseLaunch decodes launch arguments.
func parseLaunch(args map[string]any) (*launchConfig, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("java launch arguments: %w", err)
	}
	var lc launchConfig
	if err := json.Unmarshal(raw, &lc); err != nil {
		return nil, fmt.Errorf("java launch arguments: %w", err)
	}
	if lc.Program == "" && lc.MainClass == "" {
		return nil, errors.New(`nothing to launch: give "program" (a .java, .class or .jar file) or "mainClass" with "classPaths"`)
	}
	if lc.JavaPath == "" {
		lc.JavaPath = "java"
	}
	return &lc, nil
}

// resolveMain names the main class when the program is a class file (the
// class it defines, and the class path root its package implies unless
// classPaths are given) or a class name ("com.example.App", run from
// classPaths, else from the working directory as java does).
func (lc *launchConfig) resolveMain() error {
	if lc.MainClass != "" {
		return nil
	}
	switch {
	case strings.HasSuffix(lc.Program, ".class"):
		name, err := className(lc.Program)
		if err != nil {
			return err
		}
		if len(lc.ClassPaths) == 0 {
			root, err := classRoot(lc.Program, name)
			if err != nil {
				return err
			}
			lc.ClassPaths = []string{root}
		}
		lc.MainClass = name
	case namesClass(lc.Program):
		lc.MainClass, lc.Program = filepath.Base(lc.Program), ""
	}
	return nil
}

// command is the java command line: the agent waiting suspended on a port
// the kernel picks, then the program in the form its path calls for (a
// class file's main class is resolved by resolveMain).
func (lc *launchConfig) command() []string {
	cmd := []string{lc.JavaPath, "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0"}
	cmd = append(cmd, lc.VMArgs...)
	cp := lc.ClassPaths
	main := lc.MainClass
	switch {
	case main != "":
	case strings.HasSuffix(lc.Program, ".jar"):
		return append(append(cmd, "-jar", lc.Program), lc.Args...)
	default:
		if len(cp) > 0 {
			cmd = append(cmd, "-cp", strings.Join(cp, string(os.PathListSeparator)))
		}
		return append(append(cmd, lc.Program), lc.Args...)
	}
	if len(cp) > 0 {
		cmd = append(cmd, "-cp", strings.Join(cp, string(os.PathListSeparator)))
	}
	return append(append(cmd, main), lc.Args...)
}

// launchErrorBytes bounds what is kept of the JVM's stderr, from its
// start, to explain a launch that failed.
const launchErrorBytes = 4 << 10

// jvm is a launched JVM and the readers of its output.
type jvm struct {
	p    *proc.Process
	port int
	// outputs ends when both output pipes have ended.
	outputs sync.WaitGroup
	stdout  *os.File
	stderr  *os.File

	mu      sync.Mutex
	errHead []byte // the first launchErrorBytes of stderr
}

// keepStderr records the start of stderr, where the launcher's own error
// is ("Error: Could not find or load main class …").
func (j *jvm) keepStderr(text string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if room := launchErrorBytes - len(j.errHead); room > 0 {
		j.errHead = append(j.errHead, text[:min(room, len(text))]...)
	}
}

// stderrHead waits, bounded, for the output readers to reach the end of the
// pipes of a JVM that exited, and returns the start of its stderr.
func (j *jvm) stderrHead() string {
	select {
	case <-j.outputsEnded():
	case <-time.After(outputDrain):
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return strings.TrimSpace(string(j.errHead))
}

// spawnJVM starts the JVM, waits for the agent's port line and forwards
// every other line of stdout and stderr to emit, in order per stream,
// until the pipes end.
func spawnJVM(ctx context.Context, lc *launchConfig, emit func(category, text string)) (*jvm, error) {
	command := lc.command()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = lc.Cwd
	cmd.Env = os.Environ()
	for k, v := range lc.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdinDone, err := adapter.GiveStdin(cmd, lc.StdinFile)
	if err != nil {
		return nil, err
	}
	defer stdinDone()
	outR, errR, err := proc.OutputPipes(cmd)
	if err != nil {
		return nil, fmt.Errorf("java output: %w", err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s: %w", command[0], err)
	}
	j := &jvm{p: p, stdout: outR, stderr: errR}
	portc := make(chan int, 1)
	j.outputs.Add(2)
	go func() {
		defer j.outputs.Done()
		forwardLines(outR, "stdout", emit, portc)
	}()
	go func() {
		defer j.outputs.Done()
		forwardLines(errR, "stderr", func(category, text string) {
			j.keepStderr(text)
			emit(category, text)
		}, nil)
	}()
	timer := time.NewTimer(portTimeout)
	defer timer.Stop()
	select {
	case port := <-portc:
		if port > 0 {
			j.port = port
			return j, nil
		}
		j.close()
		return nil, fmt.Errorf("java exited before its debug agent listened (exit code %d): %s", p.ExitCode(), strings.Join(command, " "))
	case <-ctx.Done():
		j.close()
		return nil, fmt.Errorf("waiting for the JVM's debug agent: %w", ctx.Err())
	case <-timer.C:
		j.close()
		return nil, fmt.Errorf("the JVM printed no debug port within %s: %s", portTimeout, strings.Join(command, " "))
	}
}

// forwardLines emits each line of r; when portc is set, the agent's
// listening line is taken out of the stream and its port sent there (0 if
// the stream ends first).
func forwardLines(r io.Reader, category string, emit func(category, text string), portc chan<- int) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if portc != nil && strings.HasPrefix(line, listeningPrefix) {
			port, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, listeningPrefix)))
			portc <- port
			portc = nil
			line = ""
		}
		if line != "" {
			emit(category, line)
		}
		if err != nil {
			if portc != nil {
				portc <- 0
			}
			return
		}
	}
}

// drain waits, bounded, for the output readers to reach the end of both
// pipes (the JVM exited), then closes them so that the readers end in any
// case.
func (j *jvm) drain() {
	done := j.outputsEnded()
	select {
	case <-done:
	case <-time.After(outputDrain):
	}
	j.stdout.Close()
	j.stderr.Close()
	<-done
}

// outputsEnded is closed once the output readers have reached the end of
// both pipes.
func (j *jvm) outputsEnded() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		j.outputs.Wait()
		close(done)
	}()
	return done
}

// close kills the JVM and ends the output readers.
func (j *jvm) close() {
	j.p.Kill()
	j.drain()
}

// exitCode waits briefly for the JVM to exit and returns its code.
func (j *jvm) exitCode() (int, bool) {
	select {
	case <-j.p.Done():
	case <-time.After(outputDrain):
		return 0, false
	}
	c := j.p.ExitCode()
	return c, c >= 0
}

// stdinFileKey is the launch argument naming the program's standard
// input, a file.
const stdinFileKey = "stdinFile"
