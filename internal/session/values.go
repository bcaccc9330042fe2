package session

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/google/go-dap"
)

// Variable is a value as tools return it.
type Variable struct {
	Name               string     `json:"name"`
	Value              string     `json:"value"`
	Type               string     `json:"type,omitempty"`
	VariablesReference int        `json:"variablesReference,omitempty"`
	Truncated          bool       `json:"truncated,omitempty"`
	Masked             bool       `json:"masked,omitempty"`
	Children           []Variable `json:"children,omitempty"`
}

// MaxValueLen is where a value is cut (and marked truncated).
const MaxValueLen = 1024

// MaskSecretsEnv turns secret masking off when set to 0 or false.
const MaskSecretsEnv = "MCP_DEBUGGER_MASK_SECRETS"

var (
	secretName = regexp.MustCompile(`(?i)(passw(or)?d|passwd|secret|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key|credential|auth[_-]?(key|token)|bearer|cookie|session[_-]?key|signing[_-]?key)`)
	// Well-known credential shapes, matched anywhere in a value.
	secretValue = regexp.MustCompile(`(sk-[A-Za-z0-9_-]{12,}|sk_(live|test)_[A-Za-z0-9]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|AKIA[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----)`)
)

// maskingEnabled is read per call so tests and users can flip it.
func maskingEnabled() bool {
	v := strings.ToLower(strings.TrimSpace(os.Getenv(MaskSecretsEnv)))
	return v != "0" && v != "false" && v != "off"
}

// looksScalar reports whether a value of a secret-named variable should
// be hidden: containers are left alone (their members are judged by name).
func looksScalar(value string, ref int) bool {
	return ref == 0 && value != "" && value != "None" && value != "null" && value != "nil" && value != `""` && value != "''"
}

// maskValue hides secrets: the whole value when the name says secret, or
// the matching part when the value has a known credential shape.
func maskValue(name, value string, ref int) (string, bool) {
	if !maskingEnabled() {
		return value, false
	}
	if name != "" && secretName.MatchString(name) && looksScalar(value, ref) {
		return fmt.Sprintf("<masked secret, %d chars; set %s=0 to show>", utf8.RuneCountInString(value), MaskSecretsEnv), true
	}
	if secretValue.MatchString(value) {
		return secretValue.ReplaceAllStringFunc(value, func(m string) string {
			return fmt.Sprintf("<masked %d chars>", len(m))
		}), true
	}
	return value, false
}

// Cut shortens s to about n bytes at a rune boundary, marking the cut with
// an ellipsis; the bool says whether it cut.
func Cut(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…", true
}

// shapeValue masks and truncates one value.
func shapeValue(name, value string, ref, limit int) (string, bool, bool) {
	value, masked := maskValue(name, value, ref)
	value, truncated := Cut(value, limit)
	return value, truncated, masked
}

func fromDAP(v dap.Variable, limit int) Variable {
	value, truncated, masked := shapeValue(v.Name, v.Value, v.VariablesReference, limit)
	return Variable{
		Name:               v.Name,
		Value:              value,
		Type:               v.Type,
		VariablesReference: v.VariablesReference,
		Truncated:          truncated,
		Masked:             masked,
	}
}
