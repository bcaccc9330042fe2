package session

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Adapters treat a breakpoint on a line without code each their own way:
// debugpy moves it back to the previous line with code (out of a gap between
// two functions into the first one), Delve refuses it ("could not find
// statement"; docs/adapter-quirks.md, debugpy-10, delve-16), and before the
// start none of them is asked. So the server places such a breakpoint itself,
// from the source, the same way for every adapter.

// hashCommentExts are the source kinds whose comments start with '#';
// the others are taken to use // and /* */.
var hashCommentExts = map[string]bool{".py": true, ".pyw": true, ".rb": true, ".mock": true}

// declarationWords start a line that declares a function, method, type or
// module, at any depth (a method in a class): code that runs when the
// program defines it, not the code an agent looking at the gap before it
// means to stop at.
var declarationWords = map[string]bool{
	"def": true, "class": true, "module": true, "func": true, "fn": true, "fun": true,
	"function": true, "async": true, "pub": true, "impl": true, "interface": true,
	"public": true, "private": true, "protected": true, "override": true,
}

// topLevelDeclarationWords start a declaration at the top level only;
// inside a function they begin statements (a C static local).
var topLevelDeclarationWords = map[string]bool{"static": true, "struct": true, "export": true, "type": true}

// codeLines tells which lines of a file hold code (not blank, not only a
// comment).
func codeLines(path string, lines []string) []bool {
	hash := hashCommentExts[strings.ToLower(filepath.Ext(path))]
	code := make([]bool, len(lines))
	inBlock := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case hash:
			code[i] = t != "" && !strings.HasPrefix(t, "#")
		case inBlock:
			inBlock = !strings.Contains(t, "*/")
		case strings.HasPrefix(t, "/*"):
			inBlock = !strings.Contains(t[2:], "*/")
		default:
			code[i] = t != "" && !strings.HasPrefix(t, "//")
		}
	}
	return code
}

// indentOf is the width of a line's leading white space.
func indentOf(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// declares reports whether a line starts a declaration at any depth. A
// decorator or annotation belongs to the declaration below it.
func declares(line string) bool {
	t := strings.TrimSpace(line)
	first, _, _ := strings.Cut(t, " ")
	return declarationWords[first] || strings.HasPrefix(t, "@")
}

// opensTopLevelBlock reports whether a top-level line starts a function,
// type or block rather than being a statement of the program's top level.
func opensTopLevelBlock(line string) bool {
	t := strings.TrimSpace(line)
	first, _, _ := strings.Cut(t, " ")
	return declares(t) || topLevelDeclarationWords[first] || strings.HasSuffix(t, "{") || strings.HasSuffix(t, ":")
}

// placeOnCode returns the line a breakpoint asked for on line binds: the
// line itself when it holds code; else the next line with code when that
// line is in the same block (not a declaration, and indented or, at the
// top level, a statement after top-level code). Otherwise the breakpoint is refused,
// and the error names the nearest lines with code.
func placeOnCode(path string, line int) (int, error) {
	lines, err := readLines(path)
	if err != nil || line < 1 || line > len(lines) {
		return line, nil
	}
	code := codeLines(path, lines)
	if code[line-1] {
		return line, nil
	}
	prev, next := 0, 0
	for i := line - 1; i >= 1 && prev == 0; i-- {
		if code[i-1] {
			prev = i
		}
	}
	for i := line + 1; i <= len(lines) && next == 0; i++ {
		if code[i-1] {
			next = i
		}
	}
	if next != 0 && sameBlock(lines, prev, next) {
		return next, nil
	}
	return 0, errorf(nearestCodeHint(lines, prev, next), "line %d has no code (blank or comment only), and the next code is outside its block", line)
}

// sameBlock reports whether next, the first code after a gap, continues the
// block of prev, the last code before it (0: none).
func sameBlock(lines []string, prev, next int) bool {
	n := lines[next-1]
	switch {
	case declares(n):
		return false
	case indentOf(n) > 0:
		return true
	case prev != 0 && indentOf(lines[prev-1]) > 0:
		return false
	}
	return !opensTopLevelBlock(n)
}

func nearestCodeHint(lines []string, prev, next int) string {
	var near []string
	for _, l := range []int{prev, next} {
		if l != 0 {
			near = append(near, fmt.Sprintf("%d (%s)", l, strings.TrimSpace(lines[l-1])))
		}
	}
	if len(near) == 0 {
		return "the file has no line with code; check the file"
	}
	return "set it on a line with code; the nearest are " + strings.Join(near, " and ")
}
