package node

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// fakeManagers points every version manager at an empty directory of
// its own and returns them by name.
func fakeManagers(t *testing.T) map[string]string {
	t.Helper()
	roots := map[string]string{}
	for name, env := range map[string]string{"nvm": "NVM_DIR", "fnm": "FNM_DIR", "volta": "VOLTA_HOME"} {
		roots[name] = t.TempDir()
		t.Setenv(env, roots[name])
	}
	return roots
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// TestChooseNodeFromEachManagersLayout: fnm's and volta's layouts are
// read as nvm's is (the server test runs nvm's for real); the nearest pin
// wins, .nvmrc before .node-version, and package.json's volta.node counts.
func TestChooseNodeFromEachManagersLayout(t *testing.T) {
	roots := fakeManagers(t)
	fnmNode := filepath.Join(roots["fnm"], "node-versions", "v21.7.3", "installation", "bin", "node")
	voltaNode := filepath.Join(roots["volta"], "tools", "image", "node", "18.20.4", "bin", "node")
	olderVolta := filepath.Join(roots["volta"], "tools", "image", "node", "18.9.0", "bin", "node")
	for _, p := range []string{fnmNode, voltaNode, olderVolta} {
		writeFile(t, p, "#!/bin/sh\n", 0o755)
	}
	// nvm's aliases: lts/* names the newest LTS line, which names a version.
	writeFile(t, filepath.Join(roots["nvm"], "alias", "lts", "*"), "lts/hydrogen\n", 0o644)
	writeFile(t, filepath.Join(roots["nvm"], "alias", "lts", "hydrogen"), "v18.20.4\n", 0o644)
	project := t.TempDir()
	program := filepath.Join(project, "src", "app", "main.js")
	cases := []struct {
		name  string
		files map[string]string
		want  string
		why   string
	}{
		{"fnm by .node-version", map[string]string{".node-version": "v21\n"}, fnmNode, ".node-version v21: fnm's v21.7.3"},
		{"volta by package.json", map[string]string{"package.json": `{"volta": {"node": "18"}}`}, voltaNode, "package.json volta.node 18: volta's v18.20.4"},
		{"nearest pin wins", map[string]string{".nvmrc": "21", "src/.nvmrc": "# the app's\n18.20\n"}, voltaNode, "18.20: volta's v18.20.4"},
		{"nvm's lts alias", map[string]string{".nvmrc": "lts/*"}, voltaNode, ".nvmrc lts/*: volta's v18.20.4"},
		{".nvmrc before .node-version", map[string]string{".nvmrc": "18.9.0", ".node-version": "21"}, olderVolta, ".nvmrc 18.9.0: volta's v18.9.0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "p")
			for name, text := range c.files {
				writeFile(t, filepath.Join(dir, name), text, 0o644)
			}
			got, err := chooseNode(context.Background(), platform.Host(), filepath.Join(dir, strings.TrimPrefix(program, project)), "", "")
			if err != nil {
				t.Fatal(err)
			}
			if got.path != c.want || !strings.HasSuffix(got.why, c.why) {
				t.Errorf("chooseNode = %s (%s), want %s (...%s)", got.path, got.why, c.want, c.why)
			}
		})
	}
}

func TestVersionPrefix(t *testing.T) {
	for spec, want := range map[string][]int{"22": {22}, "v22.11": {22, 11}, "22.11.0": {22, 11, 0}, "20.x": {20}, "lts/iron": nil, ">=18": nil, "node": {}} {
		if got, _ := versionPrefix(spec); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("versionPrefix(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestParseTestScript(t *testing.T) {
	cases := []struct {
		text    string
		options []string
		env     map[string]string
		paths   []string
	}{
		{"node --test", nil, map[string]string{}, nil},
		{`NODE_ENV=test node --import tsx --test --test-reporter spec --test-concurrency=1 "test/**/*.test.ts"`, []string{"--import", "tsx"}, map[string]string{"NODE_ENV": "test"}, []string{"test/**/*.test.ts"}},
		{"tsc -p . && cross-env DEBUG=1 tsx --test --tsconfig t.json test/", []string{"--import", "tsx"}, map[string]string{"DEBUG": "1"}, []string{"test/"}},
		{"node --experimental-strip-types --test-name-pattern=fast --test src/a.test.ts", []string{"--experimental-strip-types", "--test-name-pattern=fast"}, map[string]string{}, []string{"src/a.test.ts"}},
	}
	for _, c := range cases {
		s, ok := parseTestScript(c.text)
		if !ok || !slices.Equal(s.options, c.options) || !slices.Equal(s.paths, c.paths) || len(s.env) != len(c.env) {
			t.Errorf("parseTestScript(%q) = %v %+v", c.text, ok, s)
			continue
		}
		for k, v := range c.env {
			if s.env[k] != v {
				t.Errorf("parseTestScript(%q) env %v, want %v", c.text, s.env, c.env)
			}
		}
	}
	for _, text := range []string{"jest", "mocha test/", "node test/run.js", "echo no tests"} {
		if _, ok := parseTestScript(text); ok {
			t.Errorf("parseTestScript(%q) should not read as node --test", text)
		}
	}
}

// TestTestFilesIn: the files a script runs are found by its globs, by the
// directories it names, or by node --test's default names.
func TestTestFilesIn(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"test/a.test.js", "test/helpers/b.js", "src/c.test.ts", "src/c.ts", "src/d_test.mjs", "node_modules/x/e.test.js", "lib/f.spec.js"} {
		writeFile(t, filepath.Join(dir, f), "", 0o644)
	}
	cases := []struct {
		paths []string
		want  []string
	}{
		{nil, []string{"src/c.test.ts", "src/d_test.mjs", "test/a.test.js", "test/helpers/b.js"}},
		{[]string{"src/**/*.test.{ts,js}"}, []string{"src/c.test.ts"}},
		{[]string{"lib/f.spec.js"}, []string{"lib/f.spec.js"}},
		{[]string{"test/"}, []string{"test/a.test.js", "test/helpers/b.js"}},
	}
	for _, c := range cases {
		s := testScript{dir: dir, paths: c.paths}
		files, err := s.testFilesIn(dir)
		if err != nil {
			t.Fatal(err)
		}
		var rel []string
		for _, f := range files {
			r, _ := filepath.Rel(dir, f)
			rel = append(rel, filepath.ToSlash(r))
		}
		if !slices.Equal(rel, c.want) {
			t.Errorf("paths %v: files %v, want %v", c.paths, rel, c.want)
		}
	}
}
