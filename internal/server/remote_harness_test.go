package server

// The boundary harness: a program that runs "somewhere else". Its files
// are a copy bind-mounted at remoteRoot inside a private mount namespace,
// a root that does not exist for the agent, whose own copy is another
// directory, as with a program in a container. The program listens for
// the debugger on loopback (the namespace shares the network).

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// remoteRoot is where the program sees its files.
const remoteRoot = "/mnt/app"

// remoteProgram is one program's two copies.
type remoteProgram struct {
	// Local is the agent's copy, Remote the directory mounted at
	// remoteRoot for the program.
	Local, Remote string
}

// requireMountNamespace skips the test where a private mount namespace
// cannot be made (not Linux, not allowed), and fails it under CI, whose
// runners are root on Linux.
func requireMountNamespace(t *testing.T) {
	t.Helper()
	why := ""
	if runtime.GOOS != "linux" {
		why = "the boundary harness needs Linux mount namespaces"
	} else if out, err := exec.Command("unshare", "-m", "--propagation", "private", "true").CombinedOutput(); err != nil {
		why = "unshare -m refused (the tests need root or user namespaces): " + strings.TrimSpace(string(out))
	}
	if why == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// newRemoteProgram copies the files of dir into the agent's copy and the
// program's; remoteOnly are files (name to content) only the program has.
func newRemoteProgram(t *testing.T, dir string, remoteOnly map[string]string) *remoteProgram {
	t.Helper()
	requireMountNamespace(t)
	rp := &remoteProgram{Local: t.TempDir(), Remote: t.TempDir()}
	for _, to := range []string{rp.Local, rp.Remote} {
		if err := os.CopyFS(to, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range remoteOnly {
		if err := os.WriteFile(filepath.Join(rp.Remote, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return rp
}

// local is the agent's path of a file of the program.
func (rp *remoteProgram) local(name string) string { return filepath.Join(rp.Local, name) }

// mappings is the pathMappings argument for this program.
func (rp *remoteProgram) mappings() []map[string]any {
	return []map[string]any{{"localRoot": rp.Local, "remoteRoot": remoteRoot}}
}

// inNamespace is the command line that runs argv in the program's
// namespace, in remoteRoot.
func (rp *remoteProgram) inNamespace(argv ...string) *exec.Cmd {
	script := `mount -t tmpfs tmpfs /mnt && mkdir ` + remoteRoot + ` && mount --bind "$0" ` + remoteRoot + ` && cd ` + remoteRoot + ` && exec "$@"`
	return exec.Command("unshare", append([]string{"-m", "--propagation", "private", "sh", "-c", script, rp.Remote}, argv...)...)
}

// run runs argv to its end in the namespace (a build), failing the test
// with its output if it fails.
func (rp *remoteProgram) run(t *testing.T, argv ...string) {
	t.Helper()
	if out, err := rp.inNamespace(argv...).CombinedOutput(); err != nil {
		t.Fatalf("%s in the namespace: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

// start starts argv in the namespace; when ready is not empty, it returns
// once the program's stdout or stderr has a line containing it, and that
// line. The program is killed when the test ends.
func (rp *remoteProgram) start(t *testing.T, ready string, argv ...string) (*proc.Process, string) {
	t.Helper()
	cmd := rp.inNamespace(argv...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Kill()
		pw.Close()
	})
	seen := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		found := ready == ""
		if found {
			seen <- ""
		}
		for sc.Scan() {
			if !found && strings.Contains(sc.Text(), ready) {
				found = true
				seen <- sc.Text()
			}
		}
	}()
	select {
	case line := <-seen:
		return p, line
	case <-p.Done():
		t.Fatalf("%s ended before saying %q (exit code %d)", strings.Join(argv, " "), ready, p.ExitCode())
	}
	return nil, ""
}
