package node

import (
	"encoding/json"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// formatValue renders a value as a JavaScript reader writes it: strings
// quoted, objects as a short preview ({a: 1, b: "x"}, [1, 2], Map(1)
// {"k" => 1}), functions by their signature. children is set when the
// value has properties to expand.
func formatValue(o *cdp.RemoteObject) (value, typ string, children bool) {
	switch o.Type {
	case "undefined":
		return "undefined", "undefined", false
	case "string":
		return quote(o.Value), "string", false
	case "number", "boolean", "bigint":
		if o.UnserializableValue != "" {
			return o.UnserializableValue, o.Type, false
		}
		if o.Description != "" {
			return o.Description, o.Type, false
		}
		return string(o.Value), o.Type, false
	case "symbol":
		return o.Description, "symbol", false
	case "function":
		return signature(o.Description), "function", false
	case "object":
		if o.Subtype == "null" {
			return "null", "null", false
		}
		typ = o.ClassName
		if typ == "" {
			typ = "object"
		}
		if o.Preview != nil && o.Subtype != "error" {
			return formatPreview(o.Preview), typ, o.ObjectID != ""
		}
		desc := o.Description
		if o.Subtype == "error" {
			desc, _, _ = strings.Cut(desc, "\n")
		}
		return desc, typ, o.ObjectID != ""
	}
	return o.Description, o.Type, o.ObjectID != ""
}

func quote(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return string(raw)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// signature is a function's header, not its whole source.
func signature(src string) string {
	line, _, _ := strings.Cut(src, "\n")
	if i := strings.Index(line, "{"); i > 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if len(line) > 120 {
		line = line[:120] + "…"
	}
	return line
}

// formatPreview renders an object preview.
func formatPreview(p *cdp.ObjectPreview) string {
	var items []string
	for _, e := range p.Entries {
		v := formatNested(&e.Value)
		if e.Key != nil {
			v = formatNested(e.Key) + " => " + v
		}
		items = append(items, v)
	}
	array := p.Subtype == "array" || p.Subtype == "typedarray"
	if len(p.Entries) == 0 {
		for _, prop := range p.Properties {
			v := propertyValue(prop)
			if !array {
				v = prop.Name + ": " + v
			}
			items = append(items, v)
		}
	}
	if p.Overflow {
		items = append(items, "…")
	}
	body := strings.Join(items, ", ")
	switch {
	case array:
		return "[" + body + "]"
	case p.Description == "Object" || p.Description == "":
		return "{" + body + "}"
	case p.Subtype == "date" || p.Subtype == "regexp" || len(items) == 0 && p.Subtype != "map" && p.Subtype != "set":
		return p.Description
	}
	return p.Description + " {" + body + "}"
}

// formatNested renders a value inside a preview: primitives in full,
// objects by their kind.
func formatNested(p *cdp.ObjectPreview) string {
	if p.Type != "object" || p.Subtype == "null" {
		if p.Type == "string" {
			raw, _ := json.Marshal(p.Description)
			return quote(raw)
		}
		return p.Description
	}
	if len(p.Properties) > 0 || len(p.Entries) > 0 {
		return formatPreview(p)
	}
	return abbreviate(p.Description, p.Subtype)
}

func propertyValue(prop cdp.PropertyPreview) string {
	switch {
	case prop.ValuePreview != nil:
		return formatNested(prop.ValuePreview)
	case prop.Type == "string":
		raw, _ := json.Marshal(prop.Value)
		return quote(raw)
	case prop.Type == "function":
		return "ƒ"
	case prop.Type == "object" && prop.Subtype != "null":
		return abbreviate(prop.Value, prop.Subtype)
	case prop.Type == "accessor":
		return "(getter)"
	}
	return prop.Value
}

// abbreviate is how an object nested too deep for the preview reads.
func abbreviate(desc, subtype string) string {
	switch {
	case desc == "Object":
		return "{…}"
	case subtype == "array":
		return desc
	}
	return desc
}
