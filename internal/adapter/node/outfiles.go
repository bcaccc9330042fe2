package node

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// maxMapScan bounds the files looked at when searching compiled output.
const maxMapScan = 5000

// compiledScript is a compiled file on disk whose source map names an
// original source.
type compiledScript struct {
	path string
	sm   *sourceMap
}

// scanCompiled reads every *.js.map (and .mjs/.cjs maps) under root,
// skipping node_modules and hidden directories, once per launch. A
// breakpoint in a .ts file can then bind by the generated file's URL
// before that file loads: the inspector's instrumentation pause, the other
// way to bind in time, does not come reliably (Node 20 skips it in some
// runs).
func scanCompiled(o platform.OS, root string) []compiledScript {
	var out []compiledScript
	seen := 0
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		seen++
		if seen > maxMapScan {
			return filepath.SkipAll
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".map") {
			return nil
		}
		script := strings.TrimSuffix(path, ".map")
		if !plainScript(script) {
			return nil
		}
		sm, err := loadSourceMap(o, script, filepath.Base(path))
		if err == nil {
			out = append(out, compiledScript{path: script, sm: sm})
		}
		return nil
	})
	return out
}

// maxScriptSize bounds the files read when searching for declarations.
const maxScriptSize = 4 << 20

// scanScripts lists the JavaScript files under root (not in node_modules
// or hidden directories), once per launch, for function breakpoints.
func scanScripts(root string) []string {
	var out []string
	seen := 0
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		seen++
		if seen > maxMapScan {
			return filepath.SkipAll
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !plainScript(path) {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Size() <= maxScriptSize {
			out = append(out, path)
		}
		return nil
	})
	return out
}
