package session

import (
	"strings"
	"testing"
)

func TestSummarizeSaysDeadlockOnlyWhenShown(t *testing.T) {
	lockAt := func(id int, name, holder string) ThreadGroup {
		return ThreadGroup{Count: 1, ThreadIDs: []int{id}, Waiting: "a lock", Source: "m.Lock()",
			Frames: []Frame{{Name: "f", File: "/p/a.go", Line: 9}}, blocking: true, lock: true, names: []string{name}, holder: holder}
	}
	running := ThreadGroup{Count: 1, ThreadIDs: []int{1}, Frames: []Frame{{Name: "main", File: "/p/a.go", Line: 3}}, names: []string{"main"}}
	joining := ThreadGroup{Count: 1, ThreadIDs: []int{1}, Waiting: "a thread to end", blocking: true, names: []string{"main (waiting)"}}
	for _, c := range []struct {
		name   string
		all    AllThreads
		want   string
		absent string
	}{
		{"a running thread: waiting, not deadlock",
			AllThreads{Groups: []ThreadGroup{lockAt(2, "a", ""), lockAt(3, "b", ""), running}, Listed: 3, Looked: 3},
			"2 threads wait on locks: thread 2 at a.go:9 (m.Lock()), thread 3 at a.go:9 (m.Lock())", "deadlock:"},
		{"every thread waits on another",
			AllThreads{Groups: []ThreadGroup{lockAt(2, "a", ""), lockAt(3, "b", ""), joining}, Listed: 3, Looked: 3},
			"deadlock: all 3 threads of the program wait on another thread", ""},
		{"not every thread read: no deadlock claimed",
			AllThreads{Groups: []ThreadGroup{lockAt(2, "a", ""), lockAt(3, "b", ""), joining}, Listed: 500, Looked: 200},
			"2 threads wait on locks", "deadlock:"},
		{"a library thread doing I/O may wake them",
			AllThreads{Groups: []ThreadGroup{lockAt(2, "a", ""), lockAt(3, "b", ""), joining}, Listed: 4, Looked: 4, awakeElsewhere: true},
			"2 threads wait on locks", "deadlock:"},
		{"holders in a circle are a deadlock even with a running thread",
			AllThreads{Groups: []ThreadGroup{lockAt(2, "a (blocked)", "b"), lockAt(3, "b (blocked)", "a"), running}, Listed: 3, Looked: 3},
			"deadlock: b waits for a lock held by a, which waits for one held by b", ""},
		{"holders in a line are no circle",
			AllThreads{Groups: []ThreadGroup{lockAt(2, "a (blocked)", "b"), running}, Listed: 2, Looked: 2},
			"1 thread waits on a lock", "deadlock:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := summarize(&c.all)
			if !strings.Contains(got, c.want) || c.absent != "" && strings.Contains(got, c.absent) {
				t.Errorf("summary %q: want %q, without %q", got, c.want, c.absent)
			}
		})
	}
}
