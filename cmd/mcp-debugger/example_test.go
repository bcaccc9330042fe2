package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/selfcheck"
)

// The version `mcp-debugger version` prints: the one a release stamps,
// else the module version `go install module@version` records, else "dev".
func Example_versionOf() {
	installed := &debug.BuildInfo{Main: debug.Module{Version: "v1.4.2"}}
	worktree := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	fmt.Println(versionOf("v2.0.0", installed))
	fmt.Println(versionOf("", installed))
	fmt.Println(versionOf("", worktree))
	// Output:
	// v2.0.0
	// v1.4.2
	// dev
}

// `mcp-debugger doctor` prints one row per language; a missing adapter's
// row says why and the command that installs it. The availability here is
// made up, so the example runs on any machine.
func Example_printAvailability() {
	python, _ := adapter.Lookup("python")
	golang, _ := adapter.Lookup("go")
	printAvailability(os.Stdout, []adapter.Adapter{python, golang}, []adapter.Availability{
		{Installed: true, Version: "1.8.1", Path: "/usr/bin/python3"},
		{Reason: "dlv not found on PATH", InstallHint: "go install github.com/go-delve/delve/cmd/dlv@latest"},
	})
	// Output:
	// LANGUAGE  STATUS     VERSION  DETAILS
	// python    available  1.8.1    /usr/bin/python3
	// go        missing    -        dlv not found on PATH; install: go install github.com/go-delve/delve/cmd/dlv@latest
}

// `mcp-debugger doctor --check` adds each language's check and its time,
// then a failure in full with its fix, the watchpoint probe and a summary.
// The report here is made up.
func Example_printCheck() {
	printCheck(os.Stdout, selfcheck.Report{
		Results: []selfcheck.Result{
			{Language: "python", Status: selfcheck.StatusOK, Duration: 1234 * time.Millisecond,
				Availability: adapter.Availability{Installed: true, Version: "1.8.1", Path: "/usr/bin/python3"}},
			{Language: "go", Status: selfcheck.StatusFailed, Duration: 42 * time.Millisecond, Step: selfcheck.StepStart,
				Error: "could not launch process:\nfork/exec: permission denied", Hint: "allow ptrace",
				Availability: adapter.Availability{Installed: true, Version: "1.25.0", Path: "/root/go/bin/dlv"}},
			{Language: "ruby", Status: selfcheck.StatusMissing,
				Availability: adapter.Availability{Reason: "rdbg not found", InstallHint: "gem install debug"}},
		},
		Watchpoints: adapter.WatchpointStatus{Usable: true, Reason: "a watchpoint fired on a write"},
		Duration:    3 * time.Second,
	})
	// Output:
	// LANGUAGE  STATUS     VERSION  CHECK    TIME  DETAILS
	// python    available  1.8.1    ok       1.2s  /usr/bin/python3
	// go        available  1.25.0   failed   42ms  failed at start: see below
	// ruby      missing    -        missing  -     rdbg not found; install: gem install debug
	//
	// go failed at start: could not launch process:
	//     fork/exec: permission denied
	//   fix: allow ptrace
	//
	// hardware watchpoints: usable; a watchpoint fired on a write
	// checked in 3s: 1 ok, 1 failed, 0 skipped, 1 missing
}

// Languages are named only for --check; doctor says so and exits 2.
func Example_doctorLanguagesNeedCheck() {
	code := doctor([]string{"python"}, os.Stdout, os.Stdout)
	fmt.Println("exit status", code)
	// Output:
	// mcp-debugger doctor: languages (python) are only taken with --check
	// exit status 2
}
