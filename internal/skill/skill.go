// Package skill holds the debugging skill and the debugger subagent that
// `mcp-debugger setup` installs into coding agents: the text lives once
// here, and each client's file is this text under that client's header.
package skill

import _ "embed"

// Skill is the debugging skill's body: when to reach for the debugger,
// which tool answers which question, and the habits that keep calls and
// bytes low. Tools are named `tool` and their arguments `tool {arg, …}`,
// the form the test checks against the tools the server offers.
//
//go:embed skill.md
var Skill string

// Agent is the debugger subagent's instructions: a helper that runs the
// program under the debugger and reports the cause, changing no file.
//
//go:embed agent.md
var Agent string

// Name is the skill's name, its directory in the clients that keep skills
// one a directory.
const Name = "debugging"

// Description says when a client should load the skill; clients show it
// and match tasks against it.
const Description = "Run a program or test under a real debugger (mcp-debugger tools) to see the values " +
	"behind a bug instead of adding prints. Use when a test fails for an unclear reason, a value is " +
	"wrong and its origin is not in the nearby code, a loop misbehaves on some pass, a program hangs or crashes."

// AgentName is the subagent's name.
const AgentName = "debugger"

// AgentDescription says when to hand a task to the subagent.
const AgentDescription = "Finds the cause of a bug by running the program or failing test under the " +
	"mcp-debugger tools; reports the wrong line and the values that prove it, and changes no file. " +
	"Use when reading the code has not found why a test fails or a value is wrong."
