package server

import (
	"path/filepath"
	"testing"
)

func TestRelativeUnderKeepsPathsOutsideTheBase(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "proj")
	inside := filepath.Join(base, "src", "app.py")
	sibling := filepath.Join(root, "proj2", "app.py")
	for _, tc := range []struct{ path, want string }{
		{inside, filepath.Join("src", "app.py")},
		{base, base},
		{sibling, sibling},
		{filepath.Join("relative", "already.py"), filepath.Join("relative", "already.py")},
	} {
		if got := relativeUnder(base, tc.path); got != tc.want {
			t.Errorf("relativeUnder(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if got := relativeUnder("", inside); got != inside {
		t.Errorf("without a base the path stays whole: %q", got)
	}
}
