package server

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Agents reach these tools through model APIs that each take a subset of
// JSON Schema, and one declaration a model API refuses fails the whole
// request: the agent loses every tool of every server. These tests apply
// each API's published rules to tools/list, profile by profile.

// toolsOf lists the tools a server with the profile offers, as JSON.
func toolsOf(t *testing.T, profile Profile) (tools []map[string]any, size int) {
	t.Helper()
	h := newHarnessOffering(t, profile)
	list, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Fatal(err)
	}
	return decoded.Tools, len(raw)
}

// openAIStrictKeywords are the keywords a function's parameters may use in
// OpenAI's strict mode that Gemini also takes (OpenAI, "Structured Outputs",
// Supported schemas: keywords outside the supported list are refused;
// additionalProperties must be false; every property must be required).
var openAIStrictKeywords = []string{"type", "description", "properties", "required", "items", "enum", "additionalProperties"}

// geminiKeywords are the fields of Gemini's Schema object, the OpenAPI 3.0
// subset its FunctionDeclaration.parameters takes (ai.google.dev, API
// reference, "Schema"); anything else is "Unknown name" (additionalProperties,
// $ref, $defs, oneOf, allOf, const, …).
var geminiKeywords = []string{
	"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
	"pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum",
}

// geminiTypes are Gemini's Schema types, spelled as JSON Schema's (its
// Type enum: STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT); one type per
// schema, never a list.
var geminiTypes = []string{"string", "number", "integer", "boolean", "array", "object"}

var (
	// OpenAI: a function's name is a-z, A-Z, 0-9, underscores and dashes, at
	// most 64 characters.
	openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	// Gemini: a function's name starts with a letter or an underscore, then
	// a-z, A-Z, 0-9, underscores, dots, colons and dashes, at most 64 (63 in
	// older versions of the reference: the stricter is checked).
	geminiName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,62}$`)
	// Gemini: a parameter's name starts with a letter or an underscore,
	// then a-z, A-Z, 0-9 and underscores, at most 64 characters.
	geminiParam = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`)
)

const (
	// cursorMaxTools is how many tools Cursor takes from all servers
	// together; a client that takes fewer keeps the first (tools/list is
	// alphabetical), dropping the rest.
	cursorMaxTools = 40
	// cursorMaxName bounds a server's name and a tool's together, as
	// Cursor shows them (it warns past 60 characters); "mcp-debugger" is
	// the name our setup prints.
	cursorMaxName = 60
	// openAIMaxDepth and openAIMaxProperties are strict mode's limits on a
	// schema (nesting levels, properties in all); the older, lower figures
	// of OpenAI's documentation, so that every model still in use takes it.
	openAIMaxDepth      = 5
	openAIMaxProperties = 100
)

// schemaProblems lists what a model API refuses in an input schema; path
// names where ("start_debugging.env").
type schemaProblems struct {
	problems []string
	props    int
}

func (p *schemaProblems) add(path, rule string, args ...any) {
	p.problems = append(p.problems, path+": "+fmt.Sprintf(rule, args...))
}

// check walks a schema node: depth is its nesting level (the parameters
// object is 1).
func (p *schemaProblems) check(path string, node map[string]any, depth int) {
	if depth > openAIMaxDepth {
		p.add(path, "nested %d levels deep, over OpenAI strict's %d", depth, openAIMaxDepth)
	}
	for key := range node {
		if !slices.Contains(geminiKeywords, key) {
			p.add(path, "Gemini parameters: unknown field %q", key)
		}
		if !slices.Contains(openAIStrictKeywords, key) {
			p.add(path, "OpenAI strict: keyword %q is not supported", key)
		}
	}
	if _, has := node["additionalProperties"]; has {
		// Gemini refuses the keyword; OpenAI's strict conversion (the
		// Agents SDK's) refuses any value but false, and adds false itself.
		p.add(path, "declares additionalProperties (Gemini: unknown field; OpenAI strict: only false, added by the client)")
	}
	typ, isString := node["type"].(string)
	if !isString {
		p.add(path, "type %v: Gemini takes one type per schema", node["type"])
		return
	}
	if !slices.Contains(geminiTypes, typ) {
		p.add(path, "type %q is not one of Gemini's", typ)
	}
	if node["description"] == nil && depth > 1 && !strings.HasSuffix(path, "[]") {
		p.add(path, "the argument has no description")
	}
	switch typ {
	case "object":
		props, _ := node["properties"].(map[string]any)
		if len(props) == 0 {
			// Gemini: "properties: should be non-empty for OBJECT type";
			// OpenAI strict: an object without properties can only be {}.
			p.add(path, "an object without properties (an open map)")
		}
		required, _ := node["required"].([]any)
		for _, r := range required {
			if _, declared := props[r.(string)]; !declared {
				p.add(path, "requires %q, which it does not declare", r)
			}
		}
		for name, sub := range props {
			p.props++
			if !geminiParam.MatchString(name) {
				p.add(path, "Gemini: parameter name %q", name)
			}
			subNode, ok := sub.(map[string]any)
			if !ok {
				p.add(path+"."+name, "not a schema")
				continue
			}
			p.check(path+"."+name, subNode, depth+1)
		}
	case "array":
		items, ok := node["items"].(map[string]any)
		if !ok {
			// Both want to know what a list holds.
			p.add(path, "an array without items")
			return
		}
		p.check(path+"[]", items, depth+1)
	}
}

func TestEveryModelAPITakesEveryTool(t *testing.T) {
	for _, profile := range Profiles {
		t.Run(string(profile), func(t *testing.T) {
			tools, _ := toolsOf(t, profile)
			if profile != ProfileAll && len(tools) > cursorMaxTools {
				t.Errorf("Cursor: %d tools, over its %d", len(tools), cursorMaxTools)
			}
			rejected := 0
			for _, tool := range tools {
				name, _ := tool["name"].(string)
				var p schemaProblems
				if !openAIName.MatchString(name) {
					p.add(name, "OpenAI: function name")
				}
				if !geminiName.MatchString(name) {
					p.add(name, "Gemini: function name")
				}
				if len("mcp-debugger")+len(name) > cursorMaxName {
					p.add(name, "Cursor: server and tool name over %d characters", cursorMaxName)
				}
				if d, _ := tool["description"].(string); d == "" {
					p.add(name, "no description (Gemini requires one)")
				}
				in, _ := tool["inputSchema"].(map[string]any)
				p.check(name, in, 1)
				if p.props > openAIMaxProperties {
					p.add(name, "%d properties, over OpenAI strict's %d", p.props, openAIMaxProperties)
				}
				if len(p.problems) > 0 {
					rejected++
					t.Errorf("refused:\n  %s", strings.Join(p.problems, "\n  "))
				}
			}
			t.Logf("%d tools, %d rejected", len(tools), rejected)
		})
	}
}

// The checker must catch what the model APIs refused before: an open map
// (Gemini's "Unknown name additionalProperties", "properties: should be
// non-empty for OBJECT type") and a ["null", …] type.
func TestSchemaCheckCatchesOpenMaps(t *testing.T) {
	var p schemaProblems
	p.check("start_debugging", map[string]any{
		"type": "object",
		"properties": map[string]any{
			"env":      map[string]any{"type": "object", "description": "x", "additionalProperties": map[string]any{"type": "string"}},
			"stopAt":   map[string]any{"type": []any{"null", "object"}, "description": "x"},
			"maxBytes": map[string]any{"type": "integer", "minimum": 0, "description": "x"},
		},
	}, 1)
	joined := strings.Join(p.problems, "\n")
	for _, want := range []string{"additionalProperties", "without properties", "one type per schema", `"minimum"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("the check misses %q:\n%s", want, joined)
		}
	}
}
