// Command mcp-debugger is an MCP server that lets agents debug programs:
// breakpoints, steps, stacks, variables and expressions, through each
// language's real debug adapter.
//
// Usage:
//
//	mcp-debugger [stdio] [--tools core|default|all] [--log-file FILE] [--log-level debug|info|warn]
//	mcp-debugger http [--tools core|default|all] [--listen 127.0.0.1:0] [--token T] [--print-config CLIENT] [--allow-origin O] [--allow-human-control]
//	mcp-debugger adapter LANGUAGE [--log-file FILE]
//	mcp-debugger doctor [--check [--timeout 2m] [LANGUAGE…]]
//	mcp-debugger call TOOL [--key value]... [--json '{…}'] [--session ID] [--json]
//	mcp-debugger setup CLIENT [--user] [--print]
//	mcp-debugger status | stop
//	mcp-debugger version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/golang"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/java"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/lldb"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/mock"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/node"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/python"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/ruby"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/mcp-debugger/mcp-debugger/internal/stdio"
)

// version is set with -ldflags "-X main.version=…"; otherwise the module
// version from the build info is used.
var version = ""

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := "stdio"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	server.Version = versionString()
	switch cmd {
	case "stdio":
		return serveStdio(args, stderr)
	case "http":
		return serveHTTP(args, stderr)
	case "adapter":
		return serveAdapter(args, os.Stdin, stdout, stderr)
	case "doctor":
		return doctor(args, stdout, stderr)
	case "call":
		return callCommand(args, stdout, stderr)
	case "status":
		return statusCommand(args, stdout, stderr)
	case "stop":
		return stopCommand(args, stdout, stderr)
	case "setup":
		return setupCommand(args, stdout, stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "mcp-debugger %s (%s, %s/%s)\n", server.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return 0
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "mcp-debugger: unknown command %q\n\n", cmd)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprint(w, `mcp-debugger: an MCP server for debugging programs with real debug adapters.

Commands:
  stdio     serve MCP on stdin/stdout (the default)
            --tools PROFILE   the tools offered: core (what most bugs need),
                              default (all but the rarely used) or all
            --log-file FILE   write logs there instead of stderr
            --log-level LEVEL debug, info (default) or warn
  http      serve MCP over Streamable HTTP at /mcp, with a live page at /
            --listen ADDR (default 127.0.0.1:0; the address is printed on stderr),
            --token-file FILE, --token T or $MCP_DEBUGGER_TOKEN (default: your own
            token, in a file only you can read; required on loopback too),
            --behind-tls (Secure login cookie behind an https proxy), --print-config
            claude|cursor|vscode (print what plugs the server into that client),
            --allow-origin ORIGIN, --allow-human-control, --tools PROFILE (as stdio's),
            --idle-timeout 30m, --reconnect-grace 60s (how long a departed
            client's debug sessions wait to be adopted), --keep-alive 0 (ping
            interval that finds clients gone without a word), --log-file, --log-level
  adapter LANGUAGE
            serve a built-in debug adapter (javascript, java) over DAP on
            stdin/stdout, for other DAP clients (VS Code, nvim-dap)
            --log-file FILE   write its logs there (default: discarded)
  doctor    show, per language, whether its debug adapter is installed and how to install it
            --check   also debug a tiny program per language (in a temporary
                      directory, removed after): set a breakpoint, start, stop
                      there, read a local; report ok and the time taken, or the
                      failure and its fix, and whether hardware watchpoints
                      work. Exit status 1 when an installed language fails.
                      Name languages to check only those.
            --timeout D  bound each language's check (default 2m)
  call TOOL [--key value]... [--json '{…}'] [--session ID] [--json]
            one tool call from a shell, against a background server started on
            first use for you and this directory; compact text, or --json alone
            for the structured answer. mcp-debugger call --help says more.
  setup CLIENT [--user] [--print]
            plug this server into claude, codex, cursor, vscode, gemini,
            windsurf or zed: its MCP entry, a debugging skill and a debugger
            subagent in the client's format. mcp-debugger setup --help says more.
  status    show the background server and its debug sessions
  stop      stop the background server, its sessions and their programs
  version   print the version
`)
}

func versionString() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, bi)
}

// versionOf is the version to report: the one stamped at link time, else
// the main module's version in the build info, which `go install
// module@version` records. A build from a checkout (the build info names
// its commit: go build -buildvcs) is "dev (abc1234)", ", modified" when
// the work tree had changes, unless it is a release tag's commit
// unchanged; without the commit, "dev".
func versionOf(stamped string, bi *debug.BuildInfo) string {
	if stamped != "" {
		return stamped
	}
	if bi == nil {
		return "dev"
	}
	var revision string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	v := bi.Main.Version
	if revision == "" {
		if v != "" && v != "(devel)" {
			return v
		}
		return "dev"
	}
	if strings.HasPrefix(v, "v") && !modified && !strings.Contains(v, "+") && !pseudoVersion.MatchString(v) {
		return v
	}
	dev := "dev (" + revision[:min(7, len(revision))]
	if modified {
		dev += ", modified"
	}
	return dev + ")"
}

// pseudoVersion matches the end of the version Go gives a commit without
// a tag (v0.0.0-20261127215410-9e472aeca3db).
var pseudoVersion = regexp.MustCompile(`\d{14}-[0-9a-f]{12}$`)

func serveStdio(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("stdio", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logFile := fs.String("log-file", "", "write logs to this file instead of stderr")
	logLevel := fs.String("log-level", "info", "debug, info or warn")
	tools := toolsFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	profile, err := server.ParseProfile(*tools)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: bad --log-level %q\n", *logLevel)
		return 2
	}
	logOut := stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
			return 1
		}
		defer f.Close()
		logOut = f
	}
	// Logs never go to stdout: stdout carries the MCP protocol.
	log := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: level}))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	srv := server.New(server.Options{Logger: log, Tools: profile})
	// Our transport, not the SDK's: a malformed line is answered with a
	// JSON-RPC error and skipped, where the SDK's would end the server and
	// every debug session.
	err = srv.MCP().Run(ctx, &stdio.Transport{In: os.Stdin, Out: os.Stdout, Log: log})
	// Whatever ended the server (stdin closed, a signal), no debug adapter
	// or debuggee survives it.
	srv.Close()
	proc.KillAll()
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		log.Error("server stopped", "err", err)
		return 1
	}
	return 0
}

// toolsFlag declares --tools, the profile of tools the server offers.
func toolsFlag(fs *flag.FlagSet) *string {
	return fs.String("tools", string(server.ProfileDefault), "the tools offered: core (what most bugs need), default (all but the rarely used) or all")
}
