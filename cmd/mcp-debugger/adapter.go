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
	"strings"
	"syscall"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// serveAdapter serves a built-in adapter over DAP on stdin/stdout.
func serveAdapter(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("adapter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logFile := fs.String("log-file", "", "write the adapter's logs to this file")
	var lang string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		lang, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	builtins := builtinLanguages()
	if lang == "" {
		fmt.Fprintf(stderr, "mcp-debugger adapter: name a language: %s\n", strings.Join(builtins, ", "))
		return 2
	}
	a, ok := adapter.Lookup(lang)
	b, builtin := a.(adapter.Builtin)
	if !ok || !builtin {
		fmt.Fprintf(stderr, "mcp-debugger adapter: %q has no built-in adapter; built in: %s\n", lang, strings.Join(builtins, ", "))
		return 2
	}
	log := slog.New(slog.DiscardHandler)
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-debugger adapter: %v\n", err)
			return 1
		}
		defer f.Close()
		log = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	err := b.ServeDAP(ctx, stdioConn{stdin, stdout}, log)
	proc.KillAll()
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "mcp-debugger adapter: %v\n", err)
		return 1
	}
	return 0
}

// builtinLanguages lists the ids of the adapters built into this binary.
func builtinLanguages() []string {
	var ids []string
	for _, a := range adapter.All() {
		if _, ok := a.(adapter.Builtin); ok {
			ids = append(ids, a.Language().ID)
		}
	}
	return ids
}

// stdioConn is a DAP connection on the process's stdin and stdout.
type stdioConn struct {
	io.Reader
	io.Writer
}

// Close closes stdin, which ends a server's read loop.
func (c stdioConn) Close() error {
	if f, ok := c.Reader.(*os.File); ok {
		return f.Close()
	}
	return nil
}
