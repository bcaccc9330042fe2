//go:build unix

package proc

// parents maps every live process to its parent.
func parents() map[int]int {
	out := map[int]int{}
	for pid, st := range scan() {
		out[pid] = st.ppid
	}
	return out
}
