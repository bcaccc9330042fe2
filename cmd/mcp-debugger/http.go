package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
)

// tokenEnv passes the bearer token without putting it on a command line,
// where other users of the machine could read it.
const tokenEnv = "MCP_DEBUGGER_TOKEN"

// shutdownTimeout bounds the wait for requests in flight at exit.
const shutdownTimeout = 5 * time.Second

// serveHTTP runs MCP over Streamable HTTP, with the live page.
func serveHTTP(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("http", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on")
	token := fs.String("token", "", "bearer token clients must send (default: $"+tokenEnv+", else your own token, kept in a file only you can read)")
	tokenFile := fs.String("token-file", "", "read the bearer token from this file (not on the command line, where `ps` shows it to every user)")
	behindTLS := fs.Bool("behind-tls", false, "clients reach the server through a TLS proxy (https): the page's login cookie is marked Secure")
	printConfig := fs.String("print-config", "", "print the configuration that plugs this server (same --listen and token) into a client: "+strings.Join(clientConfigs, ", ")+"; then exit")
	var origins stringList
	fs.Var(&origins, "allow-origin", "a browser origin allowed besides the server's own (repeatable)")
	control := fs.Bool("allow-human-control", false, "show continue/step/pause buttons on the live page")
	idle := fs.Duration("idle-timeout", 30*time.Minute, "close an MCP session idle this long, with its debug sessions, and a debug session held by a reconnect key no call used this long (0: never)")
	grace := fs.Duration("reconnect-grace", httpserver.DefaultReconnectGrace, "keep a departed client's debug sessions this long for it to adopt after reconnecting (0: close at once)")
	keepAlive := fs.Duration("keep-alive", 0, "ping clients this often; one that misses three in a row is gone, and its debug sessions follow after the grace (0: never; a client must keep its GET stream open to answer)")
	logFile := fs.String("log-file", "", "write logs to this file instead of stderr")
	logLevel := fs.String("log-level", "info", "debug, info or warn")
	stateFile := fs.String("state-file", "", "once listening, write the address, token and pid there (0600) for `mcp-debugger call`; removed at exit")
	exitIdle := fs.Duration("exit-when-idle", 0, "exit after this long without a request (0: never)")
	tools := toolsFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log, closeLog, err := openLog(*logFile, *logLevel, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 2
	}
	defer closeLog()
	bearer, err := serverToken(*token, *tokenFile)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 1
	}
	if *printConfig != "" {
		if err := printClientConfig(os.Stdout, *printConfig, *listen, bearer.value); err != nil {
			fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
			return 2
		}
		return 0
	}

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 1
	}
	addr := ln.Addr().(*net.TCPAddr)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	ctx, idleStop := context.WithCancel(ctx)
	defer idleStop()
	profile, err := server.ParseProfile(*tools)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 2
	}
	srv := server.New(server.Options{Logger: log, KeepAlive: *keepAlive, Tools: profile})
	// The page's own token, printed once below: the page shows every
	// session, which the clients' token must not.
	pageToken, err := httpserver.NewToken()
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 1
	}
	face := httpserver.New(srv, httpserver.Config{
		Addr:              addr,
		Token:             bearer.value,
		TokenHint:         bearer.unauthorizedHint(ln.Addr().String(), addr.IP.IsLoopback()),
		PageToken:         pageToken,
		SecureCookie:      *behindTLS,
		AllowOrigins:      origins,
		AllowHumanControl: *control,
		IdleTimeout:       *idle,
		ReconnectGrace:    reconnectGrace(*grace),
		Logger:            log,
	})
	var h http.Handler = face
	if *exitIdle > 0 {
		h = newIdleExit(h, *exitIdle, idleStop)
	}
	hs := &http.Server{
		Handler: h,
		// Cancelled at shutdown, which ends the page's event streams.
		BaseContext: func(net.Listener) context.Context { return ctx },
		ErrorLog:    slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	face.BoundConnections(hs)

	// The address goes to stderr, the one place a supervisor reads it
	// from, with where the token is; the page's token only here, in its
	// login link. The listening line comes last: whoever waits for it has
	// the rest.
	base := "http://" + ln.Addr().String()
	if bearer.file != "" {
		fmt.Fprintf(stderr, "mcp-debugger: clients send \"Authorization: Bearer TOKEN\", the token in %s; %s prints a client configuration\n", bearer.file, configHint(ln.Addr().String()))
	}
	fmt.Fprintf(stderr, "mcp-debugger: live page login link: %s/?token=%s\n", base, pageToken)
	fmt.Fprintf(stderr, "mcp-debugger: listening on %s (MCP endpoint %s/mcp, live page %s/)\n", ln.Addr(), base, base)
	if *stateFile != "" {
		cwd, _ := os.Getwd()
		if err := writeState(*stateFile, serverState{Addr: ln.Addr().String(), Token: bearer.value, PID: os.Getpid(), Workspace: cwd}); err != nil {
			fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
			return 1
		}
		defer removeStateIfOurs(*stateFile, os.Getpid())
	}

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err = <-served:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		err = hs.Shutdown(sctx)
		cancel()
		<-served
	}
	// Whatever ended the server, no debug adapter or debuggee survives it.
	srv.Close()
	proc.KillAll()
	if err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, context.DeadlineExceeded) {
		log.Error("server stopped", "err", err)
		return 1
	}
	return 0
}

// openLog opens the logger the flags ask for; logs never carry the token.
func openLog(file, level string, stderr io.Writer) (*slog.Logger, func(), error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, nil, fmt.Errorf("bad --log-level %q", level)
	}
	out, closeFn := stderr, func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("opening the log file: %w", err)
		}
		out, closeFn = f, func() { f.Close() }
	}
	return slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: lv})), closeFn, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set adds one value.
func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// reconnectGrace maps the flag, where 0 means no grace, to
// httpserver.Config's field, where 0 means the default.
func reconnectGrace(flagValue time.Duration) time.Duration {
	if flagValue <= 0 {
		return -1
	}
	return flagValue
}
