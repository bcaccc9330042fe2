package lldb

// FunctionNameWarning warns that, in Rust, lldb binds a bare main to the
// C runtime's main, which runs before the crate's own main (crate::main).
func (a *Adapter) FunctionNameWarning(name string) string {
	if a.lang.ID != langRust || name != "main" {
		return ""
	}
	return "a bare 'main' is the C runtime's entry, run before the Rust runtime starts; for your program's main use the crate-qualified name, e.g. 'my_crate::main'"
}
