package server

import "testing"

// Every language whose adapter runs tests names its runner in
// list_supported_languages: an agent reads debugTest to know whether
// debug_test serves a TypeScript or Java project before it tries.
func TestListSupportedLanguagesNamesEveryTestRunner(t *testing.T) {
	h := newHarness(t)
	want := map[string]string{
		"python": "pytest", "go": "go test", "rust": "cargo test", "ruby": "minitest",
		"javascript": "node:test", "typescript": "node:test", "java": "JUnit",
	}
	got := map[string]string{}
	for _, l := range h.ok("list_supported_languages", nil).list("languages") {
		got[l.str("id")] = l.str("debugTest")
	}
	for id, runner := range want {
		if got[id] != runner {
			t.Errorf("%s's debugTest = %q, want %q", id, got[id], runner)
		}
	}
}
