package session

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// inputs are the files holding standard input an agent gave as text:
// each launch's in a temporary directory of the session's, removed when
// it closes (a restart reads the same file again).
type inputs struct {
	mu  sync.Mutex
	dir string
	n   int
}

// write puts text in a new file of the session's and returns its path.
func (in *inputs) write(text string) (string, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.dir == "" {
		dir, err := proc.MkdirTemp("stdin")
		if err != nil {
			return "", fmt.Errorf("the program's input: %w", err)
		}
		in.dir = dir
	}
	in.n++
	file := filepath.Join(in.dir, fmt.Sprintf("%d.txt", in.n))
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		return "", fmt.Errorf("the program's input: %w", err)
	}
	return file, nil
}

// remove deletes the input files.
func (in *inputs) remove() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.dir != "" {
		os.RemoveAll(in.dir)
		in.dir = ""
	}
}
