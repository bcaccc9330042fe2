package proc

import (
	"os/exec"
	"testing"
)

// What the reaper costs a command: starting `true` and waiting for it to
// end, with and without one.
func BenchmarkStartUnderAReaper(b *testing.B) {
	for _, row := range []struct {
		name string
		off  bool
	}{{"reaper", false}, {"plain", true}} {
		b.Run(row.name, func(b *testing.B) {
			defer func(was bool) { reapersOff = was }(reapersOff)
			reapersOff = row.off
			for b.Loop() {
				p, err := Start(exec.Command("true"))
				if err != nil {
					b.Fatal(err)
				}
				<-p.Done()
			}
		})
	}
}
