package cdp

import "encoding/json"

// The protocol's types that the Node adapter uses, with the fields it reads.
// Positions are zero-based, as on the wire.

// RemoteObject is a value in the inspected program (Runtime.RemoteObject).
type RemoteObject struct {
	Type                string          `json:"type"`
	Subtype             string          `json:"subtype,omitempty"`
	ClassName           string          `json:"className,omitempty"`
	Value               json.RawMessage `json:"value,omitempty"`
	UnserializableValue string          `json:"unserializableValue,omitempty"`
	Description         string          `json:"description,omitempty"`
	ObjectID            string          `json:"objectId,omitempty"`
	Preview             *ObjectPreview  `json:"preview,omitempty"`
}

// ObjectPreview is the inspector's short rendering of an object.
type ObjectPreview struct {
	Type        string            `json:"type"`
	Subtype     string            `json:"subtype,omitempty"`
	Description string            `json:"description,omitempty"`
	Overflow    bool              `json:"overflow"`
	Properties  []PropertyPreview `json:"properties"`
	Entries     []EntryPreview    `json:"entries,omitempty"`
}

// PropertyPreview is one property inside an ObjectPreview.
type PropertyPreview struct {
	Name         string         `json:"name"`
	Type         string         `json:"type"`
	Value        string         `json:"value,omitempty"`
	ValuePreview *ObjectPreview `json:"valuePreview,omitempty"`
	Subtype      string         `json:"subtype,omitempty"`
}

// EntryPreview is one entry of a Map or Set preview.
type EntryPreview struct {
	Key   *ObjectPreview `json:"key,omitempty"`
	Value ObjectPreview  `json:"value"`
}

// PropertyDescriptor is one property from Runtime.getProperties.
type PropertyDescriptor struct {
	Name  string        `json:"name"`
	Value *RemoteObject `json:"value,omitempty"`
	Get   *RemoteObject `json:"get,omitempty"`
	Set   *RemoteObject `json:"set,omitempty"`
}

// InternalPropertyDescriptor is an engine-internal property ([[Entries]]).
type InternalPropertyDescriptor struct {
	Name  string        `json:"name"`
	Value *RemoteObject `json:"value,omitempty"`
}

// GetPropertiesResult is the answer to Runtime.getProperties.
type GetPropertiesResult struct {
	Result             []PropertyDescriptor         `json:"result"`
	InternalProperties []InternalPropertyDescriptor `json:"internalProperties,omitempty"`
	PrivateProperties  []PropertyDescriptor         `json:"privateProperties,omitempty"`
	ExceptionDetails   *ExceptionDetails            `json:"exceptionDetails,omitempty"`
}

// ExceptionDetails describes an exception thrown by an evaluation.
type ExceptionDetails struct {
	Text      string        `json:"text"`
	Exception *RemoteObject `json:"exception,omitempty"`
}

// EvaluateResult is the answer to Runtime.evaluate and
// Debugger.evaluateOnCallFrame.
type EvaluateResult struct {
	Result           RemoteObject      `json:"result"`
	ExceptionDetails *ExceptionDetails `json:"exceptionDetails,omitempty"`
}

// Location is a position in a script.
type Location struct {
	ScriptID     string `json:"scriptId"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

// Scope is one scope of a call frame.
type Scope struct {
	Type   string       `json:"type"`
	Object RemoteObject `json:"object"`
	Name   string       `json:"name,omitempty"`
}

// CallFrame is a frame of the paused stack (Debugger.CallFrame).
type CallFrame struct {
	CallFrameID  string   `json:"callFrameId"`
	FunctionName string   `json:"functionName"`
	Location     Location `json:"location"`
	URL          string   `json:"url"`
	ScopeChain   []Scope  `json:"scopeChain"`
	// FunctionLocation is where the frame's function starts.
	FunctionLocation *Location `json:"functionLocation,omitempty"`
	// ReturnValue is set when the pause is at the function's return.
	ReturnValue *RemoteObject `json:"returnValue,omitempty"`
}

// BreakLocation is a place a breakpoint can go
// (Debugger.getPossibleBreakpoints); Type is "return" at a function's
// return, "call" before a call, "debuggerStatement", or empty.
type BreakLocation struct {
	Location
	Type string `json:"type,omitempty"`
}

// RuntimeCallFrame is a frame of an async stack (Runtime.CallFrame).
type RuntimeCallFrame struct {
	FunctionName string `json:"functionName"`
	ScriptID     string `json:"scriptId"`
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

// StackTrace is an async stack segment and its parents.
type StackTrace struct {
	Description string             `json:"description,omitempty"`
	CallFrames  []RuntimeCallFrame `json:"callFrames"`
	Parent      *StackTrace        `json:"parent,omitempty"`
}

// Paused is the Debugger.paused event.
type Paused struct {
	CallFrames      []CallFrame     `json:"callFrames"`
	Reason          string          `json:"reason"`
	Data            json.RawMessage `json:"data,omitempty"`
	HitBreakpoints  []string        `json:"hitBreakpoints,omitempty"`
	AsyncStackTrace *StackTrace     `json:"asyncStackTrace,omitempty"`
}

// ScriptParsed is the Debugger.scriptParsed event.
type ScriptParsed struct {
	ScriptID           string          `json:"scriptId"`
	URL                string          `json:"url"`
	SourceMapURL       string          `json:"sourceMapURL,omitempty"`
	ExecutionContextID int             `json:"executionContextId"`
	AuxData            json.RawMessage `json:"executionContextAuxData,omitempty"`
}

// BreakpointResolved is the Debugger.breakpointResolved event.
type BreakpointResolved struct {
	BreakpointID string   `json:"breakpointId"`
	Location     Location `json:"location"`
}

// SetBreakpointByURLResult is the answer to Debugger.setBreakpointByUrl.
type SetBreakpointByURLResult struct {
	BreakpointID string     `json:"breakpointId"`
	Locations    []Location `json:"locations"`
}

// ExecutionContextCreated is the Runtime.executionContextCreated event.
type ExecutionContextCreated struct {
	Context struct {
		ID      int `json:"id"`
		AuxData struct {
			IsDefault bool `json:"isDefault"`
		} `json:"auxData"`
	} `json:"context"`
}

// ExecutionContextDestroyed is the Runtime.executionContextDestroyed event.
type ExecutionContextDestroyed struct {
	ExecutionContextID int `json:"executionContextId"`
}

// ConsoleAPICalled is the Runtime.consoleAPICalled event.
type ConsoleAPICalled struct {
	Type string         `json:"type"`
	Args []RemoteObject `json:"args"`
}

// CallArgument is an argument of Runtime.callFunctionOn or a new value for
// Debugger.setVariableValue.
type CallArgument struct {
	Value               json.RawMessage `json:"value,omitempty"`
	UnserializableValue string          `json:"unserializableValue,omitempty"`
	ObjectID            string          `json:"objectId,omitempty"`
}

// Argument turns a value back into an argument for a call.
func (o RemoteObject) Argument() CallArgument {
	switch {
	case o.ObjectID != "":
		return CallArgument{ObjectID: o.ObjectID}
	case o.UnserializableValue != "":
		return CallArgument{UnserializableValue: o.UnserializableValue}
	case o.Type == "undefined":
		return CallArgument{}
	case len(o.Value) == 0:
		return CallArgument{Value: json.RawMessage("null")}
	}
	return CallArgument{Value: o.Value}
}

// TargetInfo is one entry of the inspector's /json/list.
type TargetInfo struct {
	ID                   string `json:"id"`
	Type                 string `json:"type"`
	Title                string `json:"title"`
	URL                  string `json:"url"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}
