package node

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

func TestRunnerInArgsReadsWhatTheOptionsLoad(t *testing.T) {
	for _, tc := range []struct {
		opts     []string
		found    bool
		stripped bool
		how      string
	}{
		{[]string{"--experimental-strip-types"}, true, true, "Node's type stripping (--experimental-strip-types)"},
		{[]string{"--experimental-transform-types"}, true, false, "Node's --experimental-transform-types"},
		{[]string{"--import", "tsx"}, true, false, "--import tsx"},
		{[]string{"--import=tsx/esm"}, true, false, "--import tsx/esm"},
		{[]string{"-r", "ts-node/register"}, true, false, "-r ts-node/register"},
		{[]string{"--loader", "ts-node/esm"}, true, false, "--loader ts-node/esm"},
		{[]string{"--import", "./otel.js"}, false, false, ""},
		{[]string{"--inspect", "tsx"}, false, false, ""},
		{nil, false, false, ""},
	} {
		r, found := runnerInArgs(tc.opts)
		if found != tc.found || r.stripped != tc.stripped || r.how != tc.how || len(r.opts) != 0 {
			t.Errorf("runnerInArgs(%q) = %+v %v, want stripped=%v how=%q found=%v (and no options of its own)", tc.opts, r, found, tc.stripped, tc.how, tc.found)
		}
	}
}

// writePackage makes dir a package whose package.json is manifest, and
// creates its files.
func writePackage(t *testing.T, dir, manifest string, files ...string) {
	t.Helper()
	for _, f := range append(files, "package.json") {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		content := ""
		if f == "package.json" {
			content = manifest
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestProjectRunnerFindsTheNearestTsxOrTsNode(t *testing.T) {
	root := t.TempDir()
	program := filepath.Join(root, "app", "src", "deep")
	if err := os.MkdirAll(program, 0o755); err != nil {
		t.Fatal(err)
	}
	if r, found := projectRunner(program); found {
		t.Fatalf("no node_modules anywhere: found %+v", r)
	}

	tsNode := filepath.Join(root, "node_modules", "ts-node")
	writePackage(t, tsNode, `{}`)
	r, found := projectRunner(program)
	if want := []string{"-r", filepath.Join(tsNode, "register")}; !found || !slices.Equal(r.opts, want) || r.stripped {
		t.Errorf("ts-node two levels up: %+v %v, want options %q", r, found, want)
	}

	tsx := filepath.Join(root, "app", "node_modules", "tsx")
	writePackage(t, tsx, `{"exports":{".":"./dist/loader.mjs"}}`, "dist/loader.mjs")
	r, found = projectRunner(program)
	entry := fileURL(platform.Current(), filepath.Join(tsx, "dist", "loader.mjs"))
	if want := []string{"--import", entry}; !found || !slices.Equal(r.opts, want) || r.how != "tsx from "+tsx {
		t.Errorf("tsx nearer than ts-node: %+v %v, want options %q", r, found, want)
	}
}

func TestTsxEntryFallsBackToTheBareName(t *testing.T) {
	for _, tc := range []struct {
		name, manifest string
		files          []string
		want           string
	}{
		{"no exports", `{}`, nil, "tsx"},
		{"exports as conditions", `{"exports":{".":{"import":"./a.mjs"}}}`, []string{"a.mjs"}, "tsx"},
		{"exported file missing", `{"exports":{".":"./gone.mjs"}}`, nil, "tsx"},
		{"not relative", `{"exports":{".":"dist/a.mjs"}}`, []string{"dist/a.mjs"}, "tsx"},
		{"broken manifest", `{`, nil, "tsx"},
		{"exported file", `{"exports":{".":"./dist/a.mjs"}}`, []string{"dist/a.mjs"}, "file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tsx")
			writePackage(t, dir, tc.manifest, tc.files...)
			got := tsxEntry(dir)
			want := tc.want
			if want == "file" {
				want = fileURL(platform.Current(), filepath.Join(dir, "dist", "a.mjs"))
			}
			if got != want {
				t.Errorf("tsxEntry = %q, want %q", got, want)
			}
		})
	}
}
