package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// A Maven project (testdata/java/maven) as `mvn package
// dependency:copy-dependencies` leaves it: classes in target/classes and
// target/test-classes, its dependency's jar in target/dependency. Neither
// Maven nor the dependency's repository is here, so the test builds that
// layout with javac and jar.

// junitConsoleJar is where Debian's junit5 package puts the JUnit console
// launcher, which also holds the Jupiter API the test classes compile
// against.
const junitConsoleJar = "/usr/share/java/junit-platform-console-standalone.jar"

// mavenProject copies the project to a temp dir and builds its dependency
// jar into target/dependency; with classes, also target/classes and
// target/test-classes. It returns the project's root.
func mavenProject(t *testing.T, classes bool) string {
	t.Helper()
	javac := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "javac")
	jar := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "jar")
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(javaSource(t, "maven"))); err != nil {
		t.Fatal(err)
	}
	depClasses := t.TempDir()
	runTool(t, javac, "-g", "-d", depClasses, javaSource(t, "maven-dep/com/example/pricing/Rates.java"))
	depJar := filepath.Join(root, "target", "dependency", "pricing-1.0.jar")
	if err := os.MkdirAll(filepath.Dir(depJar), 0o755); err != nil {
		t.Fatal(err)
	}
	runTool(t, jar, "--create", "--file", depJar, "-C", depClasses, ".")
	if !classes {
		return root
	}
	runTool(t, javac, "-g", "-d", filepath.Join(root, "target", "classes"), "-cp", depJar,
		filepath.Join(root, "src/main/java/com/example/shop/Checkout.java"))
	if _, err := os.Stat(junitConsoleJar); err != nil && os.Getenv("CI") == "true" {
		t.Fatalf("%s missing: apt-get install -y junit5", junitConsoleJar)
	} else if err == nil {
		tests, _ := filepath.Glob(filepath.Join(root, "src/test/java/com/example/shop/*.java"))
		runTool(t, javac, append([]string{"-g", "-d", filepath.Join(root, "target", "test-classes"),
			"-cp", strings.Join([]string{filepath.Join(root, "target", "classes"), depJar, junitConsoleJar}, ":")}, tests...)...)
	}
	return root
}

func runTool(t *testing.T, name string, args ...string) {
	t.Helper()
	if b, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, b)
	}
}

const checkoutSource = "src/main/java/com/example/shop/Checkout.java"

// startCheckout sets a breakpoint on Checkout.java's println (line 17) and
// starts the source file of the project at root.
func startCheckout(t *testing.T, root string) (*harness, result) {
	t.Helper()
	h := newHarness(t)
	id := h.sessionFor("java")
	src := filepath.Join(root, checkoutSource)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 17})
	return h, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
}

// The source file of a Maven project runs as its compiled class, with the
// dependency jars on the class path, and the answer says which.
func TestJavaMavenSourceRunsItsBuiltClassWithDependencies(t *testing.T) {
	_, snap := startCheckout(t, mavenProject(t, true))
	wantStop(t, snap, "breakpoint", 17)
	if l := snap.vars("locals"); l["taxed"] != "420" {
		t.Errorf("total() used the dependency's Rates.withTax: locals %v", l)
	}
	rt := snap.obj("data").str("runtime")
	for _, want := range []string{"java: ", "target/classes:target/dependency/pricing-1.0.jar", "Maven", "com.example.shop.Checkout"} {
		if !strings.Contains(rt, want) {
			t.Errorf("runtime should say %q: %q", want, rt)
		}
	}
	// The version of whichever JDK ran it (17, 21, 25: the matrix's rows).
	if !regexp.MustCompile(`java: \S+ \d+\.\d+`).MatchString(rt) {
		t.Errorf("runtime should say the java's version: %q", rt)
	}
}

// A class older than its source would run other code than the agent
// reads: the launch says so and how to build.
func TestJavaMavenSourceNewerThanItsClassSaysHowToBuild(t *testing.T) {
	root := mavenProject(t, true)
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(root, checkoutSource), later, later); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	id := h.sessionFor("java")
	out := h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(root, checkoutSource)}, "older than")
	if msg := out.str("error"); !strings.Contains(msg, "target/classes/com/example/shop/Checkout.class") || !strings.Contains(msg, "mvn") {
		t.Errorf("the error names the stale class and the build command: %q", msg)
	}
}

// A project not built yet is compiled into a temp dir, against its
// dependency jars, and the answer says so.
func TestJavaMavenSourceWithoutBuildOutputIsCompiled(t *testing.T) {
	_, snap := startCheckout(t, mavenProject(t, false))
	wantStop(t, snap, "breakpoint", 17)
	if l := snap.vars("locals"); l["taxed"] != "420" {
		t.Errorf("locals: %v", l)
	}
	if rt := snap.obj("data").str("runtime"); !strings.Contains(rt, "compiled") || !strings.Contains(rt, "target/dependency/pricing-1.0.jar") {
		t.Errorf("runtime should say the sources were compiled, against the dependency: %q", rt)
	}
}

// requireJUnit skips the test without Debian's JUnit console launcher,
// and fails it under CI, whose install script provides it.
func requireJUnit(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(junitConsoleJar); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("apt-get install -y junit5")
		}
		t.Skip("no JUnit console launcher: apt-get install -y junit5")
	}
}

// debug_test on a JUnit 5 test class stops at the failing assertion, in
// the test's own frame, with the test's name and the assertion's message.
func TestJavaDebugTestStopsAtTheFailingJUnitAssertion(t *testing.T) {
	root := mavenProject(t, true)
	testenv.RequireAdapter(t, "java")
	requireJUnit(t)
	h := newHarness(t)
	file := filepath.Join(root, "src/test/java/com/example/shop/CheckoutTest.java")
	res := h.ok("debug_test", map[string]any{"language": "java", "path": file})
	test := wantJUnitFailure(t, res, junitFailure{"taxesTwoPrices", "two prices with tax ==> expected: <400> but was: <420>", "CheckoutTest.java", 17, "420"})
	// JUnit's ~90 frames that called the test say nothing of the failure.
	if trace := res.obj("exception").str("stackTrace"); strings.Contains(trace, "ReflectionUtils") || !strings.Contains(trace, "CheckoutTest.taxesTwoPrices") {
		t.Errorf("the trace ends at the test: %q", trace)
	}
	if rt := test.str("runtime"); !strings.Contains(rt, "junit-platform-console-standalone") || !strings.Contains(rt, "target/test-classes") {
		t.Errorf("test.runtime names the launcher and the class path: %q", rt)
	}

	passing := h.ok("debug_test", map[string]any{"language": "java", "path": file, "name": "taxesOnePrice"}).obj("test")
	if passing["passed"] != true || passing["failed"] == true {
		t.Errorf("the passing test alone passes: %v", passing)
	}
}

// Other layouts a build leaves: a Gradle project's build/classes/java/main
// with its jars named by Eclipse's .classpath (Gradle's eclipse plugin),
// and a Maven project whose jars are listed in a plain .classpath (mvn
// dependency:build-classpath -Dmdep.outputFile=.classpath).
func TestJavaProjectLayoutsFindTheirClassPath(t *testing.T) {
	for _, tc := range []struct {
		name, buildFile, classes, classpathFile, wantRuntime string
	}{
		{"gradle with eclipse .classpath", "build.gradle", "build/classes/java/main",
			`<?xml version="1.0" encoding="UTF-8"?>
<classpath>
	<classpathentry kind="src" path="src/main/java"/>
	<classpathentry kind="lib" path="libs/pricing-1.0.jar"/>
	<classpathentry kind="output" path="bin"/>
</classpath>
`, "build/classes/java/main:libs/pricing-1.0.jar (Gradle layout"},
		{"maven with a plain .classpath", "pom.xml", "target/classes", "libs/pricing-1.0.jar\n", "target/classes:libs/pricing-1.0.jar (Maven layout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := mavenProject(t, false)
			if err := os.Remove(filepath.Join(root, "pom.xml")); err != nil {
				t.Fatal(err)
			}
			for file, text := range map[string]string{tc.buildFile: "", ".classpath": tc.classpathFile} {
				if err := os.WriteFile(filepath.Join(root, file), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			libs := filepath.Join(root, "libs")
			if err := os.Rename(filepath.Join(root, "target", "dependency"), libs); err != nil {
				t.Fatal(err)
			}
			runTool(t, "javac", "-g", "-d", filepath.Join(root, filepath.FromSlash(tc.classes)), "-cp", filepath.Join(libs, "pricing-1.0.jar"),
				filepath.Join(root, checkoutSource))
			_, snap := startCheckout(t, root)
			wantStop(t, snap, "breakpoint", 17)
			if l := snap.vars("locals"); l["taxed"] != "420" {
				t.Errorf("locals: %v", l)
			}
			if rt := snap.obj("data").str("runtime"); !strings.Contains(rt, tc.wantRuntime) || !strings.Contains(rt, "from .classpath") {
				t.Errorf("runtime should say %q, from .classpath: %q", tc.wantRuntime, rt)
			}
		})
	}
}

// A JUnit 4 test runs through the launcher's vintage engine and stops
// alike, at org.junit.Assert's failure.
func TestJavaDebugTestStopsAtAFailingJUnit4Assertion(t *testing.T) {
	root := mavenProject(t, true)
	testenv.RequireAdapter(t, "java")
	requireJUnit(t)
	h := newHarness(t)
	file := filepath.Join(root, "src/test/java/com/example/shop/LegacyCheckoutTest.java")
	res := h.ok("debug_test", map[string]any{"language": "java", "path": file})
	test := res.obj("test")
	if test["failed"] != true || !strings.Contains(test.str("name"), "taxesNothingFree") || !strings.Contains(test.str("message"), "free and five expected:<5> but was:<6>") {
		t.Fatalf("debug_test reports the failing JUnit 4 test: %v", test)
	}
	wantStop(t, res, "exception", 11)
	if l := res.vars("locals"); l["taxed"] != "6" {
		t.Errorf("the test's locals: %v", l)
	}
}

// A test the class does not have fails the run without a stop in JUnit's
// own discovery, and the answer says JUnit's reason.
func TestJavaDebugTestOfAMissingTestSaysWhy(t *testing.T) {
	root := mavenProject(t, true)
	testenv.RequireAdapter(t, "java")
	requireJUnit(t)
	h := newHarness(t)
	file := filepath.Join(root, "src/test/java/com/example/shop/CheckoutTest.java")
	res := h.ok("debug_test", map[string]any{"language": "java", "path": file, "name": "taxesNothing"})
	test := res.obj("test")
	if res.str("state") != "stopped" || test["failed"] != true {
		t.Fatalf("the run ends failed, without a stop in JUnit: state=%s location=%v test=%v", res.str("state"), res["location"], test)
	}
	if m := test.str("message"); !strings.Contains(m, "Could not find method with name [taxesNothing]") {
		t.Errorf("JUnit's reason: %q", m)
	}
}

// A class file of the project's build output runs with the project's
// class path: its own root alone lacks the dependency, and the program
// would die of NoClassDefFoundError at its first use.
func TestJavaMavenClassFileRunsWithTheProjectsDependencies(t *testing.T) {
	root := mavenProject(t, true)
	h := newHarness(t)
	id := h.sessionFor("java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": filepath.Join(root, checkoutSource), "line": 17})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(root, "target/classes/com/example/shop/Checkout.class")})
	wantStop(t, snap, "breakpoint", 17)
	if l := snap.vars("locals"); l["taxed"] != "420" {
		t.Errorf("locals: %v", l)
	}
	if rt := snap.obj("data").str("runtime"); !strings.Contains(rt, "classpath target/classes:target/dependency/pricing-1.0.jar (Maven layout") {
		t.Errorf("runtime: %q", rt)
	}
}

// junit4Jar is where Debian's junit4 package puts JUnit 4.
const junit4Jar = "/usr/share/java/junit4.jar"

// A JUnit 4 project built with javac alone (testdata/java/plainjunit:
// build/classes, build/test-classes, no build tool) runs with JUnitCore
// and stops at the failing assertion, in the test's frame.
func TestJavaDebugTestRunsJUnit4FromPlainBuildDirectories(t *testing.T) {
	javac := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "javac")
	testenv.RequireAdapter(t, "java")
	if _, err := os.Stat(junit4Jar); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("apt-get install -y junit4")
		}
		t.Skip("no JUnit 4: apt-get install -y junit4")
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(javaSource(t, "plainjunit"))); err != nil {
		t.Fatal(err)
	}
	classes, testClasses := filepath.Join(root, "build", "classes"), filepath.Join(root, "build", "test-classes")
	runTool(t, javac, "-g", "-d", classes, filepath.Join(root, "src/com/example/calc/Prices.java"))
	runTool(t, javac, "-g", "-d", testClasses, "-cp", classes+":"+junit4Jar, filepath.Join(root, "test/com/example/calc/PricesTest.java"))

	h := newHarness(t)
	file := filepath.Join(root, "test/com/example/calc/PricesTest.java")
	res := h.ok("debug_test", map[string]any{"language": "java", "path": file})
	test := wantJUnitFailure(t, res, junitFailure{"addsTenPercent", "ten percent on 100 expected:<110> but was:<120>", "PricesTest.java", 11, "120"})
	if rt := test.str("runtime"); !strings.Contains(rt, "JUnitCore") || !strings.Contains(rt, "build/test-classes") {
		t.Errorf("test.runtime names JUnitCore and the class path: %q", rt)
	}
}

// junitFailure is what debug_test must say of a failing JUnit test: its
// name, the assertion's message, the stop in the test's own file and line,
// and the test's local taxed there.
type junitFailure struct {
	name, message, file string
	line                int
	taxed               string
}

// wantJUnitFailure checks debug_test's answer res against want and
// returns its test object.
func wantJUnitFailure(t *testing.T, res result, want junitFailure) result {
	t.Helper()
	test := res.obj("test")
	if test["failed"] != true || !strings.Contains(test.str("name"), want.name) {
		t.Fatalf("debug_test reports the failing test: %v\noutput: %s", test, res.outputText("output"))
	}
	if m := test.str("message"); !strings.Contains(m, want.message) {
		t.Errorf("the assertion's message: %q", m)
	}
	wantStop(t, res, "exception", want.line)
	if !strings.HasSuffix(res.obj("location").str("file"), want.file) {
		t.Errorf("the stop shows the test's frame: %v", res["location"])
	}
	if l := res.vars("locals"); l["taxed"] != want.taxed {
		t.Errorf("the test's locals: %v", l)
	}
	return test
}
