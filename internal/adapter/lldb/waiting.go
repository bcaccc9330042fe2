package lldb

import (
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// nativeWaits name, by a function of the C library or of Rust's standard
// library that a thread's stack passes through above the program's code,
// what it waits on; a name matches when it contains the key
// (glibc's "___pthread_mutex_lock", "__GI___lll_lock_wait").
// docs/adapter-quirks.md: lldb-33.
var nativeWaits = []struct {
	key  string
	wait adapter.Wait
}{
	{"pthread_mutex_lock", adapter.Wait{What: "a lock (pthread_mutex_lock)", Blocking: true, Lock: true}},
	{"pthread_mutex_timedlock", adapter.Wait{What: "a lock (pthread_mutex_timedlock)", Blocking: true, Lock: true}},
	{"pthread_rwlock_", adapter.Wait{What: "a lock (pthread_rwlock)", Blocking: true, Lock: true}},
	{"pthread_spin_lock", adapter.Wait{What: "a lock (pthread_spin_lock)", Blocking: true, Lock: true}},
	{"std::mutex::lock", adapter.Wait{What: "a lock (std::mutex)", Blocking: true, Lock: true}},
	{"::lock_contended", adapter.Wait{What: "a lock (Mutex)", Blocking: true, Lock: true}},
	{"RwLock", adapter.Wait{What: "a lock (RwLock)", Blocking: true, Lock: true}},
	{"pthread_cond_", adapter.Wait{What: "a condition (pthread_cond_wait)", Blocking: true}},
	{"Condvar", adapter.Wait{What: "a condition (Condvar)", Blocking: true}},
	{"condition_variable", adapter.Wait{What: "a condition (condition_variable)", Blocking: true}},
	{"pthread_join", adapter.Wait{What: "a thread to end (pthread_join)", Blocking: true}},
	{"pthread_clockjoin", adapter.Wait{What: "a thread to end (pthread_join)", Blocking: true}},
	{"JoinHandle", adapter.Wait{What: "a thread to end (join)", Blocking: true}},
	{"pthread_barrier_wait", adapter.Wait{What: "a barrier", Blocking: true}},
	{"sem_wait", adapter.Wait{What: "a semaphore", Blocking: true}},
	{"mpsc", adapter.Wait{What: "a channel", Blocking: true}},
	{"mpmc", adapter.Wait{What: "a channel", Blocking: true}},
	{"nanosleep", adapter.Wait{What: "sleep"}},
	{"thread::sleep", adapter.Wait{What: "sleep"}},
	{"usleep", adapter.Wait{What: "sleep"}},
	{"epoll_wait", adapter.Wait{What: "I/O (epoll_wait)"}},
	{"poll", adapter.Wait{What: "I/O (poll)"}},
	{"select", adapter.Wait{What: "I/O (select)"}},
	{"accept", adapter.Wait{What: "I/O (accept)"}},
	{"recv", adapter.Wait{What: "I/O (recv)"}},
	{"libc_read", adapter.Wait{What: "I/O (read)"}},
	{"futex_wait", adapter.Wait{What: "a futex", Blocking: true}},
}

// waitingOn reads a native thread's wait from the library frames above
// its innermost frame of the program, from the outermost of them in:
// pthread_mutex_lock, not the futex wait it makes.
func waitingOn(t adapter.ThreadStack) (adapter.Wait, bool) {
	for _, f := range t.WaitFrames() {
		for _, nw := range nativeWaits {
			if strings.Contains(f.Name, nw.key) {
				return nw.wait, true
			}
		}
	}
	return adapter.Wait{}, false
}

// systemRoots hold the system's headers, which debug information names by
// absolute paths: C++'s standard library is headers (std::mutex::lock is
// /usr/include/c++/12/bits/std_mutex.h). dependencyDirs hold the sources
// of Rust's crates, under cargo's home wherever it is.
var (
	systemRoots    = []string{"/usr/include/", "/usr/local/include/", "/Library/Developer/", "/Applications/Xcode.app/"}
	dependencyDirs = []string{"/.cargo/registry/", "/.cargo/git/"}
)

// libraryFrame marks frames in the system's headers and in dependencies:
// the view of every thread shows the program's frames only.
// docs/adapter-quirks.md: lldb-33.
func libraryFrame(_, path string) bool {
	path = filepath.ToSlash(path)
	for _, root := range systemRoots {
		if strings.HasPrefix(path, root) {
			return true
		}
	}
	for _, dir := range dependencyDirs {
		if strings.Contains(path, dir) {
			return true
		}
	}
	return false
}
