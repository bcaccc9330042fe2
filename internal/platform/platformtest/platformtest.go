// Package platformtest builds machines for discovery tests: an OS, an
// environment, a set of files and the answers of commands, with nothing of
// the real machine in them.
package platformtest

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// Machine returns a machine of o whose environment is env, whose files are
// executables at the given paths (written o's way, directories implied)
// and whose commands answer as commands says ("xcrun -f lldb-dap" → its
// output; any other command fails).
func Machine(o platform.OS, env map[string]string, commands map[string]string, files ...string) platform.Machine {
	f := &fakeFiles{os: o, files: map[string]string{}, dirs: map[string]bool{}}
	for _, p := range files {
		f.files[o.Comparable(p)] = o.Base(p)
		for d := o.Dir(p); ; d = o.Dir(d) {
			f.dirs[o.Comparable(d)] = true
			if o.Dir(d) == d {
				break
			}
		}
	}
	run := func(_ context.Context, name string, args ...string) (string, error) {
		line := strings.Join(append([]string{name}, args...), " ")
		if out, ok := commands[line]; ok {
			return out, nil
		}
		return "", fmt.Errorf("%s: not on this machine", line)
	}
	return platform.Machine{OS: o, Getenv: func(k string) string { return env[k] }, Files: f, Run: run}
}

// fakeFiles keeps files by their comparable path, so that a folding OS
// finds them under any case as it would.
type fakeFiles struct {
	os    platform.OS
	files map[string]string // comparable path → base name as written
	dirs  map[string]bool
}

func (f *fakeFiles) Stat(name string) (fs.FileInfo, error) {
	key := f.os.Comparable(name)
	if base, ok := f.files[key]; ok {
		return info{name: base, mode: 0o755}, nil
	}
	if f.dirs[key] {
		return info{name: f.os.Base(name), mode: fs.ModeDir | 0o755}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (f *fakeFiles) ReadDir(name string) ([]fs.DirEntry, error) {
	dir := f.os.Comparable(name)
	if !f.dirs[dir] {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	seen := map[string]fs.DirEntry{}
	for key, base := range f.files {
		f.addChild(seen, dir, key, info{name: base, mode: 0o755})
	}
	for key := range f.dirs {
		f.addChild(seen, dir, key, info{mode: fs.ModeDir | 0o755})
	}
	var out []fs.DirEntry
	for _, e := range seen {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// addChild adds key to seen when it lies directly in dir.
func (f *fakeFiles) addChild(seen map[string]fs.DirEntry, dir, key string, fi info) {
	if key == dir || f.os.Comparable(f.os.Dir(key)) != dir {
		return
	}
	if fi.name == "" {
		fi.name = f.os.Base(key)
	}
	seen[key] = fs.FileInfoToDirEntry(fi)
}

func (f *fakeFiles) Abs(name string) (string, error) { return name, nil }

type info struct {
	name string
	mode fs.FileMode
}

func (i info) Name() string       { return i.name }
func (i info) Size() int64        { return 0 }
func (i info) Mode() fs.FileMode  { return i.mode }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.mode.IsDir() }
func (i info) Sys() any           { return nil }

var _ fs.FileInfo = info{}
