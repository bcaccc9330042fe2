package selfcheck

import (
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node"
)

// probe is the tiny program a language's check debugs: files written to a
// fresh directory, the one passed as the program, and the line where it
// must stop with answer = 42 in scope. Each is the smallest program that
// goes through the same path an agent's would (a lone .c file the adapter
// compiles, a .rs file inside a Cargo project, a single-file .java), so
// that the check costs little more than the adapter's own start.
type probe struct {
	// files maps a path relative to the check's directory to its content.
	files map[string]string
	// program is the file passed as the program to debug.
	program string
	// source is the file holding the breakpoint; stop is the text of its
	// line (the line number is found from it, so the two cannot drift).
	source, stop string
	// fix says what to look at when the adapter is installed but the
	// check fails anyway.
	fix string
	// buildFix says what to install when the program does not build.
	buildFix string
	// variant, when set, picks the program for the adapter found (its
	// availability names the version): nil keeps this one.
	variant func(adapter.Availability) *probe
}

// variable is the local every probe sets, and want its value.
const (
	variable = "answer"
	want     = "42"
)

// probes lists the languages that have a check, by language id.
var probes = map[string]probe{
	"python": {
		files:   map[string]string{"check.py": "def main():\n    answer = 42\n    print(answer)\n\n\nmain()\n"},
		program: "check.py", source: "check.py", stop: "    print(answer)",
		fix: "debugpy must be importable by the python that runs the program: python3 -m pip install debugpy (or apt-get install python3-debugpy)",
	},
	"go": {
		files:   map[string]string{"main.go": "package main\n\nfunc main() {\n\tanswer := 42\n\tprintln(answer)\n}\n"},
		program: "main.go", source: "main.go", stop: "\tprintln(answer)",
		fix:      "dlv dap builds the program with `go build`: both go and dlv must work (go install github.com/go-delve/delve/cmd/dlv@latest rebuilds dlv with the current Go)",
		buildFix: "install Go (https://go.dev/dl) and put its bin directory on PATH",
	},
	"c": {
		files:   map[string]string{"check.c": "int main(void) {\n\tint answer = 42;\n\treturn answer - 42;\n}\n"},
		program: "check.c", source: "check.c", stop: "\treturn answer - 42;",
		fix:      "lldb-dap must start and run a program: apt-get install -y lldb-22, or set LLDB_DAP_PATH to a working lldb-dap",
		buildFix: "install a C compiler as cc: apt-get install -y build-essential (or clang)",
	},
	"cpp": {
		files:   map[string]string{"check.cpp": "int main() {\n\tauto answer = 42;\n\treturn answer - 42;\n}\n"},
		program: "check.cpp", source: "check.cpp", stop: "\treturn answer - 42;",
		fix:      "lldb-dap must start and run a program: apt-get install -y lldb-22, or set LLDB_DAP_PATH to a working lldb-dap",
		buildFix: "install a C++ compiler as c++: apt-get install -y build-essential (or clang)",
	},
	"rust": {
		files: map[string]string{
			"Cargo.toml":  "[package]\nname = \"check\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
			"src/main.rs": "fn main() {\n    let answer = 42;\n    std::process::exit(answer - 42);\n}\n",
		},
		program: "src/main.rs", source: "src/main.rs", stop: "    std::process::exit(answer - 42);",
		fix:      "lldb-dap must start and run a program: apt-get install -y lldb-22, or set LLDB_DAP_PATH to a working lldb-dap",
		buildFix: "install Rust with cargo: https://rustup.rs (or apt-get install -y cargo)",
	},
	"ruby": {
		files:   map[string]string{"check.rb": "def main\n  answer = 42\n  puts answer\nend\n\nmain\n"},
		program: "check.rb", source: "check.rb", stop: "  puts answer",
		fix: "rdbg (the debug gem) must bind and hit a line breakpoint: apt-get install -y ruby or gem install debug, or set RDBG_PATH",
	},
	"javascript": {
		files:   map[string]string{"check.js": "function main() {\n  const answer = 42;\n  console.log(answer);\n}\n\nmain();\n"},
		program: "check.js", source: "check.js", stop: "  console.log(answer);",
		fix: "node must start with --inspect-brk and accept the inspector's connection on 127.0.0.1",
	},
	"typescript": {
		files:   map[string]string{"check.ts": typescriptSource},
		program: "check.ts", source: "check.ts", stop: "  console.log(answer);",
		fix:     "node must run the .ts file under --inspect-brk: Node 22.6 or later strips types itself",
		variant: compiledTypeScript,
	},
	"java": {
		files:   map[string]string{"Check.java": "public class Check {\n    public static void main(String[] args) {\n        int answer = 42;\n        System.out.println(answer);\n    }\n}\n"},
		program: "Check.java", source: "Check.java", stop: "        System.out.println(answer);",
		fix:      "java must run a single-file program (`java Check.java`, JDK 11 or later) with the JDWP agent",
		buildFix: "install a JDK (not only a JRE): apt-get install -y openjdk-17-jdk-headless",
	},
}

// line is the 1-based line of the probe's stop text in its source.
func (p probe) line() int {
	for i, l := range strings.Split(p.files[p.source], "\n") {
		if l == p.stop {
			return i + 1
		}
	}
	return 0
}

// typescriptSource is the TypeScript check program; typescriptCompiled is
// what tsc makes of it (types dropped, lines kept), with a source map that
// maps each line to the same line of check.ts.
const (
	typescriptSource   = "function main(): void {\n  const answer: number = 42;\n  console.log(answer);\n}\n\nmain();\n"
	typescriptCompiled = "function main() {\n  const answer = 42;\n  console.log(answer);\n}\n\nmain();\n//# sourceMappingURL=check.js.map\n"
	typescriptMap      = `{"version":3,"file":"check.js","sources":["check.ts"],"names":[],"mappings":"AAAA;AACA;AACA;AACA;AACA;AACA"}`
)

// compiledTypeScript is the TypeScript check for a Node that does not strip
// types (before 22.6): the way TypeScript is debugged there, tsc's output
// with its source map, the breakpoint set in the .ts file and the stop
// shown there. No tsc is needed: the output is written as tsc would.
func compiledTypeScript(av adapter.Availability) *probe {
	if node.RunsTypeScript(av.Version) {
		return nil
	}
	return &probe{
		files:   map[string]string{"check.ts": typescriptSource, "check.js": typescriptCompiled, "check.js.map": typescriptMap},
		program: "check.js", source: "check.ts", stop: "  console.log(answer);",
		fix: "node must run the compiled check.js under --inspect-brk and bind a breakpoint in check.ts through its source map",
	}
}
