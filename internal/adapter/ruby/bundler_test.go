package ruby

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGemfileFor: the nearest Gemfile at or above the program, not past
// the project root (.git), and BUNDLE_GEMFILE from env first.
func TestGemfileFor(t *testing.T) {
	root := t.TempDir()
	write := func(rel string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	outer := write("Gemfile")
	write("proj/.git")
	inner := write("proj/app/Gemfile")
	script := write("proj/app/lib/deep/run.rb")
	lone := write("proj/tools/run.rb")
	elsewhere := write("other/run.rb")

	for _, c := range []struct {
		program string
		env     map[string]string
		want    string
	}{
		{script, nil, inner},
		{lone, nil, ""},
		{elsewhere, nil, outer},
		{lone, map[string]string{gemfileEnv: "/x/Gemfile"}, "/x/Gemfile"},
	} {
		if got := gemfileFor(c.program, c.env); got != c.want {
			t.Errorf("gemfileFor(%s, %v) = %q, want %q", c.program, c.env, got, c.want)
		}
	}
}
