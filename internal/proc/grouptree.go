//go:build linux || darwin

package proc

// treeOf lists the live members of process group pgid other than its
// leader, and the descendants of the leader and of those members.
func treeOf(pgid int) []int {
	procs := scan()
	children := map[int][]int{}
	var queue []int
	for pid, st := range procs {
		children[st.ppid] = append(children[st.ppid], pid)
		if st.pgrp == pgid && pid != pgid {
			queue = append(queue, pid)
		}
	}
	seen := map[int]bool{pgid: true}
	var out []int
	queue = append(queue, children[pgid]...)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		out = append(out, pid)
		queue = append(queue, children[pid]...)
	}
	return out
}

// leader is the id of the process group's leader: the command, or its
// reaper where it has one.
func (p *Process) leader() int { return p.cmd.Process.Pid }
