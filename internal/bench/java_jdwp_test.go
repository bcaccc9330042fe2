package bench

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// rawJDWPSession does the benchmark session's work in raw JDWP against a
// JVM of its own, the floor for the Java adapter: the breakpoint by source
// file name through ClassPrepare, the top frame's locals (frames, variable
// table, values, strings), a line step, a continue, and the expression's
// operands read and combined here (what evaluate needs at least). quick
// re-arms TCP_QUICKACK after every read, as the adapter does.
func rawJDWPSession(ctx context.Context, tg target, quick bool) (map[string]time.Duration, error) {
	t := map[string]time.Duration{}
	start := time.Now()
	cmd := exec.Command("java", "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0", tg.scriptPath)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p, err := proc.Start(cmd)
	if err != nil {
		return nil, err
	}
	defer p.Kill()
	sc := bufio.NewScanner(stdout)
	port := ""
	for port == "" && sc.Scan() {
		port = strings.TrimPrefix(sc.Text(), "Listening for transport dt_socket at address: ")
	}
	// The rest of stdout is drained until the JVM dies.
	go func() {
		for sc.Scan() {
		}
	}()
	nc, err := (&net.Dialer{}).DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		return nil, err
	}
	var opts jdwp.Options
	if quick {
		opts.AfterRead = adapter.QuickAck(nc)
	}
	vm, err := jdwp.New(ctx, nc, opts)
	if err != nil {
		nc.Close()
		return nil, err
	}
	defer vm.Close()
	next := func(kind byte) (jdwp.Event, error) {
		for {
			select {
			case set, ok := <-vm.Events():
				if !ok {
					return jdwp.Event{}, fmt.Errorf("JVM gone waiting for event %d", kind)
				}
				for _, e := range set.Events {
					if e.Kind == kind {
						return e, nil
					}
				}
			case <-ctx.Done():
				return jdwp.Event{}, ctx.Err()
			}
		}
	}
	base := tg.file[strings.LastIndexByte(tg.file, '/')+1:]
	if _, err := vm.SetEvent(ctx, jdwp.EventClassPrepare, jdwp.SuspendAll, jdwp.SourceNameMatch(base)); err != nil {
		return nil, err
	}
	if _, err := next(jdwp.EventVMStart); err != nil {
		return nil, err
	}
	if err := vm.Resume(ctx); err != nil {
		return nil, err
	}
	prep, err := next(jdwp.EventClassPrepare)
	if err != nil {
		return nil, err
	}
	methods, err := vm.Methods(ctx, prep.TypeID)
	if err != nil {
		return nil, err
	}
	for _, m := range methods {
		lt, err := vm.LineTable(ctx, prep.TypeID, m.ID)
		if err != nil {
			continue
		}
		for _, e := range lt.Lines {
			if int(e.Line) == tg.line {
				loc := jdwp.Location{TypeTag: jdwp.TypeClass, Class: prep.TypeID, Method: m.ID, Index: e.Index}
				if _, err := vm.SetEvent(ctx, jdwp.EventBreakpoint, jdwp.SuspendAll, jdwp.LocationOnly(loc)); err != nil {
					return nil, err
				}
				break
			}
		}
	}
	if err := vm.Resume(ctx); err != nil {
		return nil, err
	}
	hit, err := next(jdwp.EventBreakpoint)
	if err != nil {
		return nil, err
	}
	t["first_stop"] = time.Since(start)
	thread := hit.Thread

	// locals: the top frame, its live variables' values, strings read.
	locals := func() (map[string]jdwp.Value, error) {
		n, err := vm.FrameCount(ctx, thread)
		if err != nil {
			return nil, err
		}
		frames, err := vm.Frames(ctx, thread, 0, int32(min(n, 20)))
		if err != nil || len(frames) == 0 {
			return nil, fmt.Errorf("frames: %v", err)
		}
		f := frames[0]
		vt, err := vm.VariableTable(ctx, f.Location.Class, f.Location.Method)
		if err != nil {
			return nil, err
		}
		var slots []jdwp.SlotRequest
		var names []string
		for _, v := range vt.Variables {
			if v.CodeIndex <= f.Location.Index && f.Location.Index < v.CodeIndex+uint64(v.Length) {
				slots = append(slots, jdwp.SlotRequest{Slot: v.Slot, Tag: v.Signature[0]})
				names = append(names, v.Name)
			}
		}
		vals, err := vm.FrameValues(ctx, thread, f.ID, slots)
		if err != nil {
			return nil, err
		}
		out := map[string]jdwp.Value{}
		for i, v := range vals {
			if v.Tag == jdwp.TagString && v.Object != 0 {
				if _, err := vm.StringValue(ctx, v.Object); err != nil {
					return nil, err
				}
			}
			out[names[i]] = v
		}
		return out, nil
	}
	timed := func(op string, f func() error) error {
		s := time.Now()
		err := f()
		t[op] = time.Since(s)
		return err
	}
	if err := timed("locals", func() error { _, err := locals(); return err }); err != nil {
		return nil, err
	}
	var stepID int32
	if err := timed("step_over", func() error {
		var err error
		if stepID, err = vm.SetEvent(ctx, jdwp.EventSingleStep, jdwp.SuspendAll, jdwp.StepModifier(thread, jdwp.StepLine, jdwp.StepOver)); err != nil {
			return err
		}
		if err := vm.Resume(ctx); err != nil {
			return err
		}
		_, err = next(jdwp.EventSingleStep)
		return err
	}); err != nil {
		return nil, err
	}
	if err := vm.ClearEvent(ctx, jdwp.EventSingleStep, stepID); err != nil {
		return nil, err
	}
	if err := timed("continue", func() error {
		if err := vm.Resume(ctx); err != nil {
			return err
		}
		_, err := next(jdwp.EventBreakpoint)
		return err
	}); err != nil {
		return nil, err
	}
	if err := timed("evaluate", func() error {
		vals, err := locals()
		if err != nil {
			return err
		}
		if _, ok := vals["i"]; !ok {
			return fmt.Errorf("no local i in %v", vals)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	// What the MCP continue also carries: the locals of the new stop.
	t["continue"+withInfo] = t["continue"] + t["evaluate"]
	err = timed("close", func() error {
		p.Kill()
		vm.Close()
		return nil
	})
	return t, err
}
