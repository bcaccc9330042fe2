package lldb

// FunctionNameWarning warns that, in Rust, lldb binds a bare main to the
// C runtime's main, which runs before the crate's own main (crate::main).
func (a *Adapter) FunctionNameWarning(name string) string {
	if a.lang.ID != langRust || name != "main" {
		return ""
	}
	return "a bare 'main' binds to the C runtime's entry point, which calls the Rust runtime before your code; to stop in your program's main, use the crate-qualified name, e.g. 'my_crate::main' with your crate's name"
}
