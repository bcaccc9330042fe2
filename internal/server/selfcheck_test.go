package server

import (
	"os"
	"strings"
	"testing"
)

// TestListSupportedLanguagesCheck asks, as an agent would before it starts,
// whether debugging works here: every entry carries a check, the agreeing
// availability, and the watchpoint answer. dlv's path is forced wrong, so
// Go must come out missing with its install command while the other
// installed languages check ok.
func TestListSupportedLanguagesCheck(t *testing.T) {
	t.Setenv("DLV_PATH", "/nonexistent/dlv")
	h := newHarness(t)
	out := h.ok("list_supported_languages", map[string]any{"check": true, "timeout": 180000})
	if out.obj("watchpoints").str("reason") == "" {
		t.Errorf("watchpoints: %v", out["watchpoints"])
	}
	languages := out.list("languages")
	if len(languages) != out.num("count") || len(languages) < 2 {
		t.Fatalf("languages: %v", out)
	}
	for _, a := range languages {
		lang, check := a.str("id"), a.obj("check")
		t.Logf("%-10s %-7s %5d ms %s %s", lang, check.str("status"), check.num("ms"), check.str("error"), check.str("hint"))
		if ok := check["ok"] == true; ok != (check.str("status") == "ok") {
			t.Errorf("%s: ok=%v but status %q", lang, check["ok"], check.str("status"))
		}
		if installed := a["installed"] == true; installed == (check.str("status") == "missing") {
			t.Errorf("%s: installed=%v but check status %q", lang, a["installed"], check.str("status"))
		}
		switch check.str("status") {
		case "ok":
			if check.num("ms") <= 0 {
				t.Errorf("%s: ok without a time: %v", lang, check)
			}
		case "skipped":
			if check.str("error") == "" {
				t.Errorf("%s: skipped without a reason: %v", lang, check)
			}
		case "missing":
			if check.str("error") == "" || check.str("hint") == "" {
				t.Errorf("%s: missing without reason or install hint: %v", lang, check)
			}
			if os.Getenv("CI") == "true" && lang != "go" {
				t.Errorf("%s missing under CI: %v", lang, check)
			}
		case "failed":
			t.Errorf("%s failed at %s: %s (hint: %s)", lang, check.str("step"), check.str("error"), check.str("hint"))
		default:
			t.Errorf("%s: check status %q: %v", lang, check.str("status"), check)
		}
		switch lang {
		case "go":
			if check.str("status") != "missing" || !strings.Contains(check.str("error"), "DLV_PATH") || !strings.Contains(check.str("hint"), "go install") {
				t.Errorf("go with DLV_PATH forced wrong: %v", a)
			}
			if a["installed"] != false {
				t.Errorf("go should not be installed: %v", a)
			}
		case "mock":
			if check.str("status") != "skipped" {
				t.Errorf("mock has no check program: %v", check)
			}
		}
	}
}

// TestListSupportedLanguagesWithoutCheck stays a quick look: no check is
// run and no check fields appear.
func TestListSupportedLanguagesWithoutCheck(t *testing.T) {
	h := newHarness(t)
	out := h.ok("list_supported_languages", map[string]any{})
	if _, ok := out["watchpoints"]; ok {
		t.Errorf("watchpoints without check: %v", out["watchpoints"])
	}
	for _, a := range out.list("languages") {
		if _, ok := a["check"]; ok {
			t.Errorf("%s has a check without check: %v", a.str("id"), a)
		}
	}
	h.fail("list_supported_languages", map[string]any{"check": true, "timeout": -1}, "timeout -1 is negative")
}
