package server

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// firstCallBugs are bugs of the kinds agents met in real projects (issue
// 39's trial), each small, each failing two or more calls away from its
// cause: is the first call's answer, record's report alone, decisive? It
// is when it shows the call that made the wrong value with that value.
var firstCallBugs = []struct {
	name, language, prog string
	// decisive are facts the answer must show together, in order: the
	// cause's call and the wrong value it made.
	decisive []string
	// test, where there is one, fails by the bug: debug_test's first
	// answer is measured too, against testDecisive: the cause's name with
	// the wrong value it made (the widths are never stored in a variable:
	// only a return value shows them).
	test         string
	testDecisive []string
}{
	// black: a tab counted as 1 column by one package and 4 by another.
	{"first_call_tab_width_disagrees", "python", "testdata/python/agentcost/indent.py",
		[]string{`token_indent(line='\treturn 1') -> 1`, `printer_indent(line='\treturn 1') -> 4`},
		"testdata/python/agentcost/test_indent.py", []string{`token_indent`, `-> 1`, `printer_indent`, `-> 4`}},
	// bignumber.js: a rounding branch that stores too few digits.
	{"first_call_rounding_keeps_too_few_digits", "javascript", "testdata/node/agentcost/round.js",
		[]string{`roundDigits(digits=[9, 9, 9, 6], intLength=1, dp=2) -> {digits: [1, 0, 0], intLength: 2}`},
		"testdata/node/agentcost/round.test.js", []string{`roundDigits`, `[1, 0, 0]`}},
	// jsoup: one token object renamed while a caller still holds it.
	{"first_call_token_renamed_while_held", "java", "testdata/java/agentcost/Tokens.java",
		[]string{`Tokens.next(name="close") -> Tokens$Token#1{name="close"}`, `Tokens.emit(tag=Tokens$Token#1{name="open"}) -> "close then close"`}, "", nil},
	// gojq: a variable slot reused across a function definition.
	{"first_call_slot_reused_across_definition", "go", "testdata/go/agentcost/slots/main.go",
		[]string{`slot(c=compiler`, `{next=0}) -> 0`, `slot(c=compiler`, `{next=0}) -> 0`, `defineFunc(c=compiler`, `{next=1}, params=1) -> [0]`}, "", nil},
	// berry: a register freed while its operand is still live.
	{"first_call_register_freed_while_live", "c", "testdata/native/c/agentcost/regs.c",
		[]string{`free_reg(r=0)`, `compile_operand(value=1) -> 0`, `compile_operand(value=2) -> 0`}, "", nil},
}

// benchFirstCalls records each of firstCallBugs once and reports whether
// that first answer was decisive on its own (1) or not (0), and its bytes.
func benchFirstCalls(b *testing.B) {
	for _, bug := range firstCallBugs {
		b.Run(bug.name, func(b *testing.B) {
			testenv.RequireAdapter(b, bug.language)
			prog := filepath.Join(repoRoot(b), bug.prog)
			for b.Loop() {
				measureFirstCall(b, prog, "", "record", map[string]any{"language": bug.language, "scriptPath": prog}, bug.decisive)
				if bug.test != "" {
					test := filepath.Join(repoRoot(b), bug.test)
					measureFirstCall(b, test, "debug_test-", "debug_test", map[string]any{"language": bug.language, "path": test}, bug.testDecisive)
					measureFirstCall(b, test, "debug_test_record-", "debug_test", map[string]any{"language": bug.language, "path": test, "record": true}, bug.testDecisive)
				}
			}
		})
	}
}

// measureFirstCall makes one call on prog as a new agent would and
// reports, under names that begin with prefix, whether its answer showed
// facts (decisive: 1 or 0) and its bytes.
func measureFirstCall(b *testing.B, prog, prefix, tool string, args map[string]any, facts []string) {
	m := newMeter(b, "", prog)
	answer := m.do(tool, args)
	decisive := 1.0
	if !showsFacts(answer, facts) {
		decisive = 0
		b.Logf("%s's first answer does not show %q: %s", tool, facts, answer)
	}
	m.close()
	b.ReportMetric(decisive, prefix+"decisive")
	b.ReportMetric(float64(m.bytes), prefix+"bytes")
}

// showsFacts reports whether an answer's text shows facts in order, its
// JSON escapes undone.
func showsFacts(answer string, facts []string) bool {
	text := strings.NewReplacer(`\u003e`, ">", `\\`, `\`, `\"`, `"`).Replace(answer)
	for _, fact := range facts {
		at := strings.Index(text, fact)
		if at < 0 {
			return false
		}
		text = text[at+len(fact):]
	}
	return true
}
