package proc

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// handleWatch watches a process through a handle to it, which is
// signalled when it exits and keeps its exit code, woken by an event.
type handleWatch struct {
	process windows.Handle
	stop    windows.Handle // an event wake sets
}

// Watch starts watching pid. The caller owns the Watcher and must Stop it.
func Watch(pid int) (*Watcher, error) {
	h, err := openRunning(pid, windows.PROCESS_QUERY_LIMITED_INFORMATION)
	if err != nil {
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	stop, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	return startWatcher(pid, &handleWatch{process: h, stop: stop}), nil
}

func (w *handleWatch) exitedNow() bool {
	ev, err := windows.WaitForSingleObject(w.process, 0)
	return err == nil && ev == windows.WAIT_OBJECT_0
}

func (w *handleWatch) wake() { _ = windows.SetEvent(w.stop) }

func (w *handleWatch) release() {
	windows.CloseHandle(w.process)
	windows.CloseHandle(w.stop)
}

func (w *handleWatch) wait() (Ending, bool) {
	ev, err := windows.WaitForMultipleObjects([]windows.Handle{w.process, w.stop}, false, windows.INFINITE)
	// The end is looked at first: a Stop racing it must not hide it.
	if err != nil || ev != windows.WAIT_OBJECT_0 {
		if e, _ := windows.WaitForSingleObject(w.process, 0); e != windows.WAIT_OBJECT_0 {
			return Ending{}, false
		}
	}
	var code uint32
	if windows.GetExitCodeProcess(w.process, &code) == nil {
		return Ending{Known: true, Code: int(code)}, true
	}
	return Ending{}, true
}
