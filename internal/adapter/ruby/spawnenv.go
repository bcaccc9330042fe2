package ruby

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// rdbg -c starts the program when rdbg is spawned, before any DAP request:
// its launch request is only acknowledged (rdbg 1.4.0 and 1.6.3 alike), so
// the env and cwd an agent gives in dapLaunchArgs reach the program only
// through the spawn. These read them there.

// spawnEnv is the program's environment on top of the server's: cfg.Env
// with dapLaunchArgs "env" merged over it key by key; a null value there
// unsets the variable (unset lists it), as VS Code's launch configurations
// define.
func spawnEnv(cfg adapter.LaunchConfig) (env map[string]string, unset []string, err error) {
	env = make(map[string]string, len(cfg.Env))
	for k, v := range cfg.Env {
		env[k] = v
	}
	switch extra := cfg.Extra["env"].(type) {
	case nil:
	case map[string]string:
		for k, v := range extra {
			env[k] = v
		}
	case map[string]any:
		for k, v := range extra {
			switch v := v.(type) {
			case string:
				env[k] = v
			case nil:
				delete(env, k)
				unset = append(unset, k)
			default:
				return nil, nil, fmt.Errorf("dapLaunchArgs env %s must be a string or null, not %v", k, v)
			}
		}
	default:
		return nil, nil, fmt.Errorf("dapLaunchArgs env must be an object of strings, not %v", extra)
	}
	return env, unset, nil
}

// spawnCwd is the program's working directory: dapLaunchArgs "cwd" over
// cfg.Cwd, else the program's directory.
func spawnCwd(cfg adapter.LaunchConfig) (string, error) {
	cwd := cfg.Cwd
	switch c := cfg.Extra["cwd"].(type) {
	case nil:
	case string:
		cwd = c
	default:
		return "", fmt.Errorf("dapLaunchArgs cwd must be a directory path, not %v", c)
	}
	if cwd == "" {
		return filepath.Dir(cfg.Program), nil
	}
	if st, err := os.Stat(cwd); err != nil || !st.IsDir() {
		return "", fmt.Errorf("the program's cwd %s is not a directory", cwd)
	}
	return cwd, nil
}

// environ is the server's environment without unset, with env added.
func environ(env map[string]string, unset []string) []string {
	out := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(unset, name)
	})
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}
