package python

import (
	_ "embed"
	"path/filepath"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// pytestPluginModule is the plugin's module name, as pytest's -p takes it.
const pytestPluginModule = "mcp_debugger_pytest"

// pytestPluginFile is the plugin's path under the scripts directory: a
// directory of its own, so that putting it on PYTHONPATH makes no other
// script importable under a name the user's code might use.
var pytestPluginFile = filepath.Join("pytest", pytestPluginModule+".py")

// pytestPlugin gives debug_test a stop where debugpy cannot make one (see
// the script's comment: a RecursionError turns tracing off).
//
//go:embed scripts/pytest/mcp_debugger_pytest.py
var pytestPlugin string

// runsPytest reports whether a launch runs pytest as a module, as
// debug_test's plan does.
func runsPytest(cfg adapter.LaunchConfig) bool {
	module, _ := cfg.Extra["module"].(string)
	return module == "pytest"
}

// withPytestPlugin loads the plugin into a pytest launch: its directory
// joins PYTHONPATH and -p names it ahead of the user's arguments.
func withPytestPlugin(cfg adapter.LaunchConfig, env map[string]any, scripts string) adapter.LaunchConfig {
	appendPythonPath(env, filepath.Join(scripts, filepath.Dir(pytestPluginFile)))
	cfg.Args = append([]string{"-p", pytestPluginModule}, cfg.Args...)
	return cfg
}
