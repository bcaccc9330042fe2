package session

import (
	"strings"
	"testing"

	"github.com/google/go-dap"
)

func TestLongValuesAreCutAndMarked(t *testing.T) {
	long := strings.Repeat("é", MaxValueLen)
	v := fromDAP(dap.Variable{Name: "blob", Value: long}, MaxValueLen)
	if !v.Truncated || len(v.Value) > MaxValueLen+len("…") || !strings.HasSuffix(v.Value, "…") {
		t.Errorf("long value: truncated=%v len=%d", v.Truncated, len(v.Value))
	}
	if !strings.HasPrefix(long, strings.TrimSuffix(v.Value, "…")) {
		t.Error("a cut must fall on a character boundary")
	}
	if short := fromDAP(dap.Variable{Name: "n", Value: "42"}, MaxValueLen); short.Truncated || short.Value != "42" {
		t.Errorf("short value changed: %+v", short)
	}
}

func TestSecretsAreMasked(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		masked      bool
	}{
		{"password", "'hunter2'", true},
		{"API_KEY", "'abc'", true},
		{"github_token", "'x'", true},
		{"config", "{'key': 'sk-live-0123456789abcdef'}", true},
		{"header", "'Bearer eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4'", true},
		{"aws", "'AKIAABCDEFGHIJKLMNOP'", true},
		{"password", "None", false},
		{"tokens", "", false},
		{"count", "42", false},
		{"name", "'ada'", false},
	} {
		v := fromDAP(dap.Variable{Name: tc.name, Value: tc.value}, MaxValueLen)
		if v.Masked != tc.masked {
			t.Errorf("%s=%s: masked=%v, want %v (%q)", tc.name, tc.value, v.Masked, tc.masked, v.Value)
		}
		if tc.masked && (strings.Contains(v.Value, "hunter2") || strings.Contains(v.Value, "0123456789abcdef") || strings.Contains(v.Value, "AKIAABCD")) {
			t.Errorf("%s: secret still visible: %q", tc.name, v.Value)
		}
	}
	// A container named like a secret keeps its summary; its members are judged by name.
	if v := fromDAP(dap.Variable{Name: "secrets", Value: "{...}", VariablesReference: 7}, MaxValueLen); v.Masked {
		t.Errorf("container masked: %+v", v)
	}
}

func TestMaskingCanBeTurnedOff(t *testing.T) {
	t.Setenv(MaskSecretsEnv, "0")
	if v := fromDAP(dap.Variable{Name: "password", Value: "'hunter2'"}, MaxValueLen); v.Masked || v.Value != "'hunter2'" {
		t.Errorf("with %s=0 values are shown: %+v", MaskSecretsEnv, v)
	}
}
