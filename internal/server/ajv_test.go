package server

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Clients built on the TypeScript SDK compile every tool's schemas with
// Ajv; in strict mode Ajv refuses what JSON Schema allows but is likely a
// mistake (a union type, a keyword it does not know, a required field
// with no property). Every input and output schema of a real tools/list
// must compile.
func TestEverySchemaCompilesUnderAjvStrict(t *testing.T) {
	node := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	modules := cachedAjv(t)
	h := newHarness(t)
	list, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Tool   string `json:"tool"`
		Kind   string `json:"kind"`
		Schema any    `json:"schema"`
	}
	var entries []entry
	for _, tool := range list.Tools {
		entries = append(entries, entry{tool.Name, "input", tool.InputSchema})
		if tool.OutputSchema != nil {
			entries = append(entries, entry{tool.Name, "output", tool.OutputSchema})
		}
	}
	// The check itself must refuse what strict mode refuses: "properties"
	// without "type": "object".
	control := []entry{{"control", "input", map[string]any{"properties": map[string]any{"a": map[string]any{"type": "string"}}}}}
	if out, err := compileStrict(t, node, modules, control); err == nil {
		t.Fatalf("Ajv strict accepted a schema it must refuse; the check is broken:\n%s", out)
	}
	if out, err := compileStrict(t, node, modules, entries); err != nil {
		t.Fatalf("Ajv strict refused schemas of tools/list (%v):\n%s", err, out)
	}
}

// compileStrict runs testdata/ajv/compile-schemas.cjs on entries and
// returns its report and whether it failed.
func compileStrict(t *testing.T, node, modules string, entries any) ([]byte, error) {
	t.Helper()
	input, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(repoRoot(t), "testdata", "ajv", "compile-schemas.cjs"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	cmd.Stdin = bytes.NewReader(input)
	return cmd.CombinedOutput()
}

// cachedAjv installs ajv and ajv-formats from the npm registry once per
// machine, in the user's cache, and returns their node_modules directory.
func cachedAjv(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "mcp-debugger", "ajv-8")
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "ajv-formats", "package.json")); err == nil {
		return modules
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	npmInstall(t, dir, "ajv@8", "ajv-formats@3")
	return modules
}
