package java

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// classPathOriginArg is the launch argument that says where classPaths
// came from, for the runtime line (a test plan sets it).
const classPathOriginArg = "classPathOrigin"

// projectLaunch fills in the launch arguments of a program inside a Maven
// or Gradle project, unless the agent named the class path itself: a
// source file runs as the class it declares, from the build's class dirs
// and dependency jars, or compiled into a temp dir when the project has
// no build output; a class file or class name runs with the project's
// class path. It returns the project (nil when the program is in none),
// which the runtime line shows paths relative to, and a cleanup for what
// it made.
func projectLaunch(ctx context.Context, javaPath, program, cwd string, args map[string]any, dryRun bool) (*project, func(), error) {
	start := filepath.Dir(program)
	if (program == "" || namesClass(program)) && cwd != "" {
		start = cwd
	}
	p := findProject(start)
	if _, given := args["classPaths"]; given || p == nil {
		return p, nil, nil
	}
	if _, given := args["mainClass"]; given || strings.HasSuffix(program, ".class") || namesClass(program) {
		return p, nil, p.classFileLaunch(program, args)
	}
	if !strings.HasSuffix(program, ".java") {
		return p, nil, nil
	}
	root, tests := p.sourceRootOf(program)
	if root == "" {
		return nil, nil, nil
	}
	cleanup, err := p.sourceLaunch(ctx, javaPath, program, root, tests, args, dryRun)
	return p, cleanup, err
}

// sourceLaunch runs a source file of the project under root as the class
// it declares: from the build's output when that is up to date, compiled
// into a temp dir (removed by the cleanup returned) when there is none.
func (p *project) sourceLaunch(ctx context.Context, javaPath, program, root string, tests bool, args map[string]any, dryRun bool) (func(), error) {
	class := classOfSource(program)
	dirs := p.classDirs
	if tests {
		dirs = p.testClassDirs
	}
	built, err := p.builtClass(program, class, dirs)
	if err != nil {
		return nil, err
	}
	args["mainClass"] = class
	cp := p.classPath(tests)
	origin := fmt.Sprintf("%s layout, main class %s from %s; %s", p.layout, class, p.rel(program), p.dependencyNote())
	var cleanup func()
	if !built {
		out := "a temp dir"
		if !dryRun {
			tmp, err := p.compile(ctx, javaPath, root, tests)
			if err != nil {
				return nil, err
			}
			out, cleanup = tmp, func() { os.RemoveAll(tmp) }
			cp = append([]string{tmp}, cp...)
		}
		origin = fmt.Sprintf("%s layout, not built (no %s): %s compiled with javac into %s; main class %s; %s",
			p.layout, p.rel(dirs[0]), p.rel(root), out, class, p.dependencyNote())
	}
	args["classPaths"] = cp
	args[classPathOriginArg] = origin
	return cleanup, nil
}

// classFileLaunch gives a class file or main class name of the project
// the project's class path, with the class's own root first.
func (p *project) classFileLaunch(program string, args map[string]any) error {
	cp := p.classPath(false)
	if strings.HasSuffix(program, ".class") {
		name, err := className(program)
		if err != nil {
			return err
		}
		root, err := classRoot(program, name)
		if err != nil {
			return err
		}
		cp = append([]string{root}, removed(cp, root)...)
	}
	if len(cp) == 0 {
		return nil
	}
	args["classPaths"] = cp
	args[classPathOriginArg] = fmt.Sprintf("%s layout; %s", p.layout, p.dependencyNote())
	return nil
}

// compile compiles a source root (and, for tests, the main code's roots
// too) into a new temp dir against the project's dependencies.
func (p *project) compile(ctx context.Context, javaPath, root string, tests bool) (string, error) {
	roots := []string{root}
	if tests {
		roots = append(roots, p.sourceRoots...)
	}
	var srcs []string
	for _, r := range roots {
		if !isDir(r) {
			continue
		}
		s, err := sourcesUnder(r)
		if err != nil {
			return "", err
		}
		srcs = append(srcs, s...)
	}
	tmp, err := os.MkdirTemp("", "mcp-debugger-javac-")
	if err != nil {
		return "", fmt.Errorf("temp dir for javac: %w", err)
	}
	// javac sits beside the java that runs the program: the classes must
	// be of a version that java loads.
	javac := filepath.Join(filepath.Dir(javaPath), "javac")
	cmdArgs := []string{"-g", "-d", tmp}
	if cp := p.classPath(tests); len(cp) > 0 {
		cmdArgs = append(cmdArgs, "-cp", strings.Join(cp, string(os.PathListSeparator)))
	}
	out, err := exec.CommandContext(ctx, javac, append(cmdArgs, srcs...)...).CombinedOutput()
	if err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("the project has no build output, and compiling %s with %s failed (%w); build it (%s) and start again:\n%s",
			p.rel(root), javac, err, p.build, strings.TrimSpace(string(out)))
	}
	return tmp, nil
}

// removed is list without item.
func removed(list []string, item string) []string {
	var out []string
	for _, l := range list {
		if l != item {
			out = append(out, l)
		}
	}
	return out
}

// runtimeLine says which java runs the program and with which class path,
// and why: the answer's runtime.
func runtimeLine(java, javaOrigin, version string, lc *launchConfig, p *project, origin string) string {
	head := "java: " + java
	if version != "" {
		head += " " + version
	}
	head += " (" + javaOrigin + ")"
	show := strings.Join(lc.ClassPaths, string(os.PathListSeparator))
	if p != nil {
		show = p.showClassPath(lc.ClassPaths)
	}
	switch {
	case lc.MainClass != "" && show != "":
		head += ", classpath " + show
	case strings.HasSuffix(lc.Program, ".jar"):
		// The program is the agent's own scriptPath: naming it again
		// says nothing.
		return head + ", -jar"
	case strings.HasSuffix(lc.Program, ".java"):
		return head + ", single-file source launch"
	case show != "":
		head += ", classpath " + show
	}
	if origin != "" {
		head += " (" + origin + ")"
	}
	return head
}
