package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// An open map (the environment, an adapter's launch fields) cannot be
// declared as a JSON object every model API takes: Gemini's `parameters`
// refuses additionalProperties and an object without properties, and
// OpenAI's strict mode wants every object closed. So an environment is
// declared a list of "KEY=VALUE" strings and adapter fields a string
// holding a JSON object; both still take the object clients sent before.

// EnvVars are environment variables, declared as ["KEY=VALUE", …].
type EnvVars map[string]string

// UnmarshalJSON takes ["KEY=VALUE", …], [{"name", "value"}, …], an object
// {"KEY": "VALUE"} (values other than strings as their JSON text), or any
// of those as JSON text in a string.
func (e *EnvVars) UnmarshalJSON(b []byte) error {
	vars := EnvVars{}
	switch jsonKind(b) {
	case "null":
		*e = nil
		return nil
	case "a string":
		var text string
		if err := json.Unmarshal(b, &text); err != nil {
			return fmt.Errorf("environment: %w", err)
		}
		text = strings.TrimSpace(text)
		if text == "" {
			*e = nil
			return nil
		}
		if k := jsonKind(json.RawMessage(text)); k == "an object" || k == "an array" {
			return e.UnmarshalJSON([]byte(text))
		}
		// One variable, "KEY=VALUE".
		return e.UnmarshalJSON(fmt.Appendf(nil, "[%s]", b))
	case "an object":
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("environment: %w", err)
		}
		for k, v := range m {
			vars[k] = scalarText(v)
		}
	case "an array":
		var items []json.RawMessage
		if err := json.Unmarshal(b, &items); err != nil {
			return fmt.Errorf("environment: %w", err)
		}
		for _, item := range items {
			var pair struct {
				Name  string          `json:"name"`
				Value json.RawMessage `json:"value"`
			}
			var text string
			switch {
			case json.Unmarshal(item, &text) == nil:
				k, v, ok := strings.Cut(text, "=")
				if !ok || k == "" {
					return fmt.Errorf("environment variable %q is not KEY=VALUE", text)
				}
				vars[k] = v
			case json.Unmarshal(item, &pair) == nil && pair.Name != "":
				vars[pair.Name] = scalarText(pair.Value)
			default:
				return fmt.Errorf("environment variable %s is neither \"KEY=VALUE\" nor {name, value}", item)
			}
		}
	default:
		return fmt.Errorf("must be a list of \"KEY=VALUE\" strings (got %s)", jsonKind(b))
	}
	*e = vars
	return nil
}

// scalarText is a JSON value as an environment variable holds it: a
// string's text, anything else its JSON.
func scalarText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(v))
}

// JSONObject is an adapter's fields, declared as a string holding a JSON
// object.
type JSONObject map[string]any

// UnmarshalJSON takes an object, or a string holding one ("" is none).
func (o *JSONObject) UnmarshalJSON(b []byte) error {
	switch jsonKind(b) {
	case "null":
		*o = nil
		return nil
	case "a string":
		var text string
		if err := json.Unmarshal(b, &text); err != nil {
			return err
		}
		text = strings.TrimSpace(text)
		if text == "" {
			*o = nil
			return nil
		}
		if jsonKind(json.RawMessage(text)) != "an object" || !json.Valid([]byte(text)) {
			return fmt.Errorf("want a JSON object such as {\"justMyCode\": false}, got %q", text)
		}
		b = []byte(text)
	case "an object":
	default:
		return fmt.Errorf("want a JSON object (or one as a string), got %s", jsonKind(b))
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*o = m
	return nil
}

// The declarations of the open maps, for schemaOptions.
var (
	envVarsSchema    = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}}
	jsonObjectSchema = &jsonschema.Schema{Type: "string"}
)

// openArgNames are the JSON names of In's fields that take more than one
// JSON spelling (an open map), with their types: normalizeArgs leaves
// their values to the type's own decoding.
func openArgNames(t reflect.Type) map[string]reflect.Type {
	names := map[string]reflect.Type{}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return names
	}
	for f := range t.Fields() {
		if f.Anonymous {
			maps.Copy(names, openArgNames(f.Type))
			continue
		}
		if f.Type != reflect.TypeFor[EnvVars]() && f.Type != reflect.TypeFor[JSONObject]() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		names[name] = f.Type
	}
	return names
}
