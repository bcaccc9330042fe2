package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// tempPrefix starts the name of every temporary directory the server makes.
const tempPrefix = "mcp-debugger-"

// tempOwned matches the directories MkdirTemp makes:
// mcp-debugger-KIND-PID.START-RANDOM, where PID and START (its start time,
// as startTime reads it) identify the server process that owns it.
var tempOwned = regexp.MustCompile(`^` + tempPrefix + `[a-z0-9]+-(\d+)\.(\d+)-[^/]*$`)

// MkdirTemp makes a temporary directory whose name says which process owns
// it, so that a later server can remove it when this one was killed before
// it could (SIGKILL runs no cleanup). kind is a short lowercase word such as
// "go" or "debugpy".
func MkdirTemp(kind string) (string, error) {
	pid := os.Getpid()
	start, err := startTime(pid)
	if err != nil {
		return "", fmt.Errorf("temporary directory: %w", err)
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%s-%d.%d-", tempPrefix, kind, pid, start))
	if err != nil {
		return "", fmt.Errorf("temporary directory: %w", err)
	}
	return dir, nil
}

// SweepTempDirs removes the temporary directories of servers that are gone:
// those MkdirTemp named after a process that no longer runs, or whose pid
// now belongs to a process started at another time. It returns what it
// removed.
func SweepTempDirs() []string {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		m := tempOwned.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		pid, err1 := strconv.Atoi(m[1])
		start, err2 := strconv.ParseUint(m[2], 10, 64)
		if err1 != nil || err2 != nil || ownerRuns(pid, start) {
			continue
		}
		dir := filepath.Join(os.TempDir(), e.Name())
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

// ownerRuns says whether process pid runs and started at start.
func ownerRuns(pid int, start uint64) bool {
	got, err := startTime(pid)
	return err == nil && got == start
}
