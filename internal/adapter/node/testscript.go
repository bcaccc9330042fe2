package node

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// testScriptArg is the launch argument naming the package.json test
// script a debug_test run took its node options from; the runtime line
// quotes it.
const testScriptArg = "testScript"

// testScript is a package.json scripts.test that runs node:test
// (`node --test ...`, `tsx --test ...`), read for what it means to a run
// of one test file under the debugger.
type testScript struct {
	// text is the script as written; dir is its package.json's directory,
	// where npm runs it.
	text string
	dir  string
	// options are the node options it runs the tests with, less --test
	// and the options of the runner that spawns one process per file
	// (concurrency, isolation, reporters, coverage, timeouts, watching).
	options []string
	env     map[string]string
	// paths are the files, directories or globs it names.
	paths []string
}

// projectTestScript finds the nearest package.json at or above dir that
// has a test script; runsNodeTest says that script runs node:test (false
// when there is none).
func projectTestScript(dir string) (script testScript, runsNodeTest bool) {
	for {
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil && json.Unmarshal(data, &pkg) == nil && pkg.Scripts["test"] != "" {
			script, runsNodeTest = parseTestScript(pkg.Scripts["test"])
			script.dir = dir
			return script, runsNodeTest
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return testScript{}, false
		}
		dir = parent
	}
}

// valueFlags take their value as the next word when not written flag=value.
var valueFlags = []string{
	"--import", "--require", "-r", "--loader", "--experimental-loader", "--conditions", "-C", "--env-file",
	"--input-type", "--test-name-pattern", "--test-skip-pattern", "--test-reporter", "--test-reporter-destination",
	"--test-concurrency", "--test-shard", "--test-timeout", "--watch-path", "--tsconfig",
}

// runnerOnlyFlags shape node --test's orchestration of child processes, or
// would end a test paused at a breakpoint (timeouts, watching, force exit);
// a single file run under the debugger leaves them out. --tsconfig and
// --no-cache are tsx's own.
var runnerOnlyFlags = []string{
	"--test", "--watch", "--watch-path", "--test-concurrency", "--test-isolation", "--experimental-test-isolation",
	"--test-reporter", "--test-reporter-destination", "--test-shard", "--test-timeout", "--test-force-exit",
	"--experimental-test-coverage", "--test-coverage-include", "--test-coverage-exclude", "--test-coverage-lines",
	"--test-coverage-branches", "--test-coverage-functions", "--tsconfig", "--no-cache",
}

// parseTestScript reads the first command of a script (commands joined by
// &&, ||, ; or |) that runs node --test or tsx --test, after any VAR=value
// assignments and cross-env, npx or exec before it.
func parseTestScript(text string) (testScript, bool) {
	script := testScript{text: text, env: map[string]string{}}
	for _, command := range regexp.MustCompile(`&&|\|\||;|\|`).Split(text, -1) {
		words := shellWords(command)
		for len(words) > 0 {
			if name, value, ok := strings.Cut(words[0], "="); ok && regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`).MatchString(name) {
				script.env[name] = value
			} else if !slices.Contains([]string{"cross-env", "npx", "exec"}, words[0]) {
				break
			}
			words = words[1:]
		}
		if len(words) < 2 || !slices.Contains(words, "--test") {
			continue
		}
		switch filepath.Base(words[0]) {
		case "node":
		case "tsx":
			// tsx --test is node --test with tsx's loader.
			script.options = append(script.options, "--import", "tsx")
		default:
			continue
		}
		script.readWords(words[1:])
		return script, true
	}
	return testScript{text: text}, false
}

// readWords sorts a node command's words into options and paths.
func (s *testScript) readWords(words []string) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") {
			s.paths = append(s.paths, w)
			continue
		}
		name, _, hasValue := strings.Cut(w, "=")
		option := []string{w}
		if !hasValue && slices.Contains(valueFlags, name) && i+1 < len(words) {
			i++
			option = append(option, words[i])
		}
		if !slices.Contains(runnerOnlyFlags, name) {
			s.options = append(s.options, option...)
		}
	}
}

// withoutNamePatterns drops the script's own test name filters, which a
// run of one named test replaces.
func withoutNamePatterns(options []string) []string {
	var out []string
	for i := 0; i < len(options); i++ {
		name, _, hasValue := strings.Cut(options[i], "=")
		if name == "--test-name-pattern" || name == "--test-skip-pattern" {
			if !hasValue {
				i++
			}
			continue
		}
		out = append(out, options[i])
	}
	return out
}

// shellWords splits a command as sh would, for the quoting package.json
// scripts use: single and double quotes, backslash escapes.
func shellWords(command string) []string {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range command {
		switch {
		case escaped:
			word.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

// defaultTestFile is node --test's choice of files when given none, or a
// directory: *.test.js, *-test.js, *_test.js, test-*.js, test.js, and
// anything under a test directory (with .cjs, .mjs and TypeScript's
// extensions alike).
var defaultTestFile = regexp.MustCompile(`(^|/)(test/.*|[^/]*[._-]test|test-[^/]*|test)\.[cm]?[jt]s$`)

// testFilesIn lists the test files the script runs that lie in dir.
func (s *testScript) testFilesIn(dir string) ([]string, error) {
	var runs []func(rel string) bool
	var files []string
	for _, p := range s.paths {
		abs := filepath.Join(s.dir, p)
		st, err := os.Stat(abs)
		switch {
		case err == nil && !st.IsDir():
			files = append(files, abs)
		case err == nil:
			prefix := filepath.ToSlash(strings.TrimPrefix(filepath.Clean(p), "./")) + "/"
			runs = append(runs, func(rel string) bool { return strings.HasPrefix(rel, prefix) && defaultTestFile.MatchString(rel) })
		default:
			runs = append(runs, globPattern(p).MatchString)
		}
	}
	if len(s.paths) == 0 {
		runs = append(runs, defaultTestFile.MatchString)
	}
	err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != s.dir {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(s.dir, path)
		if slices.ContainsFunc(runs, func(run func(string) bool) bool { return run(filepath.ToSlash(rel)) }) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("looking for the test files of %s: %w", s.dir, err)
	}
	return slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(files))), func(f string) bool {
		rel, err := filepath.Rel(dir, f)
		return err != nil || strings.HasPrefix(rel, "..")
	}), nil
}

// globPattern matches the relative paths a glob names: ** spans
// directories, * and ? do not, {a,b} is either.
func globPattern(glob string) *regexp.Regexp {
	glob = strings.TrimPrefix(filepath.ToSlash(glob), "./")
	var re strings.Builder
	re.WriteString("^")
	braces := 0
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; {
		case strings.HasPrefix(glob[i:], "**/"):
			re.WriteString("(.*/)?")
			i += 2
		case strings.HasPrefix(glob[i:], "**"):
			re.WriteString(".*")
			i++
		case c == '*':
			re.WriteString("[^/]*")
		case c == '?':
			re.WriteString("[^/]")
		case c == '{':
			braces++
			re.WriteString("(")
		case c == '}' && braces > 0:
			braces--
			re.WriteString(")")
		case c == ',' && braces > 0:
			re.WriteString("|")
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	p, err := regexp.Compile(re.String())
	if err != nil {
		return regexp.MustCompile(`^` + regexp.QuoteMeta(glob) + `$`)
	}
	return p
}
