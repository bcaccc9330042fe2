package textsafe

import "testing"

func TestVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain line\n", "plain line\n"},
		{"tab\tand\r\n", "tab\tand\r\n"},
		{"\x1b[31mred\x1b[0m done\n", "red done\n"},
		{"\x1b]0;pwned title\x07after", "after"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1b[2J\x1b[Hcleared", "cleared"},
		{"bell\x07 nul\x00 del\x7f", `bell\x07 nul\x00 del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"unterminated \x1b[12", "unterminated [12"},
		{"\x1b7saved", "saved"},
		{"é ünïcode ✓", "é ünïcode ✓"},
		{"ends with ESC\x1b", "ends with ESC"},
	} {
		if got := Visible(c.in); got != c.want {
			t.Errorf("Visible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func BenchmarkVisibleClean(b *testing.B) {
	line := "an ordinary line of program output with nothing special in it\n"
	for b.Loop() {
		_ = Visible(line)
	}
}
