package adapter

// RedefineClassesCommand is the custom DAP request of the JVM adapter
// that hot swaps recompiled classes into the debuggee; its arguments are
// RedefineClassesArgs and its answer RedefineClassesBody.
const RedefineClassesCommand = "redefineClasses"

// RedefineClassesArgs are the arguments of RedefineClassesCommand.
type RedefineClassesArgs struct {
	// ClassesDir is the absolute path of a compiled classes directory.
	ClassesDir string `json:"classesDir"`
	// SinceTimestamp (Unix ms) leaves out class files not modified after
	// it; 0 takes them all.
	SinceTimestamp int64 `json:"sinceTimestamp"`
	// Timeout (ms) bounds the adapter's work, when longer than its default.
	Timeout int64 `json:"timeout,omitempty"`
}

// RedefineClassesBody is the answer of RedefineClassesCommand.
type RedefineClassesBody struct {
	// Redefined are the binary names of the classes swapped in.
	Redefined []string `json:"redefined"`
	// NotLoaded are classes of the directory the VM has not loaded: the
	// VM loads their new version when it first needs them.
	NotLoaded []string `json:"notLoaded"`
	// Failed are the classes the VM refused to swap, with its reason.
	Failed []RedefineFailure `json:"failed"`
	// ScannedFiles counts the class files newer than SinceTimestamp.
	ScannedFiles int `json:"scannedFiles"`
	// NewestTimestamp is the newest modification time (Unix ms) of those
	// files, or SinceTimestamp when there were none.
	NewestTimestamp int64 `json:"newestTimestamp"`
	// ReplantedBreakpoints counts the breakpoints set again in the new
	// versions of the classes.
	ReplantedBreakpoints int `json:"replantedBreakpoints"`
}

// RedefineFailure is a class the VM refused to redefine.
type RedefineFailure struct {
	Class string `json:"class"`
	Error string `json:"error"`
}
