package server

import (
	"slices"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// Trace table kinds.
const (
	tableOfTracepoint = "tracepoint"
	tableOfFunction   = "function"
)

// Columns that are not collected values.
const (
	seqColumn    = "seq"
	timeColumn   = "time"
	threadColumn = "thread"
	returnColumn = "return"
)

// traceTable is get_trace's account of one tracepoint or traced function:
// where it is and what it collects, once, then one row of values per hit
// or call. A trace is read by a model: the names, place and times that a
// list of entries repeats on every hit cost more than the values.
type traceTable struct {
	BreakpointID int      `json:"breakpointId"`
	Kind         string   `json:"kind"`
	File         string   `json:"file,omitempty"`
	Line         int      `json:"line,omitempty"`
	Function     string   `json:"function,omitempty"`
	Columns      []string `json:"columns"`
	// Rows hold one cell per column: the value as the debugger shows it, a
	// traceError, or null when the entry had no such value.
	Rows [][]any `json:"rows"`
	// CostMs is how long the program was held, in all, for these rows
	// (tracepoints the server answers by stopping, evaluating and
	// continuing; 0 for logpoints).
	CostMs float64  `json:"costMs,omitempty"`
	Notes  []string `json:"notes,omitempty"`
}

// traceError is a cell whose value could not be had.
type traceError struct {
	Error string `json:"error"`
}

// tableRow is a row being built: its cells by column.
type tableRow struct {
	seq    uint64
	time   string
	thread int
	cells  map[string]any
}

// tableBuilder gathers one table's rows before their columns are known.
type tableBuilder struct {
	traceTable
	valueColumns []string
	rows         []*tableRow
	calls        map[uint64]*tableRow // a traced call's row by its entry's seq
}

func (t *tableBuilder) set(row *tableRow, column string, cell any) {
	if !slices.Contains(t.valueColumns, column) {
		t.valueColumns = append(t.valueColumns, column)
	}
	row.cells[column] = cell
}

func (t *tableBuilder) note(text string) {
	if text != "" && !slices.Contains(t.Notes, text) {
		t.Notes = append(t.Notes, text)
	}
}

// traceTables arranges trace entries as one table per tracepoint or traced
// function, in the order they first appear. A seq column is added when
// there are several tables (to order rows across them), a thread column
// when a table's rows come from several threads, a time column when asked.
func traceTables(entries []session.TraceEntry, times bool) []traceTable {
	var order []*tableBuilder
	byID := map[int]*tableBuilder{}
	tableFor := func(e session.TraceEntry, kind string) *tableBuilder {
		t := byID[e.BreakpointID]
		if t == nil {
			t = &tableBuilder{traceTable: traceTable{BreakpointID: e.BreakpointID, Kind: kind}, calls: map[uint64]*tableRow{}}
			if kind == tableOfFunction {
				t.Function = e.Function
			}
			byID[e.BreakpointID] = t
			order = append(order, t)
		}
		if t.File == "" && e.Kind != session.TraceReturn {
			t.File, t.Line = e.File, e.Line
		}
		if t.Function == "" {
			t.Function = e.Function
		}
		return t
	}
	newRow := func(t *tableBuilder, e session.TraceEntry) *tableRow {
		row := &tableRow{seq: e.Seq, time: e.Time.Format("15:04:05.000"), thread: e.ThreadID, cells: map[string]any{}}
		t.rows = append(t.rows, row)
		t.CostMs += e.CostMs
		return row
	}
	for _, e := range entries {
		switch e.Kind {
		case session.TraceHit:
			t := tableFor(e, tableOfTracepoint)
			row := newRow(t, e)
			for _, v := range e.Values {
				t.set(row, v.Name, cell(v))
			}
			t.note(e.Note)
		case session.TraceCall:
			t := tableFor(e, tableOfFunction)
			row := newRow(t, e)
			for _, v := range e.Values {
				t.set(row, v.Name, cell(v))
			}
			t.calls[e.Seq] = row
			t.note(e.Note)
		case session.TraceReturn:
			t := tableFor(e, tableOfFunction)
			row := t.calls[e.Call]
			if row == nil {
				// The call came in an earlier page.
				row = newRow(t, e)
			}
			switch {
			case e.Return != nil:
				row.cells[returnColumn] = cell(*e.Return)
			default:
				row.cells[returnColumn] = traceError{Error: e.Note}
			}
		case session.TraceNote:
			kind := tableOfTracepoint
			if e.Function != "" {
				kind = tableOfFunction
			}
			tableFor(e, kind).note(e.Note)
		}
	}
	tables := make([]traceTable, 0, len(order))
	for _, t := range order {
		tables = append(tables, t.finish(times, len(order) > 1))
	}
	return tables
}

// finish lays the rows out under their columns.
func (t *tableBuilder) finish(times, seqs bool) traceTable {
	var extra []string
	if seqs {
		extra = append(extra, seqColumn)
	}
	if times {
		extra = append(extra, timeColumn)
	}
	threads := map[int]bool{}
	for _, row := range t.rows {
		threads[row.thread] = true
	}
	if len(threads) > 1 {
		extra = append(extra, threadColumn)
	}
	values := t.valueColumns
	if t.Kind == tableOfFunction {
		values = append(values, returnColumn)
	}
	t.Columns = append(extra, values...)
	t.Rows = make([][]any, 0, len(t.rows))
	for _, row := range t.rows {
		cells := make([]any, 0, len(t.Columns))
		for _, c := range extra {
			switch c {
			case seqColumn:
				cells = append(cells, row.seq)
			case timeColumn:
				cells = append(cells, row.time)
			case threadColumn:
				cells = append(cells, row.thread)
			}
		}
		for _, c := range values {
			cells = append(cells, row.cells[c])
		}
		t.Rows = append(t.Rows, cells)
	}
	return t.traceTable
}

// cell is a collected value as a table shows it.
func cell(v session.TraceValue) any {
	if v.Error != "" {
		return traceError{Error: v.Error}
	}
	return v.Value
}
