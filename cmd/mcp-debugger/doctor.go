package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/selfcheck"
)

// availabilityTimeout bounds looking for the adapters (version probes).
const availabilityTimeout = 30 * time.Second

// doctor prints, per language, whether its adapter is installed; with
// --check it also debugs a tiny program per language and exits 1 when an
// installed language fails.
func doctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "also debug a tiny program per language and report whether that works")
	timeout := fs.Duration("timeout", selfcheck.DefaultTimeout, "with --check: the time each language's check may take")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	langs := fs.Args()
	if !*check && len(langs) > 0 {
		fmt.Fprintf(stderr, "mcp-debugger doctor: languages (%s) are only taken with --check\n", strings.Join(langs, " "))
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintf(stderr, "mcp-debugger doctor: --timeout must be positive, got %v\n", *timeout)
		return 2
	}

	// Ctrl-C during a check ends its sessions rather than leaving the
	// adapters behind.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	adapters, err := chosenAdapters(langs)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger doctor: %v\n", err)
		return 2
	}
	if !*check {
		printAvailability(stdout, adapters, availability(ctx, adapters))
		return 0
	}
	ids := make([]string, len(adapters))
	for i, a := range adapters {
		ids[i] = a.Language().ID
	}
	rep := selfcheck.Run(ctx, selfcheck.Options{Languages: ids, Timeout: *timeout})
	// Run has closed every session; this only guards against a process
	// that escaped them.
	proc.KillAll()
	printCheck(stdout, rep)
	if !rep.OK() {
		return 1
	}
	return 0
}

// chosenAdapters are the adapters of the languages named (ids or
// aliases), or all of them when none is.
func chosenAdapters(langs []string) ([]adapter.Adapter, error) {
	if len(langs) == 0 {
		return adapter.All(), nil
	}
	out := make([]adapter.Adapter, 0, len(langs))
	for _, l := range langs {
		a, ok := adapter.Lookup(l)
		if !ok {
			return nil, fmt.Errorf("unknown language %q; known: %s", l, strings.Join(adapter.IDs(), ", "))
		}
		out = append(out, a)
	}
	return out, nil
}

// availability looks for every adapter, bounded by availabilityTimeout.
func availability(ctx context.Context, adapters []adapter.Adapter) []adapter.Availability {
	ctx, cancel := context.WithTimeout(ctx, availabilityTimeout)
	defer cancel()
	out := make([]adapter.Availability, len(adapters))
	for i, a := range adapters {
		out[i] = a.Check(ctx)
	}
	return out
}

// statusAndDetails are the STATUS and DETAILS columns of an adapter.
func statusAndDetails(av adapter.Availability) (string, string) {
	if av.Installed {
		return "available", av.Path
	}
	details := av.Reason
	if av.InstallHint != "" {
		details += "; install: " + av.InstallHint
	}
	return "missing", details
}

func printAvailability(w io.Writer, adapters []adapter.Adapter, avail []adapter.Availability) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LANGUAGE\tSTATUS\tVERSION\tDETAILS")
	for i, a := range adapters {
		status, details := statusAndDetails(avail[i])
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.Language().ID, status, orDash(avail[i].Version), details)
	}
	tw.Flush()
}

// printCheck prints the availability table with each language's check
// (the availability the check itself found, so the two columns agree),
// then the failures in full (compiler output can span lines), the
// watchpoint probe and a summary.
func printCheck(w io.Writer, rep selfcheck.Report) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LANGUAGE\tSTATUS\tVERSION\tCHECK\tTIME\tDETAILS")
	var failed []selfcheck.Result
	counts := map[selfcheck.Status]int{}
	for _, r := range rep.Results {
		status, details := statusAndDetails(r.Availability)
		counts[r.Status]++
		took := "-"
		if r.Duration > 0 {
			took = short(r.Duration)
		}
		switch r.Status {
		case selfcheck.StatusFailed:
			failed = append(failed, r)
			details = "failed at " + r.Step + ": see below"
		case selfcheck.StatusSkipped:
			details = r.Error
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Language, status, orDash(r.Availability.Version), r.Status, took, details)
	}
	tw.Flush()
	for _, r := range failed {
		fmt.Fprintf(w, "\n%s failed at %s: %s\n", r.Language, r.Step, indent(r.Error))
		if r.Hint != "" {
			fmt.Fprintf(w, "  fix: %s\n", indent(r.Hint))
		}
	}
	wp := "not usable"
	if rep.Watchpoints.Usable {
		wp = "usable"
	}
	fmt.Fprintf(w, "\nhardware watchpoints: %s; %s\n", wp, rep.Watchpoints.Reason)
	fmt.Fprintf(w, "checked in %s: %d ok, %d failed, %d skipped, %d missing\n", short(rep.Duration),
		counts[selfcheck.StatusOK], counts[selfcheck.StatusFailed], counts[selfcheck.StatusSkipped], counts[selfcheck.StatusMissing])
}

// short writes a duration as people read it: 42ms, 9.4s.
func short(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// indent indents the continuation lines of a multi-line message under its
// first.
func indent(s string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
