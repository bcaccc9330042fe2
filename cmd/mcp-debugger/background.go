package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
)

// The background server is `mcp-debugger http` on loopback with a random
// token, one per user and workspace (the working directory), started by
// the first `call` and shared by later ones. What finds it is a state
// file in a directory only the user can enter: the file is the secret.
// One per directory, not one per user, because the server resolves the
// relative paths of every call against its own directory; a call from a
// directory with no server of its own is told which other directories'
// servers run, and where the session it names lives.

// backgroundIdle is how long the background server lives without a
// request, and how long a finished call's debug sessions wait for the
// next call to take them back.
const backgroundIdle = 30 * time.Minute

// startupTimeout bounds the wait for a new background server to listen.
const startupTimeout = 30 * time.Second

// serverState is what the background server writes once it listens.
type serverState struct {
	Addr      string `json:"addr"`
	Token     string `json:"token"`
	PID       int    `json:"pid"`
	Workspace string `json:"workspace"`
}

// workspaceFiles names a workspace's files in the runtime directory.
type workspaceFiles struct {
	dir, state, key, log, lock string
}

// filesFor returns the files of the workspace cwd, creating the per-user
// runtime directory (0700) and refusing one another user owns or can enter.
func filesFor(cwd string) (workspaceFiles, error) {
	dir, err := runtimeDir()
	if err != nil {
		return workspaceFiles{}, err
	}
	sum := sha256.Sum256([]byte(cwd))
	base := filepath.Join(dir, "ws-"+hex.EncodeToString(sum[:8]))
	return workspaceFiles{dir: dir, state: base + ".json", key: base + ".key", log: base + ".log", lock: base + ".lock"}, nil
}

// runtimeDir is $XDG_RUNTIME_DIR/mcp-debugger, else
// $TMPDIR/mcp-debugger-UID, which it creates private to the user.
func runtimeDir() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("mcp-debugger-%d", os.Getuid()))
	if xdg := os.Getenv("XDG_RUNTIME_DIR"); xdg != "" {
		dir = filepath.Join(xdg, "mcp-debugger")
	}
	return privateDir(dir, "runtime directory")
}

// privateDir creates dir (0700) when missing and refuses it when it is
// not a directory the user owns that no one else can enter; what is
// names it in errors.
func privateDir(dir, what string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating the %s: %w", what, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("checking the %s: %w", what, err)
	}
	// In a shared /tmp another user could have made the directory first,
	// to read the token or plant a server of theirs.
	if !fi.IsDir() || !privateToUser(fi) {
		return "", fmt.Errorf("the %s %s is not private to you (it must be a directory you own with mode 0700)", what, dir)
	}
	return dir, nil
}

// findOrStart returns the workspace's running background server, starting
// one when there is none. A lock keeps two calls from starting two.
func findOrStart(ctx context.Context, files workspaceFiles, cwd string) (serverState, error) {
	lock, err := os.OpenFile(files.lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return serverState{}, fmt.Errorf("opening the lock file: %w", err)
	}
	defer lock.Close()
	if err := lockExclusive(lock); err != nil {
		return serverState{}, fmt.Errorf("locking %s: %w", files.lock, err)
	}
	if st, err := findRunning(ctx, files); err == nil {
		return st, nil
	}
	return startBackground(ctx, files, cwd)
}

// otherServers are the user's running background servers of other
// directories than files', with each one's files.
func otherServers(ctx context.Context, files workspaceFiles) []otherServer {
	paths, _ := filepath.Glob(filepath.Join(files.dir, "ws-*.json"))
	var others []otherServer
	for _, path := range paths {
		if path == files.state {
			continue
		}
		base := strings.TrimSuffix(path, ".json")
		theirs := workspaceFiles{dir: files.dir, state: path, key: base + ".key", log: base + ".log", lock: base + ".lock"}
		if st, err := findRunning(ctx, theirs); err == nil {
			others = append(others, otherServer{files: theirs, state: st})
		}
	}
	return others
}

// otherServer is a running background server of another directory.
type otherServer struct {
	files workspaceFiles
	state serverState
}

// findRunning reads the state file and checks that its server is alive
// and answers with its token.
func findRunning(ctx context.Context, files workspaceFiles) (serverState, error) {
	st, err := readState(files.state)
	if err != nil {
		return st, err
	}
	if !processAlive(st.PID) {
		return st, fmt.Errorf("the background server (pid %d) is gone", st.PID)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+st.Addr+"/version", nil)
	if err != nil {
		return st, fmt.Errorf("building the health check: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+st.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return st, fmt.Errorf("the background server does not answer: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("the background server answered %s", resp.Status)
	}
	return st, nil
}

func readState(path string) (serverState, error) {
	var st serverState
	b, err := os.ReadFile(path)
	if err != nil {
		return st, fmt.Errorf("reading the background server's state: %w", err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("reading %s: %w", path, err)
	}
	return st, nil
}

// writeState writes the state file atomically, readable by the user alone.
func writeState(path string, st serverState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encoding the state: %w", err)
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("writing the state: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing the state: %w", err)
	}
	return nil
}

// removeStateIfOurs removes the state file when it still names pid.
func removeStateIfOurs(path string, pid int) {
	if st, err := readState(path); err == nil && st.PID == pid {
		_ = os.Remove(path)
	}
}

// startBackground starts `mcp-debugger http` detached (its own session,
// its output in the log file) and waits until it has written its state.
func startBackground(ctx context.Context, files workspaceFiles, cwd string) (serverState, error) {
	_ = os.Remove(files.state)
	self, err := os.Executable()
	if err != nil {
		return serverState{}, fmt.Errorf("finding this program: %w", err)
	}
	token, err := httpserver.NewToken()
	if err != nil {
		return serverState{}, err
	}
	logFile, err := os.OpenFile(files.log, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return serverState{}, fmt.Errorf("opening the log file: %w", err)
	}
	defer logFile.Close()
	idle := backgroundIdle.String()
	// Every tool: a shell user names the one they want, and nothing of
	// theirs is loaded into a model's context.
	cmd := exec.Command(self, "http", "--tools", "all", "--listen", "127.0.0.1:0", "--state-file", files.state,
		"--exit-when-idle", idle, "--reconnect-grace", idle, "--log-file", files.log)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), tokenEnv+"="+token)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Its own session: the shell that ran the first call may end, and its
	// signals (a ^C to a later command) are not the server's.
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return serverState{}, fmt.Errorf("starting the background server: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return waitForState(ctx, files, cmd.Process.Pid, exited)
}

// waitForState waits for the new server's state file, its early exit, or
// the startup bound.
func waitForState(ctx context.Context, files workspaceFiles, pid int, exited <-chan error) (serverState, error) {
	ctx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if st, err := readState(files.state); err == nil && st.PID == pid {
			return st, nil
		}
		select {
		case err := <-exited:
			return serverState{}, fmt.Errorf("the background server exited at start (%v); its log: %s", err, files.log)
		case <-ctx.Done():
			return serverState{}, fmt.Errorf("the background server did not start: %w; its log: %s", ctx.Err(), files.log)
		case <-tick.C:
		}
	}
}

// stopBackground ends the workspace's background server and waits until
// its process is gone; its debug adapters and programs end with it.
func stopBackground(ctx context.Context, files workspaceFiles) (bool, error) {
	st, err := readState(files.state)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer func() {
		_ = os.Remove(files.state)
		_ = os.Remove(files.key)
	}()
	if !askToExit(st.PID) {
		return false, nil
	}
	if err := waitGone(ctx, st.PID, shutdownTimeout+10*time.Second); err != nil {
		forceExit(st.PID)
		return true, waitGone(ctx, st.PID, 5*time.Second)
	}
	return true, nil
}

// waitGone waits until pid no longer exists. The server is not our child,
// so there is nothing to wait on but the process table.
func waitGone(ctx context.Context, pid int, bound time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for processAlive(pid) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("process %d still runs: %w", pid, ctx.Err())
		case <-tick.C:
		}
	}
	return nil
}

// reconnectKey is the key that takes back this workspace's debug sessions
// ("" before the first session).
func (f workspaceFiles) reconnectKey() string {
	b, err := os.ReadFile(f.key)
	if err != nil {
		return ""
	}
	return string(b)
}

// saveReconnectKey keeps the key a call was given, for the next call.
func (f workspaceFiles) saveReconnectKey(key string) error {
	if key == "" || key == f.reconnectKey() {
		return nil
	}
	if err := os.WriteFile(f.key, []byte(key), 0o600); err != nil {
		return fmt.Errorf("saving the reconnect key: %w", err)
	}
	return nil
}

// idleExit calls stop once no request has been in flight for idle.
type idleExit struct {
	next  http.Handler
	timer *time.Timer
	idle  time.Duration
}

func newIdleExit(next http.Handler, idle time.Duration, stop func()) *idleExit {
	return &idleExit{next: next, idle: idle, timer: time.AfterFunc(idle, stop)}
}

// ServeHTTP restarts the idle clock when a request starts and when it ends.
func (e *idleExit) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.timer.Reset(e.idle)
	defer e.timer.Reset(e.idle)
	e.next.ServeHTTP(w, r)
}
