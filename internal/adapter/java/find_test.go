package java

import (
	"context"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/platform/platformtest"
)

// TestFindJavaPerOS: which java launcher each OS offers first, on a fake
// machine.
func TestFindJavaPerOS(t *testing.T) {
	jdk := "/Library/Java/JavaVirtualMachines/temurin-17.jdk/Contents/Home"
	for _, c := range []struct {
		name     string
		os       platform.OS
		env      map[string]string
		commands map[string]string
		files    []string
		want     string
	}{
		{"linux JAVA_HOME", platform.Linux, map[string]string{"JAVA_HOME": "/opt/jdk", "PATH": "/usr/bin"}, nil,
			[]string{"/opt/jdk/bin/java", "/usr/bin/java"}, "java: /opt/jdk/bin/java (JAVA_HOME)"},
		{"linux PATH", platform.Linux, map[string]string{"PATH": "/usr/bin"}, nil,
			[]string{"/usr/bin/java"}, "java: /usr/bin/java (PATH)"},
		{"macOS java_home before the /usr/bin stub", platform.Darwin, map[string]string{"PATH": "/usr/bin"},
			map[string]string{javaHomeTool: jdk}, []string{"/usr/bin/java", jdk + "/bin/java"},
			"java: " + jdk + "/bin/java (" + javaHomeTool + ")"},
		{"macOS no JDK", platform.Darwin, map[string]string{"PATH": "/usr/bin"}, nil,
			[]string{"/usr/bin/java"}, "java: /usr/bin/java (PATH)"},
		{"windows JAVA_HOME", platform.Windows, map[string]string{"JAVA_HOME": `C:\Program Files\Eclipse Adoptium\jdk-17`, "PATH": `C:\Windows`}, nil,
			[]string{`C:\Program Files\Eclipse Adoptium\jdk-17\bin\java.exe`, `C:\Windows\java.exe`},
			`java: C:\Program Files\Eclipse Adoptium\jdk-17\bin\java.exe (JAVA_HOME)`},
		{"windows PATH", platform.Windows, map[string]string{"PATH": `C:\jdk\bin`}, nil,
			[]string{`C:\jdk\bin\java.exe`}, `java: C:\jdk\bin\java.exe (PATH)`},
	} {
		got, err := findJava(context.Background(), platformtest.Machine(c.os, c.env, c.commands, c.files...), "")
		if err != nil || got.runtime() != c.want {
			t.Errorf("%s: %q %v, want %q", c.name, got.runtime(), err, c.want)
		}
	}
}

func TestInstallHintPerOS(t *testing.T) {
	for _, c := range []struct {
		os   platform.OS
		want string
	}{{platform.Linux, "apt-get install"}, {platform.Darwin, "brew install openjdk"}, {platform.Windows, "winget install Microsoft.OpenJDK"}} {
		a := &Adapter{machine: platformtest.Machine(c.os, nil, nil)}
		if av := a.Check(context.Background()); av.Installed || !strings.HasPrefix(av.InstallHint, c.want) {
			t.Errorf("%s: %+v", c.os.Name, av)
		}
	}
}
