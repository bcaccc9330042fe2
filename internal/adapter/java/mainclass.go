package java

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// A source file may declare several top-level classes. `java File.java`
// (the single-file source launch) runs the first of them, which fails
// ("can't find main(String[]) method in class: Pair") when main is in
// another; such a file is compiled and run as the class that has main.

// topLevelType is a type declaration's keyword and name.
var topLevelType = regexp.MustCompile(`\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)`)

// mainMethod is the start of a main method's declaration.
var mainMethod = regexp.MustCompile(`\bstatic\s+(?:final\s+)?void\s+main\s*\(`)

// sourceClasses reads src's top-level type names in order and the first
// of them that declares a static main method ("" when none does). It
// skips comments, string and character literals; it is no parser, and a
// file it misreads runs as before (the first class).
func sourceClasses(src string) (top []string, withMain string) {
	code := stripLiterals(src)
	depth, current := 0, ""
	for i := 0; i < len(code); i++ {
		switch code[i] {
		case '{':
			depth++
			continue
		case '}':
			depth--
			continue
		}
		if depth == 0 {
			if m := topLevelType.FindStringSubmatchIndex(code[i:]); m != nil && m[0] == 0 {
				current = code[i+m[2] : i+m[3]]
				top = append(top, current)
				i += m[1] - 1
			}
		} else if depth == 1 && withMain == "" && current != "" {
			if m := mainMethod.FindStringIndex(code[i:]); m != nil && m[0] == 0 {
				withMain = current
			}
		}
	}
	return top, withMain
}

// stripLiterals blanks src's comments and string, text block and
// character literals (keeping its length), so that braces and words in
// them are not read as code.
func stripLiterals(src string) string {
	b := []byte(src)
	blank := func(from, to int) {
		for k := from; k < to && k < len(b); k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	for i := 0; i < len(b); i++ {
		rest := src[i:]
		switch {
		case strings.HasPrefix(rest, "//"):
			end := strings.IndexByte(rest, '\n')
			if end < 0 {
				end = len(rest)
			}
			blank(i, i+end)
			i += end
		case strings.HasPrefix(rest, "/*"):
			end := strings.Index(rest[2:], "*/")
			if end < 0 {
				end = len(rest) - 4
			}
			blank(i, i+end+4)
			i += end + 3
		case strings.HasPrefix(rest, `"""`):
			end := strings.Index(rest[3:], `"""`)
			if end < 0 {
				end = len(rest) - 6
			}
			blank(i, i+end+6)
			i += end + 5
		case rest[0] == '"' || rest[0] == '\'':
			q := rest[0]
			j := 1
			for j < len(rest) && rest[j] != q && rest[j] != '\n' {
				if rest[j] == '\\' {
					j++
				}
				j++
			}
			blank(i, i+j+1)
			i += j
		}
	}
	return string(b)
}

// mainElsewhereLaunch, for a lone .java file whose main is not in its
// first top-level class, compiles it with javac -g into a temp dir (the
// cleanup returned removes it) and sets the launch to run the class that
// has main. Any other program is left as it is (nil cleanup).
func mainElsewhereLaunch(ctx context.Context, javaPath, program string, args map[string]any, dryRun bool) (func(), error) {
	_, mainGiven := args["mainClass"]
	_, cpGiven := args["classPaths"]
	if mainGiven || cpGiven || !strings.HasSuffix(program, ".java") {
		return nil, nil
	}
	text, err := userfile.Read(program)
	if err != nil {
		return nil, nil // the launch itself says what is wrong with it
	}
	top, withMain := sourceClasses(string(text))
	if withMain == "" || len(top) == 0 || top[0] == withMain {
		return nil, nil
	}
	class := withMain
	if pkg := packageOf(program); pkg != "" {
		class = pkg + "." + withMain
	}
	out, cleanup := "a temp dir", func() {}
	if !dryRun {
		tmp, err := compileSingleFile(ctx, javaPath, program)
		if err != nil {
			return nil, err
		}
		out, cleanup = tmp, func() { os.RemoveAll(tmp) }
	}
	args["mainClass"] = class
	args["classPaths"] = []string{out}
	args[classPathOriginArg] = fmt.Sprintf("the file declares %s before %s, which has main: compiled with javac -g into %s", strings.Join(top[:1], ", "), withMain, out)
	return cleanup, nil
}
