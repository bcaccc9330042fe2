package java

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

const (
	// consoleLauncherClass is the JUnit Platform's command-line runner,
	// which runs JUnit 5 tests and, through the vintage engine the
	// standalone jar holds, JUnit 4 ones.
	consoleLauncherClass = "org.junit.platform.console.ConsoleLauncher"
	// consoleLauncherJar is where Debian's junit5 package installs it.
	consoleLauncherJar = "/usr/share/java/junit-platform-console-standalone.jar"
	junitInstallHint   = "apt-get install -y junit5 (or put junit-platform-console-standalone-*.jar among the project's dependency jars)"
)

// junitCatchers are where JUnit catches what a test throws, to report it:
// a failed assertion never reaches the JVM uncaught, so these catchers
// count as none.
var junitCatchers = []string{"org.junit.", "junit.framework."}

// TestPlan runs a JUnit test class of a Maven or Gradle project (its
// source file under src/test/java) with the JUnit console launcher, from
// the project's built test classes, classes and dependency jars; a failed
// assertion stops where it is thrown and the answer shows the test's
// frame. A test outside any such project runs from plain build
// directories (plainTestPlan).
func (a *Adapter) TestPlan(_ context.Context, req adapter.TestRequest) (*adapter.TestPlan, error) {
	if isJavaSource(req.Path) && findProject(filepath.Dir(req.Path)) == nil {
		return plainTestPlan(req)
	}
	p, class, err := builtTestClass(req.Path)
	if err != nil {
		return nil, err
	}
	launcher := findConsoleLauncher(p)
	if launcher == "" {
		return nil, &adapter.UnavailableError{Language: languageID, Reason: "no JUnit console launcher (junit-platform-console-standalone.jar) among the project's jars or in /usr/share/java", InstallHint: junitInstallHint}
	}
	selector := "--select-class=" + class
	if req.Name != "" {
		selector = "--select-method=" + class + "#" + req.Name
	}
	// The project's own jars come first: its JUnit API, when it has one,
	// is the one its tests were compiled against.
	cp := append(p.classPath(true), launcher)
	return &adapter.TestPlan{
		Runner:  "junit",
		Program: req.Path,
		Args:    []string{"--disable-banner", "--disable-ansi-colors", "--details=tree", "--fail-if-no-tests", selector},
		Cwd:     p.root,
		Extra: map[string]any{
			"mainClass":             consoleLauncherClass,
			"classPaths":            cp,
			"testFrameworkPackages": junitCatchers,
			classPathOriginArg:      fmt.Sprintf("JUnit console launcher; %s layout, test class %s; %s", p.layout, class, p.dependencyNote()),
		},
		ExecutablePath:    req.ExecutablePath,
		BreakOnExceptions: "uncaught",
		TestFrame: func(_, path string) bool {
			return path != "" && filepath.Clean(path) == filepath.Clean(req.Path)
		},
		FailureSummary: junitSummary,
	}, nil
}

// isJavaSource reports whether path names a Java or Kotlin source file.
func isJavaSource(path string) bool {
	return strings.HasSuffix(path, ".java") || strings.HasSuffix(path, ".kt")
}

// builtTestClass finds the project of a test class's source file and the
// class it declares, whose build must be up to date: the agent builds, we
// debug.
func builtTestClass(path string) (*project, string, error) {
	if !isJavaSource(path) {
		return nil, "", errors.New("give the source file of a JUnit test class (src/test/java/…/FooTest.java)")
	}
	p := findProject(filepath.Dir(path))
	if p == nil {
		return nil, "", fmt.Errorf("%s is in no Maven or Gradle project (no pom.xml or build.gradle above it): the tests run from the project's built test classes", path)
	}
	if _, tests := p.sourceRootOf(path); !tests {
		return nil, "", fmt.Errorf("%s is not under the project's test sources (src/test/java)", path)
	}
	class := classOfSource(path)
	built, err := p.builtClass(path, class, p.testClassDirs)
	if err != nil {
		return nil, "", err
	}
	if !built {
		return nil, "", fmt.Errorf("the tests of %s are not compiled (no %s): build them (%s) and start again", p.root, p.rel(p.testClassDirs[0]), p.build)
	}
	return p, class, nil
}

// findConsoleLauncher finds the JUnit console launcher among the
// project's dependency jars, else where Debian installs it; "" when none.
func findConsoleLauncher(p *project) string {
	for _, d := range p.deps {
		if strings.HasPrefix(filepath.Base(d), "junit-platform-console-standalone") {
			return d
		}
	}
	if isFile(consoleLauncherJar) {
		return consoleLauncherJar
	}
	return ""
}

// failedTestLine is a failed test in the launcher's tree:
// "│  └─ taxesTwoPrices() ✘ two prices with tax ==> expected: …".
var failedTestLine = regexp.MustCompile(`(?m)^[\s│├└─]*(.+?) ✘ ?(.*)$`)

// junitSummary reads a failed test's name and message from the
// launcher's tree, for a run that failed without stopping; else JUnit's
// own error (a selection it could not resolve), or "no test" when the
// selection matched none (--fail-if-no-tests exits 2).
func junitSummary(output string) (string, string) {
	if m := failedTestLine.FindStringSubmatch(output); m != nil {
		return strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
	}
	if m := junitError.FindAllStringSubmatch(output, -1); m != nil {
		return "", m[len(m)-1][1]
	}
	if strings.Contains(output, " 0 tests found ") {
		return "", "JUnit found no test to run: check the class and the test's method name"
	}
	return "", ""
}

// junitError is a line of the trace the launcher prints when it cannot
// run what it was asked to (a test method that is not there); the last,
// innermost cause of JUnit's own says why.
var junitError = regexp.MustCompile(`(?m)^(?:Caused by: )?org\.junit\.[\w.]+: (.+)$`)
