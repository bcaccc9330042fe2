package node

import (
	"encoding/base64"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

func TestDecodeVLQ(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  string
	}{
		{in: "A", want: []int{0}},
		{in: "C", want: []int{1}},
		{in: "D", want: []int{-1}},
		{in: "gB", want: []int{16}},
		{in: "hB", want: []int{-16}},
		{in: "w+B", want: []int{1000}},
		{in: "AAgBC", want: []int{0, 0, 16, 1}},
		{in: "IAAI", want: []int{4, 0, 0, 4}},
		{in: "", want: nil},
		{in: "A!", err: `bad character '!'`},
		{in: "Ag", err: "truncated number"},
		{in: "ggggggggggggggB", err: "number too large"},
	} {
		got, err := decodeVLQ(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("decodeVLQ(%q) = %v, %v; want an error containing %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("decodeVLQ(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// demoMap has two sources and five generated lines (all zero-based):
//
//	gen 0: col 0 → app.ts 0:0, col 4 → app.ts 0:4
//	gen 1: nothing
//	gen 2: col 0 → app.ts 2:0, col 5 → util.ts 3:2
//	gen 3: col 0 unmapped, col 2 → app.ts 2:0
//	gen 4: col 0 → app.ts 5:0
const demoMap = `{"version":3,"sources":["../src/app.ts","util.ts"],"mappings":"AAAA,IAAI;;AAEJ,KCCE;A,EDDF;AAGA"}`

func TestSourceMapMapsPositionsBothWays(t *testing.T) {
	dir := t.TempDir()
	m, err := parseSourceMap(platform.Current(), []byte(demoMap), dir)
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(filepath.Dir(dir), "src", "app.ts")
	util := filepath.Join(dir, "util.ts")
	if !slices.Equal(m.sources, []string{app, util}) {
		t.Fatalf("sources resolve against the map's directory: %v, want %v", m.sources, []string{app, util})
	}

	for _, tc := range []struct {
		genLine, genCol int
		src             string
		line, col       int
		ok              bool
	}{
		{0, 0, app, 0, 0, true},
		{0, 3, app, 0, 0, true},
		// A segment's own column is that segment's.
		{0, 4, app, 0, 4, true},
		{2, 5, util, 3, 2, true},
		{0, 9, app, 0, 4, true},
		{1, 0, "", 0, 0, false},
		{2, 7, util, 3, 2, true},
		// An unmapped segment first: the line's first mapped one.
		{3, 0, app, 2, 0, true},
		{9, 0, "", 0, 0, false},
		{-1, 0, "", 0, 0, false},
	} {
		src, line, col, ok := m.original(tc.genLine, tc.genCol)
		if src != tc.src || line != tc.line || col != tc.col || ok != tc.ok {
			t.Errorf("original(%d, %d) = %s %d:%d %v, want %s %d:%d %v", tc.genLine, tc.genCol, src, line, col, ok, tc.src, tc.line, tc.col, tc.ok)
		}
	}

	for _, tc := range []struct {
		src                     string
		line                    int
		genLine, genCol, atLine int
		ok                      bool
	}{
		{app, 0, 0, 0, 0, true},
		// Lines that generated no code slide down to the next that did.
		{app, 1, 2, 0, 2, true},
		{app, 3, 4, 0, 5, true},
		{util, 3, 2, 5, 3, true},
		{app, 6, 0, 0, 0, false},
		{filepath.Join(dir, "other.ts"), 0, 0, 0, 0, false},
	} {
		genLine, genCol, atLine, ok := m.generated(tc.src, tc.line)
		if genLine != tc.genLine || genCol != tc.genCol || atLine != tc.atLine || ok != tc.ok {
			t.Errorf("generated(%s, %d) = %d:%d (line %d) %v, want %d:%d (line %d) %v", tc.src, tc.line, genLine, genCol, atLine, ok, tc.genLine, tc.genCol, tc.atLine, tc.ok)
		}
	}
}

func TestSourceMapSourcesWithRootsAndFileURLs(t *testing.T) {
	o := platform.Current()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	elsewhere := filepath.Join(dir, "x", "b.ts")
	raw := `{"version":3,"sourceRoot":"` + fileURL(o, root) + `/","sources":["a.ts","` + fileURL(o, elsewhere) + `"],"mappings":"AAAA"}`
	m, err := parseSourceMap(o, []byte(raw), dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(root, "a.ts"), elsewhere}; !slices.Equal(m.sources, want) {
		t.Errorf("sources %v, want %v (sourceRoot prefixes relative sources; file: URLs are paths)", m.sources, want)
	}
}

func TestLoadSourceMapFromEveryKindOfURL(t *testing.T) {
	o := platform.Current()
	dir := t.TempDir()
	script := filepath.Join(dir, "app.js")
	mapsDir := filepath.Join(dir, "maps")
	if err := os.MkdirAll(mapsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	mapFile := filepath.Join(mapsDir, "app js.map")
	if err := os.WriteFile(mapFile, []byte(demoMap), 0o644); err != nil {
		t.Fatal(err)
	}
	nextToScript := filepath.Join(filepath.Dir(dir), "src", "app.ts")
	nextToMap := filepath.Join(dir, "src", "app.ts")
	for _, tc := range []struct {
		name, url, wantApp string
	}{
		{"inline base64", "data:application/json;charset=utf-8;base64," + base64.StdEncoding.EncodeToString([]byte(demoMap)), nextToScript},
		{"inline percent-encoded", "data:application/json," + url.PathEscape(demoMap), nextToScript},
		{"relative path, escaped", "maps/app%20js.map", nextToMap},
		{"file URL", fileURL(o, mapFile), nextToMap},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := loadSourceMap(o, script, tc.url)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.sources) != 2 || m.sources[0] != tc.wantApp {
				t.Errorf("sources %v: the first should be %s (relative to the map's file, else the script's)", m.sources, tc.wantApp)
			}
			if src, line, _, ok := m.original(2, 7); !ok || filepath.Base(src) != "util.ts" || line != 3 {
				t.Errorf("original(2, 7) = %s %d %v, want util.ts line 3", src, line, ok)
			}
		})
	}
}

func TestLoadSourceMapRefusalsSayWhy(t *testing.T) {
	o := platform.Current()
	script := filepath.Join(t.TempDir(), "app.js")
	inline := func(json string) string { return "data:application/json," + url.PathEscape(json) }
	for _, tc := range []struct {
		url, want string
	}{
		{"data:application/json", "data: URL without data"},
		{"data:application/json;base64,!!!", "source map data: URL"},
		{"missing.js.map", "read source map"},
		{inline("{"), "decode source map"},
		{inline(`{"version":2,"sources":[],"mappings":""}`), "version 2 is not supported"},
		{inline(`{"version":3,"sections":[{}]}`), "indexed source maps (sections) are not supported"},
		{inline(`{"version":3,"sources":["a.ts"],"mappings":"ACAA"}`), "names source 1 of 1"},
		{inline(`{"version":3,"sources":["a.ts"],"mappings":"A*"}`), "bad character"},
	} {
		if _, err := loadSourceMap(o, script, tc.url); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("loadSourceMap(%q): %v, want an error containing %q", tc.url, err, tc.want)
		}
	}
}
