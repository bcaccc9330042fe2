package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// normalizeArgs checks a call's arguments against the tool's input schema
// before they are decoded, so that a wrong type is reported by the
// argument's name and JSON type (never a Go type), and it takes what
// clients send in place of the declared type: "true"/"false" for a boolean
// and JSON text for an array or object (MCP Inspector sends both that way),
// a number or boolean for a string, and null for "not given". Integers are
// left to Int, which takes numeric strings, and the arguments named in open
// to their own types' decoding (they take several spellings: openargs.go),
// tried here so that a failure names the argument.
func normalizeArgs(raw json.RawMessage, in *jsonschema.Schema, open map[string]reflect.Type) (json.RawMessage, error) {
	if err := checkArgNames(json.NewDecoder(bytes.NewReader(raw)), in); err != nil {
		return nil, err
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, fmt.Errorf("the arguments must be a JSON object, not %s", jsonKind(raw))
	}
	changed := false
	for name, value := range args {
		prop := in.Properties[name]
		if prop == nil {
			continue
		}
		if kind := jsonKind(value); kind == "null" {
			delete(args, name)
			changed = true
			continue
		}
		if t, isOpen := open[name]; isOpen {
			if err := json.Unmarshal(value, reflect.New(t).Interface()); err != nil {
				return nil, fmt.Errorf("argument %q: %w", name, err)
			}
			continue
		}
		fixed, err := asDeclared(value, prop.Type)
		if err != nil {
			return nil, fmt.Errorf("argument %q %w", name, err)
		}
		if fixed != nil {
			args[name] = fixed
			changed = true
		}
	}
	if !changed {
		return raw, nil
	}
	return json.Marshal(args)
}

// checkArgNames refuses arguments that name one thing twice: a key given
// twice, or a key that differs from a declared argument only in case
// ("sessionid", "SessionID", "ſessionId"). Go's decoder takes either,
// case-insensitively, one of them winning by order, so two readers of such
// arguments (the ownership check, the handler) could each see a different
// session; with these refused, every reader sees the one value given. It
// walks the value dec reads, nested objects against their own schemas.
func checkArgNames(dec *json.Decoder, schema *jsonschema.Schema) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("the arguments are not valid JSON: %w", err)
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			keyTok, err := dec.Token()
			if err != nil {
				return fmt.Errorf("the arguments are not valid JSON: %w", err)
			}
			key, _ := keyTok.(string)
			if seen[key] {
				return fmt.Errorf("argument %q is given twice; give it once", key)
			}
			seen[key] = true
			var prop *jsonschema.Schema
			if schema != nil {
				prop = schema.Properties[key]
				if prop == nil {
					for name := range schema.Properties {
						if strings.EqualFold(name, key) {
							return fmt.Errorf("argument %q is not %q: argument names are case-sensitive; give %s once, spelled so", key, name, name)
						}
					}
				}
			}
			if err := checkArgNames(dec, prop); err != nil {
				return err
			}
		}
		_, err = dec.Token() // the closing brace
	case json.Delim('['):
		var item *jsonschema.Schema
		if schema != nil {
			item = schema.Items
		}
		for dec.More() {
			if err := checkArgNames(dec, item); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	if err != nil {
		return fmt.Errorf("the arguments are not valid JSON: %w", err)
	}
	return nil
}

// asDeclared returns value converted to the declared JSON type, nil when it
// already has it (or is left to the decoder), or why it cannot be taken.
func asDeclared(value json.RawMessage, declared string) (json.RawMessage, error) {
	kind := jsonKind(value)
	var text string
	if kind == "a string" {
		_ = json.Unmarshal(value, &text)
		text = strings.TrimSpace(text)
	}
	switch declared {
	case "":
		return nil, nil
	case "boolean":
		if kind == "boolean" {
			return nil, nil
		}
		switch strings.ToLower(text) {
		case "true":
			return json.RawMessage("true"), nil
		case "false":
			return json.RawMessage("false"), nil
		}
		return nil, fmt.Errorf("must be true or false (got %s)", kind)
	case "integer":
		if kind == "a number" || kind == "a string" {
			return nil, nil
		}
		return nil, fmt.Errorf("must be a whole number (got %s)", kind)
	case "string":
		if kind == "a string" {
			return nil, nil
		}
		if kind == "a number" || kind == "boolean" {
			return json.Marshal(string(value))
		}
		return nil, fmt.Errorf("must be a string (got %s)", kind)
	case "array", "object":
		want := "an " + declared
		if kind == want {
			return nil, nil
		}
		if kind == "a string" && json.Valid([]byte(text)) && jsonKind(json.RawMessage(text)) == want {
			return json.RawMessage(text), nil
		}
		return nil, fmt.Errorf("must be %s (got %s)", want, kind)
	}
	return nil, nil
}

// jsonKind names the JSON type of a value the way an error to an agent
// should: "a string", "an array", "boolean", …
func jsonKind(value json.RawMessage) string {
	v := bytes.TrimSpace(value)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// decodeError says what json.Unmarshal found wrong in arguments that passed
// normalizeArgs (an element of an array, a member of an object) in JSON
// terms: the argument's path and the JSON type expected there.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return err
	}
	return fmt.Errorf("argument %q: got a %s, want %s", te.Field, te.Value, jsonTypeOf(te.Type))
}

// jsonTypeOf names the JSON type a Go type decodes from.
func jsonTypeOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return jsonTypeOf(t.Elem())
	}
	return "an object"
}
