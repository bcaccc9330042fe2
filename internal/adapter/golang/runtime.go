package golang

import (
	"bufio"
	"context"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// goEnvTimeout bounds `go env`, which answers in tens of milliseconds.
const goEnvTimeout = 30 * time.Second

// buildTarget is what Delve builds for a .go file: its package directory
// when the file belongs to the package there (so that the package's other
// files are compiled with it: `go build main.go` alone leaves their names
// undefined), else the file alone (one excluded by a build constraint,
// such as a `//go:build ignore` script, is a program of its own). Outside
// a module the go command builds files, not directories ("go.mod file not
// found"), so a file there is built alone.
func buildTarget(file string) string {
	dir := filepath.Dir(file)
	if _, err := os.Stat(filepath.Join(moduleDir(dir), "go.mod")); err != nil {
		return file
	}
	pkg, err := build.ImportDir(dir, 0)
	if err != nil {
		return file
	}
	for _, f := range pkg.GoFiles {
		if f == filepath.Base(file) {
			return dir
		}
	}
	return file
}

// runtimeLine says which module, workspace and Go build the program:
// "go: module example.com/app at /p (go.mod), workspace /w/go.work, go1.26.1".
// It asks the go command itself, from the directory dlv builds in, so
// GOWORK and GOFLAGS count as they will for the build.
func runtimeLine(ctx context.Context, dir string) string {
	ctx, cancel := context.WithTimeout(ctx, goEnvTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOMOD", "GOWORK")
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return fmt.Sprintf("go: the go command in %s did not answer (%v)", dir, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	for len(lines) < 3 {
		lines = append(lines, "")
	}
	version, gomod, gowork := lines[0], lines[1], lines[2]
	var parts []string
	switch gomod {
	case "", os.DevNull:
		parts = append(parts, "go: no module (no go.mod above "+dir+")")
	default:
		parts = append(parts, fmt.Sprintf("go: module %s at %s (go.mod)", modulePath(gomod), filepath.Dir(gomod)))
	}
	if gowork != "" && gowork != "off" {
		parts = append(parts, "workspace "+gowork)
	}
	return strings.Join(append(parts, version), ", ")
}

// modulePath is the module line of a go.mod, "?" when there is none.
func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return "?"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return "?"
}
