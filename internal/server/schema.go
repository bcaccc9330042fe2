package server

import (
	"maps"
	"reflect"
	"slices"
	"strings"

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
const runNote = "a stop snapshot (its fields: see the instructions)"

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

// runShown are the run-control answer's fields its output schema declares:
// what a client checks first (did it stop, where, why); the others are
// described once, in the instructions.
var runShown = []string{"success", "state", "location"}

// compactOutputSchema keeps of out its top-level fields (of a run-control
// answer, runShown), each with its type and, for an object or a list of
// objects, the names of its fields (shapeOf). Only success is required: a
// failure answers {success: false, error, hint} in the same envelope, and
// error and hint are declared with the rest.
func compactOutputSchema(out *jsonschema.Schema, isRun bool) *jsonschema.Schema {
	compact := &jsonschema.Schema{Type: "object", Required: []string{"success"}, Properties: map[string]*jsonschema.Schema{
		"error": {Type: "string"},
		"hint":  {Type: "string"},
	}}
	if isRun {
		compact.Description = runNote
	}
	for name, field := range out.Properties {
		if isRun && slices.Contains(runFields, name) && !slices.Contains(runShown, name) {
			continue
		}
		kept := &jsonschema.Schema{Type: field.Type, Types: field.Types, Description: shapeOf(field)}
		dropNull(kept)
		compact.Properties[name] = kept
	}
	return compact
}

// shapeOf names the fields of an object, or of a list's objects, at most
// shapeFields of them ("{file, line, function}", "[{name, value, …}]"),
// in the order the answer has them; an object whose fields vary (a map)
// keeps its own description; "" for anything else.
func shapeOf(field *jsonschema.Schema) string {
	list := field.Items != nil
	obj := field
	if list {
		obj = field.Items
	}
	if len(obj.Properties) == 0 {
		if !list && (field.Type == "object" || slices.Contains(field.Types, "object")) {
			return field.Description
		}
		return ""
	}
	names := obj.PropertyOrder
	if len(names) == 0 {
		names = slices.Sorted(maps.Keys(obj.Properties))
	}
	if len(names) > shapeFields {
		names = append(slices.Clone(names[:shapeFields]), "…")
	}
	shape := "{" + strings.Join(names, ", ") + "}"
	if list {
		shape = "[" + shape + "]"
	}
	return shape
}

// shapeFields bounds the field names an output schema gives of a nested
// object: enough to know what it holds; the instructions and the answers
// say the rest.
const shapeFields = 4

// dropNull makes a type its value's alone ("object", not ["null",
// "object"]): an absent field says the same in fewer bytes.
func dropNull(s *jsonschema.Schema) {
	if i := slices.Index(s.Types, "null"); i >= 0 {
		s.Types = slices.Delete(slices.Clone(s.Types), i, i+1)
		if len(s.Types) == 1 {
			s.Type, s.Types = s.Types[0], nil
		}
	}
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

// sessionIDNote describes the sessionId argument wherever its field has no
// description of its own.
const sessionIDNote = "from create_debug_session"

// portableInput makes an input schema one that every model API takes as
// it is (schemacheck_test.go applies their rules): no additionalProperties
// anywhere (Gemini's `parameters` refuses the keyword; clients that want
// OpenAI's strict mode add "false" themselves, and the server ignores
// unknown arguments anyway), and an optional argument's type its value's
// alone ("boolean", not ["null", "boolean"]: leaving it out says the same,
// in fewer bytes of every client's context, and Gemini takes one type).
func portableInput(in *jsonschema.Schema) {
	in.AdditionalProperties = nil
	dropNull(in)
	for name, p := range in.Properties {
		if name == "sessionId" && p.Description == "" {
			p.Description = sessionIDNote
		}
		portableInput(p)
	}
	if in.Items != nil {
		portableInput(in.Items)
	}
}
