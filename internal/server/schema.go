package server

import (
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// Every client puts the whole tools/list answer into the agent's context
// before the first call, so the output schemas say only what a client needs
// to check an answer: the top-level fields and their types. What each field
// means, and the shape of a snapshot (the answer of every run-control tool),
// is said once, in the server's instructions (instructions.md). Inferred in
// full, the snapshot's schema alone was 4.2 KB, repeated on 12 tools.

// runNote describes, in an output schema, the fields every run-control
// answer has (runResult's, the stop snapshot's among them).
const runNote = "plus a run-control answer's fields (see the instructions)"

// runFields are the top-level names of runResult's fields.
var runFields = func() []string {
	s, err := jsonschema.For[runResult](schemaOptions)
	if err != nil {
		panic("run result schema: " + err.Error())
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	return names
}()

// compactOutputSchema keeps of out its top-level fields, each with its type
// only; when the result is a run-control answer, its common fields are
// named by runNote instead of listed. Nothing is required: a failure
// answers {success: false, error, hint} in the same envelope.
func compactOutputSchema(out *jsonschema.Schema, isRun bool) *jsonschema.Schema {
	compact := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	if isRun {
		compact.Description = runNote
	}
	for name, field := range out.Properties {
		if isRun && slices.Contains(runFields, name) {
			continue
		}
		compact.Properties[name] = &jsonschema.Schema{Type: field.Type, Types: field.Types}
	}
	return compact
}

// isRunResult reports whether t, a result struct, is a run-control
// answer: runResult, or a struct that embeds it.
func isRunResult(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[runResult]() {
		return true
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	for f := range t.Fields() {
		if !f.Anonymous {
			continue
		}
		if f.Type == reflect.TypeFor[runResult]() || isRunResult(f.Type) {
			return true
		}
	}
	return false
}

// dropNullTypes makes an optional argument's type its value's alone
// ("boolean", not ["null", "boolean"]): leaving it out says the same, in
// fewer bytes of every client's context.
func dropNullTypes(in *jsonschema.Schema) {
	for _, p := range in.Properties {
		if i := slices.Index(p.Types, "null"); i >= 0 {
			p.Types = slices.Delete(p.Types, i, i+1)
			if len(p.Types) == 1 {
				p.Type, p.Types = p.Types[0], nil
			}
		}
	}
}
