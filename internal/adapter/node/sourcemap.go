package node

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// sourceMap is a decoded source map (version 3): where each position of a
// generated script comes from. V8 reports generated positions only, so
// turning them into TypeScript (or any original) positions, and breakpoints
// set in the original into generated ones, is the adapter's job
// (docs/adapter-quirks.md, node-12). All positions are zero-based.
type sourceMap struct {
	// sources are absolute paths of the original files.
	sources []string
	// lines holds, per generated line, its segments sorted by column.
	lines [][]segment
	// os decides when a source is a breakpoint's file (case folds on
	// macOS and Windows).
	os platform.OS
}

// segment maps one generated column to an original position; src is -1
// for a segment that maps to nothing.
type segment struct {
	genCol, src, line, col int
}

// rawSourceMap is the JSON form.
type rawSourceMap struct {
	Version    int      `json:"version"`
	SourceRoot string   `json:"sourceRoot"`
	Sources    []string `json:"sources"`
	Mappings   string   `json:"mappings"`
	Sections   []any    `json:"sections"`
}

// loadSourceMap reads the map a script names (its sourceMappingURL:
// a data: URL, a file: URL, or a path relative to the script).
// docs/adapter-quirks.md: node-12.
func loadSourceMap(o platform.OS, scriptPath, mapURL string) (*sourceMap, error) {
	dir := filepath.Dir(scriptPath)
	if data, ok := strings.CutPrefix(mapURL, "data:"); ok {
		meta, payload, found := strings.Cut(data, ",")
		if !found {
			return nil, errors.New("source map data: URL without data")
		}
		var raw []byte
		if strings.HasSuffix(meta, ";base64") {
			b, err := base64.StdEncoding.DecodeString(payload)
			if err != nil {
				return nil, fmt.Errorf("source map data: URL: %w", err)
			}
			raw = b
		} else {
			s, err := url.PathUnescape(payload)
			if err != nil {
				return nil, fmt.Errorf("source map data: URL: %w", err)
			}
			raw = []byte(s)
		}
		return parseSourceMap(o, raw, dir)
	}
	mapPath := mapURL
	if p, ok := filePath(o, mapURL); ok {
		mapPath = p
	} else if !filepath.IsAbs(mapPath) {
		unescaped, err := url.PathUnescape(mapPath)
		if err == nil {
			mapPath = unescaped
		}
		mapPath = filepath.Join(dir, mapPath)
	}
	raw, err := userfile.Read(mapPath)
	if err != nil {
		return nil, fmt.Errorf("read source map: %w", err)
	}
	return parseSourceMap(o, raw, filepath.Dir(mapPath))
}

// parseSourceMap decodes a map whose relative sources resolve against dir
// and compare with breakpoint paths by o's rules.
func parseSourceMap(o platform.OS, data []byte, dir string) (*sourceMap, error) {
	var raw rawSourceMap
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("decode source map: %w", err)
	}
	if len(raw.Sections) > 0 {
		return nil, errors.New("indexed source maps (sections) are not supported")
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("source map version %d is not supported", raw.Version)
	}
	root := raw.SourceRoot
	if p, ok := filePath(o, root); ok {
		root = p
	}
	m := &sourceMap{os: o}
	for _, s := range raw.Sources {
		if p, ok := filePath(o, s); ok {
			m.sources = append(m.sources, filepath.Clean(p))
			continue
		}
		if root != "" {
			s = strings.TrimSuffix(root, "/") + "/" + s
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(dir, s)
		}
		m.sources = append(m.sources, filepath.Clean(s))
	}
	if err := m.decodeMappings(raw.Mappings); err != nil {
		return nil, err
	}
	return m, nil
}

// decodeMappings decodes the base64 VLQ "mappings" string: lines separated
// by ';', segments by ',', each segment's fields relative to the previous
// segment's (the column only within a line).
func (m *sourceMap) decodeMappings(s string) error {
	var src, line, col int
	for _, lineText := range strings.Split(s, ";") {
		var segs []segment
		genCol := 0
		for _, segText := range strings.Split(lineText, ",") {
			if segText == "" {
				continue
			}
			fields, err := decodeVLQ(segText)
			if err != nil {
				return err
			}
			genCol += fields[0]
			seg := segment{genCol: genCol, src: -1}
			if len(fields) >= 4 {
				src += fields[1]
				line += fields[2]
				col += fields[3]
				if src < 0 || src >= len(m.sources) {
					return fmt.Errorf("source map segment names source %d of %d", src, len(m.sources))
				}
				seg.src, seg.line, seg.col = src, line, col
			}
			segs = append(segs, seg)
		}
		sort.SliceStable(segs, func(i, j int) bool { return segs[i].genCol < segs[j].genCol })
		m.lines = append(m.lines, segs)
	}
	return nil
}

const vlqChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// decodeVLQ decodes the signed base64 VLQ numbers of one segment.
func decodeVLQ(s string) ([]int, error) {
	var out []int
	value, shift := 0, 0
	for i := 0; i < len(s); i++ {
		digit := strings.IndexByte(vlqChars, s[i])
		if digit < 0 {
			return nil, fmt.Errorf("bad character %q in source map mappings", s[i])
		}
		value |= (digit & 31) << shift
		if digit&32 != 0 {
			shift += 5
			if shift > 60 {
				return nil, errors.New("source map number too large")
			}
			continue
		}
		n := value >> 1
		if value&1 != 0 {
			n = -n
		}
		out = append(out, n)
		value, shift = 0, 0
	}
	if shift != 0 {
		return nil, errors.New("truncated number in source map mappings")
	}
	return out, nil
}

// original maps a generated position to its source: the last segment at or
// before the column, else the line's first mapped segment.
func (m *sourceMap) original(genLine, genCol int) (src string, line, col int, ok bool) {
	if genLine < 0 || genLine >= len(m.lines) {
		return "", 0, 0, false
	}
	segs := m.lines[genLine]
	best := -1
	for i, s := range segs {
		if s.src < 0 {
			continue
		}
		if s.genCol <= genCol || best < 0 {
			best = i
		}
		if s.genCol > genCol {
			break
		}
	}
	if best < 0 {
		return "", 0, 0, false
	}
	s := segs[best]
	return m.sources[s.src], s.line, s.col, true
}

// maxLineSlide is how far below a requested line a breakpoint may land when
// that line generated no code (a comment, a type declaration).
const maxLineSlide = 20

// generated maps the start of a source line to the earliest generated
// position that comes from it, sliding down to the next line that produced
// code. line is the original line the position belongs to.
func (m *sourceMap) generated(source string, wantLine int) (genLine, genCol, line int, ok bool) {
	idx := m.sourceIndex(source)
	if idx < 0 {
		return 0, 0, 0, false
	}
	for l := wantLine; l <= wantLine+maxLineSlide; l++ {
		for gl, segs := range m.lines {
			for _, s := range segs {
				if s.src == idx && s.line == l {
					return gl, s.genCol, l, true
				}
			}
		}
	}
	return 0, 0, 0, false
}

func (m *sourceMap) sourceIndex(path string) int {
	for i, s := range m.sources {
		if m.os.SamePath(s, path) {
			return i
		}
	}
	return -1
}

// filePath turns a file: URL into a path of o's (file:///C:/x.js is
// C:\x.js on Windows).
func filePath(o platform.OS, s string) (string, bool) { return o.PathFromURL(s) }

// fileURL is the file: URL Node reports on o for an absolute path.
func fileURL(o platform.OS, path string) string { return o.FileURL(path) }
