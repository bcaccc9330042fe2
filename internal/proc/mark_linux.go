package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// killMarked kills every process whose MarkVar value matches; zombies and
// processes whose environment cannot be read (another user's) are skipped.
// Only a match is pinned with a pidfd, and its mark read again through
// that pin, so that a pid reused meanwhile is never hit.
func killMarked(match func(value string) bool) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var killed []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		if value, ok := markOf(pid); !ok || !match(value) {
			continue
		}
		fd, err := pidfdOpen(pid)
		if err != nil {
			continue
		}
		if value, ok := markOf(pid); ok && match(value) && pidfdSignal(fd, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
		syscall.Close(fd)
	}
	return killed
}

// markOf is the MarkVar value in pid's environment, as it was when the
// process started.
func markOf(pid int) (string, bool) {
	env, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
	if err != nil {
		return "", false
	}
	prefix := []byte(MarkVar + "=")
	for _, kv := range bytes.Split(env, []byte{0}) {
		if value, ok := bytes.CutPrefix(kv, prefix); ok {
			return string(value), true
		}
	}
	return "", false
}
