package java

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// recordMechanism names how a JVM run is recorded, for the report.
const recordMechanism = "JDWP method entry/exit and exception events"

// maxScannedClassFiles bounds the walk of the class directories that
// finds the user's packages.
const maxScannedClassFiles = 20_000

// Record runs the program (or a JUnit test class, as debug_test does)
// under the JVM's debug agent with method entry, method exit (with its
// return value) and exception events for the user's own classes only,
// and writes them as docs/recording-format.md describes. UseRepr is not
// honoured: running toString would need an invocation on the recorded
// thread, whose own method events the recorder would then have to answer
// while it waits for the invocation.
func (a *Adapter) Record(ctx context.Context, cfg adapter.RecordConfig) (*adapter.RecordResult, error) {
	java, err := findJava(ctx, a.machine, cfg.ExecutablePath)
	if err != nil {
		return nil, err
	}
	run := recordLaunch
	runner := ""
	if cfg.Test != nil {
		run, runner = a.testLaunch, "junit"
	}
	lc, cleanup, err := run(ctx, java.path, cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	lc.StdinFile = cfg.StdinFile
	mainClass := lc.MainClass
	if cfg.Test != nil {
		// The console launcher is JUnit's, not the user's.
		mainClass = ""
	}
	patterns := userClassPatterns(mainClass, append(slices.Clone(lc.ClassPaths), cfg.Include...))
	if len(patterns) == 0 {
		return nil, errors.New("found no classes of the program's own to record (record a .java or .class file, or a main class with classPaths)")
	}
	log, err := newEventLog(cfg.EventsFile, cfg.MaxEvents)
	if err != nil {
		return nil, err
	}
	var output strings.Builder
	if cfg.Test != nil {
		cfg.Output = teeWriter(cfg.Output, &output)
	}
	code, err := a.recordRun(ctx, lc, cfg, patterns, log, java.path, func() {
		if cfg.Test != nil {
			writeTestEvents(log, output.String(), cfg.Test.Path)
		}
	})
	if cerr := log.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return &adapter.RecordResult{ExitCode: code, Runtime: "java: " + java.path + " " + a.version(ctx, java.path), Runner: runner, Mechanism: recordMechanism}, nil
}

// recordLaunch resolves the program as the Java adapter's launch does
// (a project's class path, a class file, a main class). A single source
// file is compiled with javac -g into a temp dir rather than run by the
// source launcher, whose classes carry no local variable names: the
// recording names arguments and locals. docs/adapter-quirks.md, jvm-6.
func recordLaunch(ctx context.Context, javaPath string, cfg adapter.RecordConfig) (*launchConfig, func(), error) {
	args := map[string]any{"program": cfg.Program, "args": cfg.Args, "javaPath": javaPath}
	if len(cfg.Env) > 0 {
		args["env"] = cfg.Env
	}
	p, cleanup, err := projectLaunch(ctx, javaPath, cfg.Program, cfg.Cwd, args, false)
	if err != nil {
		return nil, nil, err
	}
	if cleanup == nil {
		cleanup = func() {}
	}
	lc, err := parseLaunch(args)
	if err == nil {
		err = lc.resolveMain()
	}
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	lc.Cwd = launchCwd(adapter.LaunchConfig{Cwd: cfg.Cwd, Program: cfg.Program}, p)
	if lc.MainClass == "" && strings.HasSuffix(lc.Program, ".java") {
		tmp, err := compileSingleFile(ctx, javaPath, lc.Program)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		lc.MainClass, lc.ClassPaths = classOfSource(lc.Program), []string{tmp}
		prev := cleanup
		cleanup = func() {
			prev()
			os.RemoveAll(tmp)
		}
	}
	return lc, cleanup, nil
}

// compileSingleFile compiles one source file with full debug information
// into a new temp dir.
func compileSingleFile(ctx context.Context, javaPath, src string) (string, error) {
	tmp, err := os.MkdirTemp("", "mcp-debugger-record-")
	if err != nil {
		return "", fmt.Errorf("temp dir for javac: %w", err)
	}
	// javac sits beside the java that runs the program: the classes must
	// be of a version that java loads.
	javac := filepath.Join(filepath.Dir(javaPath), "javac")
	out, err := exec.CommandContext(ctx, javac, "-g", "-d", tmp, src).CombinedOutput()
	if err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("compiling %s with %s for recording failed (%w):\n%s", src, javac, err, strings.TrimSpace(string(out)))
	}
	return tmp, nil
}

// userClassPatterns are the JDWP class patterns of the user's own code:
// "pkg.*" for each package with classes in the class path's directories
// (jars are dependencies) or in Include, and "Name" and "Name$*" for a
// class of the default package. The JDK and Kotlin's runtime never count.
func userClassPatterns(mainClass string, paths []string) []string {
	classes := map[string]bool{}
	if mainClass != "" {
		classes[mainClass] = true
	}
	for _, dir := range paths {
		collectClasses(dir, classes)
	}
	var packages, topLevel []string
	for c := range classes {
		if isJDKClass(c) || strings.HasPrefix(c, "kotlin.") {
			continue
		}
		if i := strings.LastIndexByte(c, '.'); i >= 0 {
			packages = append(packages, c[:i])
			continue
		}
		top, _, _ := strings.Cut(c, "$")
		topLevel = append(topLevel, top)
	}
	var out []string
	for _, p := range compactPackages(packages) {
		out = append(out, p+".*")
	}
	slices.Sort(topLevel)
	for _, c := range slices.Compact(topLevel) {
		out = append(out, c, c+"$*")
	}
	return out
}

// collectClasses adds the classes under a class directory, or the class a
// .class or .java file names.
func collectClasses(path string, into map[string]bool) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return
	case !st.IsDir():
		if name, ok := classOfFile(path, ""); ok {
			into[name] = true
		}
		return
	}
	seen := 0
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || seen >= maxScannedClassFiles {
			return filepath.SkipDir
		}
		if name, ok := classOfFile(p, path); ok && !d.IsDir() {
			into[name] = true
			seen++
		}
		return nil
	})
}

// classOfFile names the class of a .class file (by its place under root)
// or of a .java file (by its package line).
func classOfFile(path, root string) (string, bool) {
	switch {
	case strings.HasSuffix(path, ".java"):
		return classOfSource(path), true
	case strings.HasSuffix(path, ".class") && root != "":
		rel, err := filepath.Rel(root, strings.TrimSuffix(path, ".class"))
		if err != nil {
			return "", false
		}
		return strings.ReplaceAll(filepath.ToSlash(rel), "/", "."), true
	case strings.HasSuffix(path, ".class"):
		name, err := className(path)
		return name, err == nil
	}
	return "", false
}

// compactPackages drops packages that an enclosing one covers ("a.b.*"
// matches a.b.c's classes too).
func compactPackages(pkgs []string) []string {
	slices.Sort(pkgs)
	pkgs = slices.Compact(pkgs)
	var out []string
	for _, p := range pkgs {
		if n := len(out); n > 0 && strings.HasPrefix(p, out[n-1]+".") {
			continue
		}
		out = append(out, p)
	}
	return out
}

// recordRun starts the JVM suspended, asks for the recording's events,
// lets the program run to its end while the recorder writes, and returns
// the exit code.
func (a *Adapter) recordRun(ctx context.Context, lc *launchConfig, cfg adapter.RecordConfig, patterns []string, log *eventLog, javaPath string, beforeEnd func()) (int, error) {
	out := cfg.Output
	if out == nil {
		out = io.Discard
	}
	// stdout and stderr are read by two goroutines; the writer need not
	// be safe for both at once.
	var mu sync.Mutex
	j, err := spawnJVM(ctx, lc, func(_, text string) {
		mu.Lock()
		defer mu.Unlock()
		io.WriteString(out, text)
	})
	if err != nil {
		return 0, err
	}
	defer j.close()
	dialCtx, cancel := context.WithTimeout(ctx, connectTimeout)
	var opts jdwp.Options
	vm, err := dialQuickAck(dialCtx, net.JoinHostPort("127.0.0.1", strconv.Itoa(j.port)), &opts)
	cancel()
	if err != nil {
		return 0, err
	}
	defer vm.Close()
	if err := awaitVMStart(ctx, vm); err != nil {
		return 0, err
	}
	rec := newRecorder(vm, lc, patterns, cfg.Lines, log)
	for _, dir := range cfg.Include {
		rec.source.addRoot(dir)
	}
	log.add(recEvent{K: "start", Lang: languageID, Pid: j.p.Pid(), Version: 1, Cwd: lc.Cwd, Argv: lc.command(), Runtime: "java " + a.version(ctx, javaPath)})
	if err := rec.request(ctx); err != nil {
		return 0, err
	}
	if err := vm.Resume(ctx); err != nil {
		return 0, fmt.Errorf("start the recorded program: %w", err)
	}
	rec.run(ctx)
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("recording the JVM: %w", err)
	}
	select {
	case <-j.p.Done():
	case <-ctx.Done():
		return 0, fmt.Errorf("waiting for the recorded JVM to exit: %w", ctx.Err())
	}
	j.drain()
	code := j.p.ExitCode()
	beforeEnd()
	rec.end(code)
	return code, nil
}

// awaitVMStart waits for the VM_START event of a JVM started suspended.
func awaitVMStart(ctx context.Context, vm *jdwp.Conn) error {
	timer := time.NewTimer(vmStartTimeout)
	defer timer.Stop()
	for {
		select {
		case set, ok := <-vm.Events():
			if !ok {
				return fmt.Errorf("the JVM ended before it started: %w", vm.Err())
			}
			for _, e := range set.Events {
				if e.Kind == jdwp.EventVMStart {
					return nil
				}
			}
		case <-timer.C:
			return errors.New("the JVM sent no VM_START event after the recorder connected")
		case <-ctx.Done():
			return fmt.Errorf("waiting for the JVM to start: %w", ctx.Err())
		}
	}
}
