package node

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// A child a debugged program forks (child_process.fork, cluster.fork) starts
// with the parent's process.execArgv, and with it the
// --inspect-brk=127.0.0.1:0 we launch the program with: the child opens an
// inspector of its own and waits at its first line for a debugger that never
// comes, and the parent waits on the child (docs/adapter-quirks.md, node-15).
// A preloaded script takes the inspector flags out of execArgv, so forked
// children run undebugged, as debugpy's children do by default.
const forkPreload = `// Written by mcp-debugger: children forked by a program under the debugger
// run without the inspector flag, instead of waiting for a debugger.
process.execArgv = process.execArgv.filter((arg) => !/^--inspect(-brk|-port|-wait)?(=|$)/.test(arg));
`

var forkPreloadFile struct {
	once sync.Once
	path string
	err  error
}

// forkPreloadPath is the preload script's path, written once per process
// into the user's cache (named by its content, so servers of other versions
// never overwrite each other's).
func forkPreloadPath() (string, error) {
	f := &forkPreloadFile
	f.once.Do(func() {
		dir, err := os.UserCacheDir()
		if err != nil {
			f.err = fmt.Errorf("no cache directory for the fork preload: %w", err)
			return
		}
		sum := sha256.Sum256([]byte(forkPreload))
		path := filepath.Join(dir, "mcp-debugger", "node", "fork-preload-"+hex.EncodeToString(sum[:6])+".js")
		if _, err := os.Stat(path); err == nil {
			f.path = path
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			f.err = fmt.Errorf("fork preload: %w", err)
			return
		}
		// Written aside and renamed, so that a concurrent server never
		// preloads half a file.
		tmp := fmt.Sprintf("%s.%d", path, os.Getpid())
		if err := os.WriteFile(tmp, []byte(forkPreload), 0o644); err != nil {
			f.err = fmt.Errorf("fork preload: %w", err)
			return
		}
		if err := os.Rename(tmp, path); err != nil {
			f.err = fmt.Errorf("fork preload: %w", err)
			return
		}
		f.path = path
	})
	return f.path, f.err
}
