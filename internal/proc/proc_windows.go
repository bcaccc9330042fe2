package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// hostPlatform is Windows: job objects that kill what they hold when their
// last handle closes, and console process groups in place of signals.
type hostPlatform struct{}

// host is this operating system's platform.
var host platform = hostPlatform{}

// jobs holds, per adopted *Process, the job of the process and of
// everything it starts (a windows.Handle) until Kill takes it.
var jobs sync.Map

const (
	// reapWait bounds the wait for a terminated job to be empty.
	reapWait = 2 * time.Second
	// goneCheck is how often a kill looks whether a job is empty: a job
	// object signals no such event.
	goneCheck = 10 * time.Millisecond
)

// serverJob puts the server itself in a kill-on-close job, once. A process
// the server starts is in it from its first instruction, and so is all it
// starts: the server's death, which closes the job's only handle, kills
// them all. The job a process is adopted into afterwards is only
// assigned once it runs; what it started before then is covered by this one.
var serverJob sync.Once

// prepare gives cmd a console process group of its own (the target of
// CTRL_BREAK_EVENT; CTRL_C is disabled there) and joins the server's job,
// which holds the whole tree: no reaper is needed, and no pid reported
// (nil).
func (hostPlatform) prepare(cmd *exec.Cmd) *os.File {
	serverJob.Do(joinServerJob)
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP
	return nil
}

// joinServerJob is best effort: a server that cannot join a job of its own
// still has each child's job to kill its tree with.
func joinServerJob() {
	job, err := newKillOnCloseJob()
	if err != nil {
		return
	}
	if windows.AssignProcessToJobObject(job, windows.CurrentProcess()) != nil {
		windows.CloseHandle(job)
	}
	// On success the handle stays open for the server's lifetime.
}

// adopt puts the process in a kill-on-close job of its own, nested in the
// server's, so that Kill ends everything it starts and the server's death
// (which closes the job's handle) does too.
func (hostPlatform) adopt(p *Process) error {
	job, err := newKillOnCloseJob()
	if err != nil {
		return err
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid()))
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("open process %d: %w", p.Pid(), err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("assign process %d to its job: %w", p.Pid(), err)
	}
	jobs.Store(p, job)
	return nil
}

func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create job: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("make job kill on close: %w", err)
	}
	return job, nil
}

// reaped keeps the job: the leader's descendants may outlive it, and die
// with the job on Kill.
func (hostPlatform) reaped(*Process) {}

// kill asks the process group to stop with CTRL_BREAK_EVENT (Windows's
// nearest to SIGTERM; it reaches only processes that share the server's
// console), gives it killGrace, then terminates the job and everything in
// it. A second kill finds no job and only waits for the leader.
func (hostPlatform) kill(p *Process) {
	v, ok := jobs.LoadAndDelete(p)
	if !ok {
		<-p.done
		return
	}
	job := v.(windows.Handle)
	defer windows.CloseHandle(job)
	deadline := time.Now().Add(killGrace)
	if !p.Exited() {
		_ = windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(p.Pid()))
	}
	select {
	case <-p.done:
	case <-time.After(killGrace):
	}
	if !jobEmpty(job, time.Until(deadline)) {
		_ = windows.TerminateJobObject(job, 1)
	}
	<-p.done
	jobEmpty(job, reapWait)
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// golang.org/x/sys/windows does not define.
type jobAccounting struct {
	totalUserTime, totalKernelTime                       int64
	thisPeriodTotalUserTime, thisPeriodTotalKernelTime   int64
	totalPageFaultCount, totalProcesses, activeProcesses uint32
	totalTerminatedProcesses                             uint32
}

// jobEmpty waits up to d for job to hold no running process.
func jobEmpty(job windows.Handle, d time.Duration) bool {
	end := time.Now().Add(d)
	for {
		var info jobAccounting
		err := windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation,
			uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
		if err != nil || info.activeProcesses == 0 {
			return err == nil
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(goneCheck)
	}
}

var errGone = errors.New("proc: no such live process")

// openRunning opens process pid with access (and SYNCHRONIZE), if it runs.
func openRunning(pid int, access uint32) (windows.Handle, error) {
	h, err := windows.OpenProcess(access|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return 0, fmt.Errorf("open process %d: %w", pid, err)
	}
	// A process object outlives its process while handles to it are open.
	if ev, err := windows.WaitForSingleObject(h, 0); err != nil || ev != uint32(windows.WAIT_TIMEOUT) {
		windows.CloseHandle(h)
		return 0, errGone
	}
	return h, nil
}

// Alive reports whether a process with this pid runs.
func Alive(pid int) bool {
	h, err := openRunning(pid, windows.PROCESS_QUERY_LIMITED_INFORMATION)
	if err != nil {
		return false
	}
	windows.CloseHandle(h)
	return true
}

// startTime is when process pid started, in 100 ns since 1601 (FILETIME).
func startTime(pid int) (uint64, error) {
	h, err := openRunning(pid, windows.PROCESS_QUERY_LIMITED_INFORMATION)
	if err != nil {
		return 0, err
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0, fmt.Errorf("times of process %d: %w", pid, err)
	}
	return uint64(created.HighDateTime)<<32 | uint64(created.LowDateTime), nil
}

// parents maps every running process to its parent. Windows keeps a
// process's parent id after the parent has exited, and the id may belong
// to a later process by then: a link to a parent that started after the
// child is no link.
func parents() map[int]int {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	links := map[int]int{}
	entry := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &entry); err == nil; err = windows.Process32Next(snap, &entry) {
		links[int(entry.ProcessID)] = int(entry.ParentProcessID)
	}
	starts := map[int]uint64{}
	for pid := range links {
		if s, err := startTime(pid); err == nil {
			starts[pid] = s
		}
	}
	out := map[int]int{}
	for pid, parent := range links {
		s, ok := starts[pid]
		ps, pok := starts[parent]
		if ok && pok && ps <= s {
			out[pid] = parent
		}
	}
	return out
}

// exeOf is the executable process pid runs.
func exeOf(pid int) (string, error) {
	h, err := openRunning(pid, windows.PROCESS_QUERY_LIMITED_INFORMATION)
	if err != nil {
		return "", err
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	size := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(h, 0, &buf[0], &size); err != nil {
		return "", fmt.Errorf("executable of process %d: %w", pid, err)
	}
	return windows.UTF16ToString(buf[:size]), nil
}

// WaitGone waits up to d for process pid, which need not be our child, to
// exit, and reports whether it did (a pid that is already gone counts).
func WaitGone(pid int, d time.Duration) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return !Alive(pid)
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, uint32(d.Milliseconds()))
	return err == nil && ev == windows.WAIT_OBJECT_0
}

// dismissWatchdog does nothing: the server's job object, not a watchdog,
// ends what it started.
func dismissWatchdog() {}
