package java

import (
	"context"
	"fmt"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// javaHomeTool is macOS's own JDK locator, which prints the home of the
// newest installed JDK.
const javaHomeTool = "/usr/libexec/java_home"

// launcher is the java that runs the program and why it was chosen.
type launcher struct {
	path, origin string
}

// runtime is the line the agent sees as the answer's runtime.
func (l launcher) runtime() string { return "java: " + l.path + " (" + l.origin + ")" }

// installHint is the command that installs a JDK the finder finds on o.
func installHint(o platform.OS) string {
	return platform.InstallCommands{
		Apt:    "apt-get install -y openjdk-17-jdk-headless",
		Brew:   "brew install openjdk@17",
		Winget: "winget install Microsoft.OpenJDK.17",
	}.For(o)
}

// findJava finds the java launcher on m: the path given, then
// $JAVA_HOME/bin/java, then (macOS) the JDK /usr/libexec/java_home names,
// then PATH. On macOS java_home comes before PATH because /usr/bin/java is
// a stub that exists without any JDK and only offers to install one.
func findJava(ctx context.Context, m platform.Machine, explicit string) (launcher, error) {
	if explicit != "" {
		if !m.IsFile(explicit) {
			return launcher{}, unavailable("executablePath "+explicit+" is not a java launcher", m.OS)
		}
		return launcher{explicit, "executablePath"}, nil
	}
	java := m.OS.Exe("java")
	if home := m.Getenv("JAVA_HOME"); home != "" {
		if p := m.OS.Join(home, "bin", java); m.IsFile(p) {
			return launcher{p, "JAVA_HOME"}, nil
		}
	}
	if m.OS.Name == platform.Darwin.Name {
		if home, err := m.Run(ctx, javaHomeTool); err == nil && home != "" {
			if p := m.OS.Join(home, "bin", java); m.IsFile(p) {
				return launcher{p, javaHomeTool}, nil
			}
		}
	}
	p, err := m.LookPath("java")
	if err != nil {
		return launcher{}, unavailable(fmt.Sprintf("no %s on PATH and JAVA_HOME unset", java), m.OS)
	}
	return launcher{p, "PATH"}, nil
}

func unavailable(reason string, o platform.OS) *adapter.UnavailableError {
	return &adapter.UnavailableError{Language: languageID, Reason: reason, InstallHint: installHint(o)}
}
