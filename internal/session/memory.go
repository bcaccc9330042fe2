package session

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// DataBreakpoint stops the program when a value is written (or read).
type DataBreakpoint struct {
	ID          int    `json:"id"`
	Expression  string `json:"expression"`
	AccessType  string `json:"accessType"`
	Description string `json:"description,omitempty"`
	Verified    bool   `json:"verified"`
	Message     string `json:"message,omitempty"`

	dataID any
}

// dataBreakpoints holds each run's data breakpoints. They watch addresses
// of one run of the program, so they belong to the run, not the session,
// and die with it; ended runs are dropped whenever the table is used.
var dataBreakpoints = struct {
	sync.Mutex
	nextID int
	byRun  map[*connection][]*DataBreakpoint
}{byRun: map[*connection][]*DataBreakpoint{}}

// noWatchpointsHint is what to do when data breakpoints are off.
func noWatchpointsHint(expression string) string {
	return fmt.Sprintf(`break_on_change {"expression": %q} stops where the value changes (by single steps); set_breakpoint with a condition on %s stops where a line sees the value you expect`, expression, expression)
}

// notSupported is the error for a request the session's adapter lacks.
func (s *Session) notSupported(what string) error {
	return errorf("list_supported_languages shows what each language offers", "%s is not supported by the %s debug adapter", what, s.Language.ID)
}

// SetDataBreakpoint watches expression (in frameID, default the current
// stop's frame) and stops the program when it is accessed: accessType is
// "write" (default), "read" or "readWrite", as the adapter allows.
func (s *Session) SetDataBreakpoint(ctx context.Context, expression string, frameID *int, accessType string) (*DataBreakpoint, []DataBreakpoint, error) {
	if strings.TrimSpace(expression) == "" {
		return nil, nil, errorf("pass the variable to watch, e.g. \"total\"", "expression is empty")
	}
	if accessType == "" {
		accessType = "write"
	}
	if accessType != "write" && accessType != "read" && accessType != "readWrite" {
		return nil, nil, errorf("use write, read or readWrite", "accessType %q is not one of write, read, readWrite", accessType)
	}
	r, st, err := s.pausedStop(ctx, "set a data breakpoint")
	if err != nil {
		return nil, nil, err
	}
	if !r.caps.SupportsDataBreakpoints || !r.conn.Quirks.Supports("dataBreakpointInfo") {
		return nil, nil, s.notSupported("set_data_breakpoint (data breakpoints)")
	}
	// The debugger accepts a watchpoint even where the CPU's debug
	// registers do not reach the program, which then runs past every write
	// (docs/adapter-quirks.md, lldb-18, delve-13): a wrong answer, so
	// refuse instead.
	if wp := adapter.Watchpoints(ctx); !wp.Usable {
		return nil, nil, errorf(noWatchpointsHint(expression), "set_data_breakpoint cannot be relied on here, so it is off: %s. Use break_on_change instead (it finds the change by single steps), or a breakpoint with a condition on the value", wp.Reason)
	}
	args := map[string]any{"name": expression}
	frame := 0
	switch {
	case frameID != nil:
		frame = *frameID
	case len(st.frames) > 0:
		frame = st.frames[st.top].Id
	}
	if frame != 0 {
		args["frameId"] = frame
	}
	// DAP names a variable by its container and name; a bare name with
	// only a frame is the adapter's to interpret (lldb-dap takes the value
	// as an address: docs/adapter-quirks.md, lldb-20), so find the
	// variable among the frame's scopes first.
	if ref := s.scopeHolding(ctx, r, st, frame, expression); ref != 0 {
		args["variablesReference"] = ref
	}
	var info dap.DataBreakpointInfoResponseBody
	if err := r.call(ctx, "dataBreakpointInfo", args, &info); err != nil {
		return nil, nil, adapterError(fmt.Sprintf("watch %q", expression), err, "watch a variable in scope (get_local_variables lists them)")
	}
	if info.DataId == nil {
		return nil, nil, errorf("watch a variable that lives in memory (a local, a global, a field)", "cannot watch %q: %s", expression, info.Description)
	}
	if len(info.AccessTypes) > 0 && !accessAllowed(info.AccessTypes, accessType) {
		return nil, nil, errorf(fmt.Sprintf("use one of %v", info.AccessTypes), "the debugger cannot watch %q for %s access", expression, accessType)
	}

	dataBreakpoints.Lock()
	defer dataBreakpoints.Unlock()
	for run := range dataBreakpoints.byRun {
		if run.ended() {
			delete(dataBreakpoints.byRun, run)
		}
	}
	dataBreakpoints.nextID++
	bp := &DataBreakpoint{ID: dataBreakpoints.nextID, Expression: expression, AccessType: accessType, Description: info.Description, dataID: info.DataId}
	all := append(dataBreakpoints.byRun[r], bp)
	list := make([]map[string]any, len(all))
	for i, b := range all {
		list[i] = map[string]any{"dataId": b.dataID, "accessType": b.AccessType}
	}
	var body dap.SetDataBreakpointsResponseBody
	if err := r.call(ctx, "setDataBreakpoints", map[string]any{"breakpoints": list}, &body); err != nil {
		return nil, nil, adapterError(fmt.Sprintf("watch %q", expression), err, "")
	}
	for i, b := range all {
		if i < len(body.Breakpoints) {
			b.Verified, b.Message = body.Breakpoints[i].Verified, body.Breakpoints[i].Message
		}
	}
	if !bp.Verified {
		// The refused one is not kept: the next set sends only the others.
		msg := bp.Message
		if msg == "" {
			msg = "the debugger refused it (hardware watchpoints are few; remove another first)"
		}
		return nil, nil, errorf("watch fewer or smaller values", "cannot watch %q: %s", expression, msg)
	}
	dataBreakpoints.byRun[r] = all
	out := make([]DataBreakpoint, len(all))
	for i, b := range all {
		out[i] = *b
	}
	return bp, out, nil
}

// removeDataBreakpoint drops one of the run's data breakpoints and sends
// the rest, on a context of its own: a cancelled call still cleans up.
func (s *Session) removeDataBreakpoint(ctx context.Context, r *connection, id int) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), removeTimeout)
	defer cancel()
	dataBreakpoints.Lock()
	defer dataBreakpoints.Unlock()
	all := slices.DeleteFunc(slices.Clone(dataBreakpoints.byRun[r]), func(b *DataBreakpoint) bool { return b.ID == id })
	dataBreakpoints.byRun[r] = all
	if r.ended() {
		return
	}
	list := make([]map[string]any, len(all))
	for i, b := range all {
		list[i] = map[string]any{"dataId": b.dataID, "accessType": b.AccessType}
	}
	if err := r.call(ctx, "setDataBreakpoints", map[string]any{"breakpoints": list}, nil); err != nil {
		s.log.Warn("removing a data breakpoint", "id", id, "err", err)
	}
}

// scopeHolding returns the variablesReference of the frame's scope that has
// a variable called name (0 when none does, or on any error).
func (s *Session) scopeHolding(ctx context.Context, r *connection, st *Stop, frame int, name string) int {
	if frame == 0 {
		return 0
	}
	if len(st.frames) > 0 && frame == st.frames[st.top].Id && st.localsRef != 0 {
		for _, v := range st.locals {
			if v.Name == name {
				return st.localsRef
			}
		}
	}
	scopes, err := fetchScopes(ctx, r, frame)
	if err != nil {
		return 0
	}
	for _, sc := range scopes {
		if sc.Expensive || sc.VariablesReference == 0 {
			continue
		}
		vars, err := fetchVariables(ctx, r, sc.VariablesReference, 0, 0)
		if err != nil {
			continue
		}
		for _, v := range vars {
			if v.Name == name {
				return sc.VariablesReference
			}
		}
	}
	return 0
}

func accessAllowed(types []dap.DataBreakpointAccessType, want string) bool {
	for _, t := range types {
		if string(t) == want {
			return true
		}
	}
	return false
}

// Instruction is one disassembled machine instruction.
type Instruction struct {
	Address     string `json:"address"`
	Instruction string `json:"instruction"`
	Bytes       string `json:"bytes,omitempty"`
	Symbol      string `json:"symbol,omitempty"`
	File        string `json:"file,omitempty"`
	Line        int    `json:"line,omitempty"`
	Current     bool   `json:"current,omitempty"`
}

// Disassemble returns count instructions around address (default: the
// current instruction of the stop's frame), half of them before it.
func (s *Session) Disassemble(ctx context.Context, address string, frameID *int, count int) ([]Instruction, error) {
	if count <= 0 {
		count = 20
	}
	count = min(count, 400)
	r, st, err := s.pausedStop(ctx, "disassemble")
	if err != nil {
		return nil, err
	}
	if !r.caps.SupportsDisassembleRequest || !r.conn.Quirks.Supports("disassemble") {
		return nil, s.notSupported("disassemble")
	}
	current := ""
	if len(st.frames) > 0 {
		frame := st.frames[st.top]
		if frameID != nil {
			for _, f := range st.frames {
				if f.Id == *frameID {
					frame = f
				}
			}
		}
		current = frame.InstructionPointerReference
	}
	offset := 0
	if address == "" {
		if current == "" {
			return nil, errorf("pass address", "the debugger gave no instruction address for this frame")
		}
		address, offset = current, -count/2
	}
	var body dap.DisassembleResponseBody
	args := map[string]any{"memoryReference": address, "instructionOffset": offset, "instructionCount": count, "resolveSymbols": true}
	if err := r.call(ctx, "disassemble", args, &body); err != nil {
		return nil, adapterError("disassemble at "+address, err, "pass an address such as 0x401000, or none for the current instruction")
	}
	out := make([]Instruction, 0, len(body.Instructions))
	for _, in := range body.Instructions {
		ins := Instruction{Address: in.Address, Instruction: in.Instruction, Bytes: in.InstructionBytes, Symbol: in.Symbol, Line: in.Line}
		if in.Location != nil {
			ins.File = in.Location.Path
		}
		ins.Current = current != "" && sameAddress(in.Address, current)
		out = append(out, ins)
	}
	return out, nil
}

// sameAddress compares two addresses as numbers ("0x0040" == "0x40").
func sameAddress(a, b string) bool {
	x, err1 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(a), "0x"), 16, 64)
	y, err2 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(b), "0x"), 16, 64)
	return err1 == nil && err2 == nil && x == y
}

// Memory is a block of the program's memory.
type Memory struct {
	Address    string `json:"address"`
	Count      int    `json:"count"`
	Unreadable int    `json:"unreadableBytes,omitempty"`
	Hex        string `json:"hex"`
	Dump       string `json:"dump"`
}

// maxMemoryRead bounds one read: a model reads the dump.
const maxMemoryRead = 4096

// ReadMemory reads count bytes at address (a number, or a memory reference
// the debugger gave), or at the value of expression (a pointer or an
// array) when address is empty.
func (s *Session) ReadMemory(ctx context.Context, address, expression string, offset, count int) (*Memory, error) {
	if count <= 0 {
		count = 64
	}
	if count > maxMemoryRead {
		return nil, errorf(fmt.Sprintf("read at most %d bytes per call", maxMemoryRead), "count %d is too large", count)
	}
	r, _, err := s.pausedStop(ctx, "read memory")
	if err != nil {
		return nil, err
	}
	if !r.caps.SupportsReadMemoryRequest || !r.conn.Quirks.Supports("readMemory") {
		return nil, s.notSupported("read_memory")
	}
	if address == "" {
		if expression == "" {
			return nil, errorf("pass address (e.g. 0x7ffd1000) or expression (e.g. &total)", "read_memory needs an address or an expression")
		}
		address, err = s.memoryReference(ctx, expression)
		if err != nil {
			return nil, err
		}
	}
	var body dap.ReadMemoryResponseBody
	args := map[string]any{"memoryReference": address, "offset": offset, "count": count}
	if err := r.call(ctx, "readMemory", args, &body); err != nil {
		return nil, adapterError("read memory at "+address, err, "check the address; get_local_variables and evaluate_expression (&name) give addresses")
	}
	data, err := base64.StdEncoding.DecodeString(body.Data)
	if err != nil {
		return nil, fmt.Errorf("read memory: undecodable data from the adapter: %w", err)
	}
	return &Memory{Address: body.Address, Count: len(data), Unreadable: body.UnreadableBytes, Hex: fmt.Sprintf("%x", data), Dump: hexDump(body.Address, data)}, nil
}

// memoryReference evaluates expression and returns where its value lives
// in memory: the adapter's memoryReference, or the value itself if it is
// an address.
func (s *Session) memoryReference(ctx context.Context, expression string) (string, error) {
	r, st, err := s.pausedStop(ctx, "read memory")
	if err != nil {
		return "", err
	}
	args := map[string]any{"expression": expression, "context": "watch"}
	if len(st.frames) > 0 {
		args["frameId"] = st.frames[st.top].Id
	}
	var body dap.EvaluateResponseBody
	if err := r.call(ctx, "evaluate", args, &body); err != nil {
		return "", adapterError(fmt.Sprintf("evaluate %q", expression), err, "")
	}
	if body.MemoryReference != "" {
		return body.MemoryReference, nil
	}
	for _, field := range strings.Fields(body.Result) {
		if strings.HasPrefix(field, "0x") {
			return field, nil
		}
	}
	return "", errorf("pass &"+expression+" for the address of a variable", "the value of %s is not an address", expression)
}

// hexDump renders bytes as lines of "address: hex  ascii", 16 per line.
func hexDump(address string, data []byte) string {
	base, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(address), "0x"), 16, 64)
	if err != nil {
		base = 0
	}
	var b strings.Builder
	for off := 0; off < len(data); off += 16 {
		line := data[off:min(off+16, len(data))]
		fmt.Fprintf(&b, "0x%012x: ", base+uint64(off))
		for i := range 16 {
			if i < len(line) {
				fmt.Fprintf(&b, "%02x ", line[i])
			} else {
				b.WriteString("   ")
			}
		}
		b.WriteByte(' ')
		for _, c := range line {
			if c >= 0x20 && c < 0x7f {
				b.WriteByte(c)
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
