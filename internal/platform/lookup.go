package platform

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Files is the file system as discovery sees it.
type Files interface {
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	// Abs makes a path found through a relative PATH entry absolute.
	Abs(name string) (string, error)
}

// Runner runs a command that answers on stdout (xcrun -f lldb-dap,
// /usr/libexec/java_home) and returns its output, trimmed.
type Runner func(ctx context.Context, name string, args ...string) (string, error)

// Machine is what adapter discovery may look at: an OS's rules, its
// environment, its files and the commands it may ask. Host is this
// machine; tests build others.
type Machine struct {
	OS     OS
	Getenv func(string) string
	Files  Files
	Run    Runner
}

// Host is the machine this process runs on.
func Host() Machine {
	return Machine{OS: Current(), Getenv: os.Getenv, Files: hostFiles{}, Run: runHost}
}

type hostFiles struct{}

func (hostFiles) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (hostFiles) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (hostFiles) Abs(name string) (string, error)            { return filepath.Abs(name) }

// runTimeout bounds a discovery query, which answers in milliseconds; more
// means it hangs.
const runTimeout = 10 * time.Second

func runHost(ctx context.Context, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %w: %s", name, err, strings.TrimSpace(errOut.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// Home is the user's home directory, "" when the environment has none.
func (m Machine) Home() string { return m.OS.HomeDir(m.Getenv) }

// IsExecutable says whether p is a file the OS would run: a regular file
// with an execute bit on Unix, a regular file whose extension PATHEXT
// lists on Windows (which has no execute bit: the name decides).
func (m Machine) IsExecutable(p string) bool {
	st, err := m.Files.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	if m.OS.IsWindows() {
		return m.hasPathExt(p)
	}
	return st.Mode()&0o111 != 0
}

// pathExts are the extensions Windows runs without being told, lower case.
func (m Machine) pathExts() []string {
	exts := m.Getenv("PATHEXT")
	if exts == "" {
		exts = defaultPathExt
	}
	var out []string
	for _, e := range strings.Split(exts, ";") {
		if e != "" {
			out = append(out, strings.ToLower(e))
		}
	}
	return out
}

func (m Machine) hasPathExt(name string) bool {
	lower := strings.ToLower(name)
	for _, e := range m.pathExts() {
		if strings.HasSuffix(lower, e) {
			return true
		}
	}
	return false
}

// IsFile says whether p is a regular file.
func (m Machine) IsFile(p string) bool {
	st, err := m.Files.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// defaultPathExt is what Windows runs without an extension when PATHEXT
// is unset.
const defaultPathExt = ".COM;.EXE;.BAT;.CMD"

// candidates are the files name may be on m: itself, or on Windows, when
// it has no runnable extension, itself with each of PATHEXT's.
func (m Machine) candidates(name string) []string {
	if !m.OS.IsWindows() || m.hasPathExt(name) {
		return []string{name}
	}
	var out []string
	for _, e := range m.pathExts() {
		out = append(out, name+e)
	}
	return out
}

// LookPath resolves name as the OS's shell would: a path as given, or a
// command searched in the directories of PATH (with PATHEXT's extensions
// on Windows).
func (m Machine) LookPath(name string) (string, error) {
	if m.OS.HasSeparator(name) {
		for _, c := range m.candidates(name) {
			if m.IsExecutable(c) {
				return m.Files.Abs(c)
			}
		}
		return "", exec.ErrNotFound
	}
	return m.LookIn(name, m.OS.SplitList(m.Getenv("PATH")))
}

// LookIn finds the command name in one of dirs, the first in order.
func (m Machine) LookIn(name string, dirs []string) (string, error) {
	for _, d := range dirs {
		for _, c := range m.candidates(name) {
			if p := m.OS.Join(d, c); m.IsExecutable(p) {
				return m.Files.Abs(p)
			}
		}
	}
	return "", exec.ErrNotFound
}
