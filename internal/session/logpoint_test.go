package session

import (
	"reflect"
	"testing"
)

func TestSplitInterpolationNestsBracesAndKeepsAnUnclosedOne(t *testing.T) {
	cases := map[string][]messagePart{
		"i={i} w={w}":           {{text: "i="}, {text: "i", expression: true}, {text: " w="}, {text: "w", expression: true}},
		"{h.map { |k, v| k }}!": {{text: "h.map { |k, v| k }", expression: true}, {text: "!"}},
		"open {brace":           {{text: "open {brace"}},
		"plain":                 {{text: "plain"}},
	}
	for message, want := range cases {
		if got := splitInterpolation(message); !reflect.DeepEqual(got, want) {
			t.Errorf("splitInterpolation(%q) = %v, want %v", message, got, want)
		}
	}
}
