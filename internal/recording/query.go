package recording

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// DefaultLimit is how many rows a query answers when it is not told.
const DefaultLimit = 50

// functionsNamed bounds the names an error lists when a function is not
// in the recording.
const functionsNamed = 12

// Columns that are not arguments.
const (
	idColumn     = "id"
	callerColumn = "caller"
	returnColumn = "return"
	callColumn   = "call"
	lineColumn   = "line"
	nameColumn   = "name"
	valueColumn  = "value"
)

// ErrNoLines means the function's lines were not recorded, so its locals
// have no history: record again naming it in lines.
var ErrNoLines = errors.New("no line events recorded for the function")

// ErrUnknownFunction means no call of the function was recorded.
var ErrUnknownFunction = errors.New("no call of the function was recorded")

// Table is one function's rows: its columns once, then a row per call (or
// per value, for a history).
type Table struct {
	Function string   `json:"function"`
	File     string   `json:"file,omitempty"`
	Columns  []string `json:"columns"`
	Rows     [][]any  `json:"rows"`
}

// Raised is a return cell for a call an exception ended.
type Raised struct {
	Raised string `json:"raised"`
	Line   int    `json:"line"`
}

// Page is a query's answer: its tables, and where to go on from.
type Page struct {
	Tables []Table `json:"tables"`
	// Count is how many rows the tables hold.
	Count int `json:"count"`
	// More: rows follow; pass NextCursor as cursor to read them.
	More       bool `json:"more,omitempty"`
	NextCursor int  `json:"nextCursor,omitempty"`
}

// CallsQuery asks for calls: of a function (Fn), or all; only those
// between two call ids (From, To, inclusive, 0 for open), where Where
// holds, the first one alone, after Cursor (a call id).
type CallsQuery struct {
	Fn       string
	Where    *Predicate
	First    bool
	From, To int
	Cursor   int
	Limit    int
}

// Calls answers a CallsQuery: a table per function, a row per call with
// its id, arguments and return value (or the exception it raised).
func (r *Recording) Calls(q CallsQuery) (*Page, error) {
	ids, err := r.candidates(q)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(r.path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	b := newPageBuilder(r, q.Fn == "")
	for _, id := range ids {
		if b.page.Count == limit {
			b.page.More, b.page.NextCursor = true, b.last
			break
		}
		c := r.calls[id]
		row, values, err := b.callRow(f, c)
		if err != nil {
			return nil, err
		}
		if q.Where != nil && !q.Where.Holds(values) {
			continue
		}
		b.add(c, row)
		if q.First {
			break
		}
	}
	return b.finish(), nil
}

// candidates are the ids a calls query looks at, in order.
func (r *Recording) candidates(q CallsQuery) ([]int, error) {
	ids := r.ids
	if q.Fn != "" {
		names := r.functions(q.Fn)
		if len(names) == 0 {
			return nil, fmt.Errorf("%w: %s (recorded: %s)", ErrUnknownFunction, q.Fn, r.someFunctions())
		}
		ids = nil
		for _, n := range names {
			ids = append(ids, r.byFn[n]...)
		}
		slices.Sort(ids)
	}
	start := sort.SearchInts(ids, max(q.Cursor+1, q.From))
	ids = ids[start:]
	if q.To > 0 {
		ids = ids[:sort.SearchInts(ids, q.To+1)]
	}
	return ids, nil
}

// someFunctions names recorded functions, for an error about another.
func (r *Recording) someFunctions() string {
	names := make([]string, 0, len(r.byFn))
	for n := range r.byFn {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) > functionsNamed {
		names = append(names[:functionsNamed], fmt.Sprintf("… %d more", len(names)-functionsNamed))
	}
	return strings.Join(names, ", ")
}

// pageBuilder gathers rows into a table per function.
type pageBuilder struct {
	r       *Recording
	callers bool
	page    Page
	byFn    map[string]int
	last    int
	// shownBy is the call whose row first showed a long value on this
	// page: a later row shows it as "(as #id)" (one object passed down a
	// chain of calls is read once).
	shownBy map[string]int
}

func newPageBuilder(r *Recording, callers bool) *pageBuilder {
	return &pageBuilder{r: r, callers: callers, page: Page{Tables: []Table{}}, byFn: map[string]int{}, shownBy: map[string]int{}}
}

// once is a cell of call id's row: a long value an earlier row of the
// page showed is named by that row's call instead.
func (b *pageBuilder) once(id int, cell any) any {
	v, ok := cell.(string)
	if !ok || len(v) < repeatMin {
		return cell
	}
	if earlier, seen := b.shownBy[v]; seen {
		return "(as #" + strconv.Itoa(earlier) + ")"
	}
	b.shownBy[v] = id
	return cell
}

// callRow is a call's row being built: its cells in column order, then
// its return cell.
type callRow struct {
	names []string
	cells []any
	ret   any
}

// callRow reads a call's row, and its values by name for a predicate.
func (b *pageBuilder) callRow(f *os.File, c *Call) (*callRow, map[string]string, error) {
	start, err := b.r.readEvent(f, c.start)
	if err != nil {
		return nil, nil, err
	}
	row := &callRow{names: []string{idColumn}, cells: []any{c.ID}}
	values := map[string]string{}
	if b.callers {
		row.names, row.cells = append(row.names, callerColumn), append(row.cells, c.Parent)
	}
	for _, a := range start.Args {
		if len(a) == 2 {
			row.names, row.cells = append(row.names, a[0]), append(row.cells, a[1])
			values[a[0]] = a[1]
		}
	}
	if c.Ended() {
		end, err := b.r.readEvent(f, c.end)
		if err != nil {
			return nil, nil, err
		}
		if c.Unwound {
			row.ret = Raised{Raised: c.ExcType, Line: end.Line}
		} else {
			row.ret, values[returnColumn] = deref(end.V), deref(end.V)
		}
	}
	return row, values, nil
}

func (b *pageBuilder) add(c *Call, row *callRow) {
	i, ok := b.byFn[c.Fn]
	if !ok {
		i = len(b.page.Tables)
		b.byFn[c.Fn] = i
		b.page.Tables = append(b.page.Tables, Table{Function: c.Fn, File: b.r.shortPath(c.File), Rows: [][]any{}})
	}
	t := &b.page.Tables[i]
	for _, name := range row.names {
		if !slices.Contains(t.Columns, name) {
			t.Columns = append(t.Columns, name)
		}
	}
	cells := make([]any, len(t.Columns), len(t.Columns)+1)
	for k, name := range row.names {
		cells[slices.Index(t.Columns, name)] = b.once(c.ID, row.cells[k])
	}
	t.Rows = append(t.Rows, append(cells, b.once(c.ID, row.ret)))
	b.page.Count++
	b.last = c.ID
}

// finish puts the return column last, where every row has its cell.
func (b *pageBuilder) finish() *Page {
	for i := range b.page.Tables {
		t := &b.page.Tables[i]
		width := len(t.Columns)
		for j, row := range t.Rows {
			// Columns added after this row was made (a *args call with
			// more arguments): the row has no cell for them.
			if len(row) < width+1 {
				ret := row[len(row)-1]
				row = append(row[:len(row)-1], make([]any, width+1-len(row))...)
				t.Rows[j] = append(row, ret)
			}
		}
		t.Columns = append(t.Columns, returnColumn)
	}
	return &b.page
}

// HistoryQuery asks for the values a local of a function took (all its
// locals when Name is empty), after Cursor (an event's ordinal).
type HistoryQuery struct {
	Fn, Name string
	Cursor   int
	Limit    int
}

// History answers a HistoryQuery from the set events of the function's
// calls: a row per value with the call and the line that set it.
func (r *Recording) History(q HistoryQuery) (*Page, error) {
	names := r.functions(q.Fn)
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: %s (recorded: %s)", ErrUnknownFunction, q.Fn, r.someFunctions())
	}
	ids := map[int]bool{}
	lined := false
	for _, n := range names {
		lined = lined || r.hasLines[n]
		for _, id := range r.byFn[n] {
			ids[id] = true
		}
	}
	if !lined {
		return nil, fmt.Errorf("%w: %s", ErrNoLines, q.Fn)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	t := Table{Function: strings.Join(names, ", "), Columns: []string{callColumn, lineColumn, valueColumn}, Rows: [][]any{}}
	if q.Name == "" {
		t.Columns = []string{callColumn, lineColumn, nameColumn, valueColumn}
	}
	page := &Page{}
	f, err := os.Open(r.path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	ordinal := 0
	errFull := errors.New("page full")
	err = scanEvents(f, func(e *event, _ span) error {
		ordinal++
		if e.K != "set" || ordinal <= q.Cursor || !ids[e.ID] {
			return nil
		}
		var name string
		if json.Unmarshal(e.N, &name) != nil || (q.Name != "" && name != q.Name) {
			return nil
		}
		if len(t.Rows) == limit {
			page.More = true
			return errFull
		}
		row := []any{e.ID, e.Line, deref(e.V)}
		if q.Name == "" {
			row = []any{e.ID, e.Line, name, deref(e.V)}
		}
		t.Rows = append(t.Rows, row)
		page.NextCursor = ordinal
		return nil
	})
	if err != nil && !errors.Is(err, errFull) {
		return nil, fmt.Errorf("read recording: %w", err)
	}
	if !page.More {
		page.NextCursor = 0
	}
	page.Tables, page.Count = []Table{t}, len(t.Rows)
	return page, nil
}
