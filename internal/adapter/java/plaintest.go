package java

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

const (
	// junitCoreClass is JUnit 4's own command-line runner: a class name
	// per argument, no method selection.
	junitCoreClass = "org.junit.runner.JUnitCore"
	// junit4Jar is where Debian's junit4 package installs JUnit 4 (its
	// manifest names hamcrest-core beside it).
	junit4Jar         = "/usr/share/java/junit4.jar"
	junit4InstallHint = "apt-get install -y junit4 (or put junit-4.*.jar in the project's lib/)"
)

// plainSearchDepth is how many directories above a test's source root
// are looked at for its compiled class, and plainClassDepth how deep
// below each (build/test-classes: 2).
const (
	plainSearchDepth = 3
	plainClassDepth  = 3
)

// plainTestPlan runs a JUnit test class of a project built without Maven
// or Gradle (javac -d build/test-classes): its class is looked for in the
// directories near its source, the class path is that directory, its
// siblings that hold classes (build/classes) and the project's lib/ and
// libs/ jars, and JUnit comes from those jars, ~/.m2 or Debian's. JUnit 4
// runs with JUnitCore; JUnit 5, or one JUnit 4 method, with the console
// launcher.
func plainTestPlan(req adapter.TestRequest) (*adapter.TestPlan, error) {
	class := classOfSource(req.Path)
	rel := filepath.FromSlash(strings.ReplaceAll(class, ".", "/")) + ".class"
	root, classDir, err := findPlainClass(req.Path, rel)
	if err != nil {
		return nil, err
	}
	jars := projectJars(root)
	cp := append(classDirsBeside(classDir), jars...)
	show := (&project{root: root}).showClassPath(cp)
	version, err := junitVersion(req.Path)
	if err != nil {
		return nil, err
	}
	plan := &adapter.TestPlan{
		Program:           req.Path,
		Cwd:               root,
		ExecutablePath:    req.ExecutablePath,
		BreakOnExceptions: "uncaught",
		TestFrame: func(_, path string) bool {
			return path != "" && filepath.Clean(path) == filepath.Clean(req.Path)
		},
	}
	if version == 4 && req.Name == "" {
		if junit := findJUnit4(jars); junit != nil {
			plan.Runner = "junit4"
			plan.Args = []string{class}
			plan.Extra = map[string]any{
				"mainClass":             junitCoreClass,
				"classPaths":            append(cp, junit...),
				"testFrameworkPackages": junitCatchers,
				classPathOriginArg:      fmt.Sprintf("JUnitCore (%s); plain build directories, test class %s; class path %s", junit[0], class, show),
			}
			plan.FailureSummary = junitCoreSummary
			return plan, nil
		}
	}
	launcher := findLauncher(jars)
	if launcher == "" {
		hint := junitInstallHint
		if version == 4 && req.Name == "" {
			hint = junit4InstallHint
		}
		why := "no JUnit console launcher (junit-platform-console-standalone.jar) in the project's lib/, ~/.m2 or /usr/share/java"
		if version == 4 && req.Name != "" {
			why += ": JUnit 4's JUnitCore runs whole classes, and one test (name) needs the launcher"
		}
		return nil, &adapter.UnavailableError{Language: languageID, Reason: why, InstallHint: hint}
	}
	selector := "--select-class=" + class
	if req.Name != "" {
		selector = "--select-method=" + class + "#" + req.Name
	}
	plan.Runner = "junit"
	plan.Args = []string{"--disable-banner", "--disable-ansi-colors", "--details=tree", "--fail-if-no-tests", selector}
	plan.Extra = map[string]any{
		"mainClass":             consoleLauncherClass,
		"classPaths":            append(cp, launcher),
		"testFrameworkPackages": junitCatchers,
		classPathOriginArg:      fmt.Sprintf("JUnit console launcher (%s); plain build directories, test class %s; class path %s", launcher, class, show),
	}
	plan.FailureSummary = junitSummary
	return plan, nil
}

// findPlainClass finds the directory holding the compiled test class (rel)
// beside its source, or below the source root's parents up to
// plainSearchDepth (build/test-classes, out/test/proj, bin); it returns
// the directory the class was found under (the project's root) and the
// class directory. The class must be newer than its source.
func findPlainClass(src, rel string) (string, string, error) {
	srcInfo, err := os.Stat(src)
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", src, err)
	}
	// The source root is the source's directory less its package's.
	srcRoot := filepath.Dir(src)
	for range strings.Count(rel, string(filepath.Separator)) {
		srcRoot = filepath.Dir(srcRoot)
	}
	var found, root string
	if isFile(filepath.Join(srcRoot, rel)) {
		// javac without -d writes the class beside its source.
		found, root = srcRoot, srcRoot
	}
	for d, i := filepath.Dir(srcRoot), 0; found == "" && i < plainSearchDepth; d, i = filepath.Dir(d), i+1 {
		for depth := 1; depth <= plainClassDepth && found == ""; depth++ {
			matches, _ := filepath.Glob(filepath.Join(append(append([]string{d}, slicesOf("*", depth)...), rel)...))
			if len(matches) > 0 {
				sort.Strings(matches)
				found, root = strings.TrimSuffix(matches[0], string(filepath.Separator)+rel), d
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if found == "" {
		return "", "", fmt.Errorf("%s is in no Maven or Gradle project, and no compiled %s was found near it (build/test-classes, bin, out): compile the tests (javac -g -d build/test-classes …) and start again", src, rel)
	}
	st, err := os.Stat(filepath.Join(found, rel))
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", filepath.Join(found, rel), err)
	}
	if st.ModTime().Before(srcInfo.ModTime()) {
		return "", "", fmt.Errorf("%s is older than %s: compile the tests again (javac -g -d %s …) and start again", filepath.Join(found, rel), src, found)
	}
	return root, found, nil
}

func slicesOf(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// classDirsBeside is the class directory and, after it, its siblings that
// hold class files (build/classes beside build/test-classes): the code
// under test, compiled alongside.
func classDirsBeside(classDir string) []string {
	dirs := []string{classDir}
	entries, err := os.ReadDir(filepath.Dir(classDir))
	if err != nil {
		return dirs
	}
	for _, e := range entries {
		d := filepath.Join(filepath.Dir(classDir), e.Name())
		if e.IsDir() && d != classDir && holdsClasses(d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// errFound stops a walk at the first class file.
var errFound = errors.New("found")

// holdsClasses reports whether a class file is somewhere under dir.
func holdsClasses(dir string) bool {
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(d.Name(), ".class") {
			return errFound
		}
		return err
	})
	return errors.Is(err, errFound)
}

// projectJars are the jars in the project's lib/ and libs/.
func projectJars(root string) []string {
	var jars []string
	for _, d := range []string{"lib", "libs"} {
		found, _ := filepath.Glob(filepath.Join(root, d, "*.jar"))
		jars = append(jars, found...)
	}
	return jars
}

// junitImport finds which JUnit a test source imports.
var junitImport = regexp.MustCompile(`(?m)^\s*import\s+(?:static\s+)?(org\.junit\.jupiter|org\.junit|junit\.framework)\.`)

// junitVersion is the JUnit a test source is written for: 5 for Jupiter,
// 4 for org.junit or junit.framework.
func junitVersion(src string) (int, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", src, err)
	}
	version := 0
	for _, m := range junitImport.FindAllStringSubmatch(string(b), -1) {
		if m[1] == "org.junit.jupiter" {
			return 5, nil
		}
		version = 4
	}
	if version == 0 {
		return 0, fmt.Errorf("%s imports no JUnit (org.junit.jupiter, org.junit): debug_test runs JUnit test classes", src)
	}
	return version, nil
}

// m2Repository is the local Maven repository, where a machine that built
// other projects keeps JUnit.
func m2Repository() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".m2", "repository")
}

// newestJar is the last of the jars a glob finds (versions sort
// ascending, well enough for picking one).
func newestJar(pattern string) string {
	jars, _ := filepath.Glob(pattern)
	if len(jars) == 0 {
		return ""
	}
	sort.Strings(jars)
	return jars[len(jars)-1]
}

// junit4Name matches JUnit 4's jar names: junit-4.13.2.jar, junit4.jar,
// junit.jar.
var junit4Name = regexp.MustCompile(`^junit(?:-4[\d.]*|4[\w.-]*)?\.jar$`)

// findJUnit4 is JUnit 4's jar, and hamcrest's where it does not come with
// it: the project's own, else ~/.m2's, else Debian's; nil when none.
func findJUnit4(jars []string) []string {
	for _, j := range jars {
		if junit4Name.MatchString(filepath.Base(j)) {
			return []string{j}
		}
	}
	if repo := m2Repository(); repo != "" {
		if j := newestJar(filepath.Join(repo, "junit", "junit", "4*", "junit-4*.jar")); j != "" {
			out := []string{j}
			if h := newestJar(filepath.Join(repo, "org", "hamcrest", "hamcrest-core", "*", "hamcrest-core-*.jar")); h != "" {
				out = append(out, h)
			}
			return out
		}
	}
	if isFile(junit4Jar) {
		return []string{junit4Jar}
	}
	return nil
}

// findLauncher is the JUnit console launcher: the project's own, else
// ~/.m2's, else Debian's; "" when none.
func findLauncher(jars []string) string {
	for _, j := range jars {
		if strings.HasPrefix(filepath.Base(j), "junit-platform-console-standalone") {
			return j
		}
	}
	if repo := m2Repository(); repo != "" {
		if j := newestJar(filepath.Join(repo, "org", "junit", "platform", "junit-platform-console-standalone", "*", "*.jar")); j != "" {
			return j
		}
	}
	if isFile(consoleLauncherJar) {
		return consoleLauncherJar
	}
	return ""
}

// junitCoreFailure is JUnitCore's report of a failure: "1)
// taxesNothingFree(com.example.shop.LegacyCheckoutTest)", then the
// exception's line.
var junitCoreFailure = regexp.MustCompile(`(?m)^1\) (\S+?)\(([\w.$]+)\)\s*\n(.*)$`)

// junitCoreSummary reads the first failure's test and message from
// JUnitCore's report, for a run that failed without stopping; else its
// complaint ("Could not find class: …").
func junitCoreSummary(output string) (string, string) {
	if m := junitCoreFailure.FindStringSubmatch(output); m != nil {
		return m[2] + "." + m[1], strings.TrimSpace(m[3])
	}
	for _, l := range strings.Split(output, "\n") {
		if strings.HasPrefix(l, "Could not find class") {
			return "", strings.TrimSpace(l)
		}
	}
	return "", ""
}
