package jdwp

import "context"

// Command sets.
const (
	setVM         = 1
	setRefType    = 2
	setClassType  = 3
	setMethod     = 6
	setObject     = 9
	setString     = 10
	setThread     = 11
	setArray      = 13
	setEventReq   = 15
	setStackFrame = 16
)

// Type tags of reference types.
const (
	TypeClass     byte = 1
	TypeInterface byte = 2
	TypeArray     byte = 3
)

// Thread states (ThreadReference.Status).
const (
	ThreadZombie   = 0
	ThreadRunning  = 1
	ThreadSleeping = 2
	ThreadMonitor  = 3
	ThreadWait     = 4
)

// Invoke options.
const (
	InvokeSingleThreaded = 0x01
	InvokeNonvirtual     = 0x02
)

// Step sizes and depths.
const (
	StepMin  = 0
	StepLine = 1
	StepInto = 0
	StepOver = 1
	StepOut  = 2
)

// Version is VirtualMachine.Version.
type Version struct {
	Description string
	Major       int32
	Minor       int32
	VMVersion   string
	VMName      string
}

// Version asks the VM for its version.
func (c *Conn) Version(ctx context.Context) (Version, error) {
	r, err := c.call(ctx, setVM, 1, "VirtualMachine.Version", nil)
	if err != nil {
		return Version{}, err
	}
	v := Version{Description: r.string(), Major: r.int(), Minor: r.int(), VMVersion: r.string(), VMName: r.string()}
	return v, r.done()
}

// ClassRef is a loaded reference type.
type ClassRef struct {
	TypeTag   byte
	ID        ReferenceTypeID
	Signature string
	Status    int32
}

// ClassesBySignature lists loaded types with a JNI signature ("Lpkg/Foo;").
func (c *Conn) ClassesBySignature(ctx context.Context, sig string) ([]ClassRef, error) {
	w := c.newWriter()
	w.string(sig)
	r, err := c.call(ctx, setVM, 2, "VirtualMachine.ClassesBySignature", w.b)
	if err != nil {
		return nil, err
	}
	n := r.count(1)
	out := make([]ClassRef, 0, n)
	for range n {
		out = append(out, ClassRef{TypeTag: r.byte(), ID: r.refType(), Signature: sig, Status: r.int()})
	}
	return out, r.done()
}

// AllClasses lists every loaded type with its signature.
func (c *Conn) AllClasses(ctx context.Context) ([]ClassRef, error) {
	r, err := c.call(ctx, setVM, 3, "VirtualMachine.AllClasses", nil)
	if err != nil {
		return nil, err
	}
	n := r.count(1)
	out := make([]ClassRef, 0, n)
	for range n {
		out = append(out, ClassRef{TypeTag: r.byte(), ID: r.refType(), Signature: r.string(), Status: r.int()})
	}
	return out, r.done()
}

// AllThreads lists the live threads.
func (c *Conn) AllThreads(ctx context.Context) ([]ObjectID, error) {
	r, err := c.call(ctx, setVM, 4, "VirtualMachine.AllThreads", nil)
	if err != nil {
		return nil, err
	}
	n := r.count(1)
	out := make([]ObjectID, 0, n)
	for range n {
		out = append(out, r.object())
	}
	return out, r.done()
}

// Dispose ends the debugging session; the VM goes on running.
func (c *Conn) Dispose(ctx context.Context) error {
	_, err := c.call(ctx, setVM, 6, "VirtualMachine.Dispose", nil)
	return err
}

// IDSizes asks for the VM's identifier sizes.
func (c *Conn) IDSizes(ctx context.Context) (IDSizes, error) {
	r, err := c.call(ctx, setVM, 7, "VirtualMachine.IDSizes", nil)
	if err != nil {
		return IDSizes{}, err
	}
	s := IDSizes{Field: int(r.int()), Method: int(r.int()), Object: int(r.int()), ReferenceType: int(r.int()), Frame: int(r.int())}
	return s, r.done()
}

// Suspend suspends every thread (once more).
func (c *Conn) Suspend(ctx context.Context) error {
	_, err := c.call(ctx, setVM, 8, "VirtualMachine.Suspend", nil)
	return err
}

// Resume undoes one suspension of every thread.
func (c *Conn) Resume(ctx context.Context) error {
	_, err := c.call(ctx, setVM, 9, "VirtualMachine.Resume", nil)
	return err
}

// Exit ends the VM with an exit code.
func (c *Conn) Exit(ctx context.Context, code int32) error {
	w := c.newWriter()
	w.int(code)
	_, err := c.call(ctx, setVM, 10, "VirtualMachine.Exit", w.b)
	return err
}

// Capabilities are the optional abilities of a VM a debugger acts on
// (from VirtualMachine.CapabilitiesNew).
type Capabilities struct {
	CanRedefineClasses               bool
	CanAddMethod                     bool
	CanUnrestrictedlyRedefineClasses bool
}

// capabilityFlags is the number of booleans CapabilitiesNew answers.
const capabilityFlags = 32

// CapabilitiesNew asks the VM which optional abilities it has.
func (c *Conn) CapabilitiesNew(ctx context.Context) (Capabilities, error) {
	r, err := c.call(ctx, setVM, 17, "VirtualMachine.CapabilitiesNew", nil)
	if err != nil {
		return Capabilities{}, err
	}
	flags := make([]bool, capabilityFlags)
	for i := range flags {
		flags[i] = r.bool()
	}
	caps := Capabilities{CanRedefineClasses: flags[7], CanAddMethod: flags[8], CanUnrestrictedlyRedefineClasses: flags[9]}
	return caps, r.done()
}

// ClassDefinition is the new class file of a loaded class.
type ClassDefinition struct {
	Type  ReferenceTypeID
	Bytes []byte
}

// RedefineClasses replaces loaded classes with new versions, all or none.
// Frames already running a changed method go on in its old version; the
// VM drops the breakpoint requests it had in the redefined classes.
func (c *Conn) RedefineClasses(ctx context.Context, defs []ClassDefinition) error {
	w := c.newWriter()
	w.int(int32(len(defs)))
	for _, d := range defs {
		w.refType(d.Type)
		w.int(int32(len(d.Bytes)))
		w.b = append(w.b, d.Bytes...)
	}
	_, err := c.call(ctx, setVM, 18, "VirtualMachine.RedefineClasses", w.b)
	return err
}

// CreateString makes a string in the VM.
func (c *Conn) CreateString(ctx context.Context, s string) (ObjectID, error) {
	w := c.newWriter()
	w.string(s)
	r, err := c.call(ctx, setVM, 11, "VirtualMachine.CreateString", w.b)
	if err != nil {
		return 0, err
	}
	id := r.object()
	return id, r.done()
}

// Signature is a type's JNI signature.
func (c *Conn) Signature(ctx context.Context, t ReferenceTypeID) (string, error) {
	w := c.newWriter()
	w.refType(t)
	r, err := c.call(ctx, setRefType, 1, "ReferenceType.Signature", w.b)
	if err != nil {
		return "", err
	}
	s := r.string()
	return s, r.done()
}

// FieldInfo is a field declared by a type.
type FieldInfo struct {
	ID        FieldID
	Name      string
	Signature string
	ModBits   int32
}

// Static reports whether the field is static.
func (f FieldInfo) Static() bool { return f.ModBits&0x0008 != 0 }

// Fields lists the fields a type declares (not inherited ones).
func (c *Conn) Fields(ctx context.Context, t ReferenceTypeID) ([]FieldInfo, error) {
	w := c.newWriter()
	w.refType(t)
	r, err := c.call(ctx, setRefType, 4, "ReferenceType.Fields", w.b)
	if err != nil {
		return nil, err
	}
	n := r.count(1)
	out := make([]FieldInfo, 0, n)
	for range n {
		out = append(out, FieldInfo{ID: r.field(), Name: r.string(), Signature: r.string(), ModBits: r.int()})
	}
	return out, r.done()
}

// MethodInfo is a method declared by a type.
type MethodInfo struct {
	ID        MethodID
	Name      string
	Signature string
	ModBits   int32
}

// Static reports whether the method is static.
func (m MethodInfo) Static() bool { return m.ModBits&0x0008 != 0 }

// Methods lists the methods a type declares.
func (c *Conn) Methods(ctx context.Context, t ReferenceTypeID) ([]MethodInfo, error) {
	w := c.newWriter()
	w.refType(t)
	r, err := c.call(ctx, setRefType, 5, "ReferenceType.Methods", w.b)
	if err != nil {
		return nil, err
	}
	n := r.count(1)
	out := make([]MethodInfo, 0, n)
	for range n {
		out = append(out, MethodInfo{ID: r.method(), Name: r.string(), Signature: r.string(), ModBits: r.int()})
	}
	return out, r.done()
}

// StaticValues reads static fields of a type.
func (c *Conn) StaticValues(ctx context.Context, t ReferenceTypeID, fields []FieldID) ([]Value, error) {
	w := c.newWriter()
	w.refType(t)
	w.int(int32(len(fields)))
	for _, f := range fields {
		w.field(f)
	}
	r, err := c.call(ctx, setRefType, 6, "ReferenceType.GetValues", w.b)
	if err != nil {
		return nil, err
	}
	return readValues(r)
}

func readValues(r *reader) ([]Value, error) {
	n := r.count(1)
	out := make([]Value, 0, n)
	for range n {
		out = append(out, r.value())
	}
	return out, r.done()
}

// SourceFile is the source file name a type was compiled from.
func (c *Conn) SourceFile(ctx context.Context, t ReferenceTypeID) (string, error) {
	w := c.newWriter()
	w.refType(t)
	r, err := c.call(ctx, setRefType, 7, "ReferenceType.SourceFile", w.b)
	if err != nil {
		return "", err
	}
	s := r.string()
	return s, r.done()
}

// Interfaces lists the interfaces a type directly implements.
func (c *Conn) Interfaces(ctx context.Context, t ReferenceTypeID) ([]ReferenceTypeID, error) {
	w := c.newWriter()
	w.refType(t)
	r, err := c.call(ctx, setRefType, 10, "ReferenceType.Interfaces", w.b)
	if err != nil {
		return nil, err
	}
	n := r.count(1)
	out := make([]ReferenceTypeID, 0, n)
	for range n {
		out = append(out, r.refType())
	}
	return out, r.done()
}

// Superclass is a class's superclass (0 for java.lang.Object).
func (c *Conn) Superclass(ctx context.Context, t ReferenceTypeID) (ReferenceTypeID, error) {
	w := c.newWriter()
	w.refType(t)
	r, err := c.call(ctx, setClassType, 1, "ClassType.Superclass", w.b)
	if err != nil {
		return 0, err
	}
	id := r.refType()
	return id, r.done()
}

// InvokeResult is what an invocation returned or threw.
type InvokeResult struct {
	Value     Value
	Exception Value
}

// InvokeStatic calls a static method on a suspended thread.
func (c *Conn) InvokeStatic(ctx context.Context, class ReferenceTypeID, thread ObjectID, m MethodID, args []Value, options int32) (InvokeResult, error) {
	w := c.newWriter()
	w.refType(class)
	w.object(thread)
	w.method(m)
	w.int(int32(len(args)))
	for _, a := range args {
		w.value(a)
	}
	w.int(options)
	r, err := c.call(ctx, setClassType, 3, "ClassType.InvokeMethod", w.b)
	if err != nil {
		return InvokeResult{}, err
	}
	res := InvokeResult{Value: r.value(), Exception: r.value()}
	return res, r.done()
}

// LineEntry maps a bytecode index to a source line.
type LineEntry struct {
	Index uint64
	Line  int32
}

// LineTable is a method's line number table.
type LineTable struct {
	Start, End uint64
	Lines      []LineEntry
}

// LineTable reads a method's line table (ABSENT_INFORMATION without -g:lines).
func (c *Conn) LineTable(ctx context.Context, t ReferenceTypeID, m MethodID) (LineTable, error) {
	w := c.newWriter()
	w.refType(t)
	w.method(m)
	r, err := c.call(ctx, setMethod, 1, "Method.LineTable", w.b)
	if err != nil {
		return LineTable{}, err
	}
	lt := LineTable{Start: uint64(r.long()), End: uint64(r.long())}
	n := r.count(12)
	lt.Lines = make([]LineEntry, 0, n)
	for range n {
		lt.Lines = append(lt.Lines, LineEntry{Index: uint64(r.long()), Line: r.int()})
	}
	return lt, r.done()
}

// Variable is a local variable or argument and where it is live.
type Variable struct {
	CodeIndex uint64
	Name      string
	Signature string
	Length    int32
	Slot      int32
}

// VariableTable is a method's local variables.
type VariableTable struct {
	ArgCount  int32
	Variables []Variable
}

// VariableTable reads a method's local variables (ABSENT_INFORMATION
// when the class was compiled without -g).
func (c *Conn) VariableTable(ctx context.Context, t ReferenceTypeID, m MethodID) (VariableTable, error) {
	w := c.newWriter()
	w.refType(t)
	w.method(m)
	r, err := c.call(ctx, setMethod, 2, "Method.VariableTable", w.b)
	if err != nil {
		return VariableTable{}, err
	}
	vt := VariableTable{ArgCount: r.int()}
	n := r.count(24)
	for range n {
		vt.Variables = append(vt.Variables, Variable{CodeIndex: uint64(r.long()), Name: r.string(), Signature: r.string(), Length: r.int(), Slot: r.int()})
	}
	return vt, r.done()
}

// ReferenceType is the runtime type of an object.
func (c *Conn) ReferenceType(ctx context.Context, o ObjectID) (byte, ReferenceTypeID, error) {
	w := c.newWriter()
	w.object(o)
	r, err := c.call(ctx, setObject, 1, "ObjectReference.ReferenceType", w.b)
	if err != nil {
		return 0, 0, err
	}
	tag, id := r.byte(), r.refType()
	return tag, id, r.done()
}

// FieldValues reads instance fields of an object.
func (c *Conn) FieldValues(ctx context.Context, o ObjectID, fields []FieldID) ([]Value, error) {
	w := c.newWriter()
	w.object(o)
	w.int(int32(len(fields)))
	for _, f := range fields {
		w.field(f)
	}
	r, err := c.call(ctx, setObject, 2, "ObjectReference.GetValues", w.b)
	if err != nil {
		return nil, err
	}
	return readValues(r)
}

// InvokeMethod calls an instance method on a thread suspended by an event.
func (c *Conn) InvokeMethod(ctx context.Context, o, thread ObjectID, class ReferenceTypeID, m MethodID, args []Value, options int32) (InvokeResult, error) {
	w := c.newWriter()
	w.object(o)
	w.object(thread)
	w.refType(class)
	w.method(m)
	w.int(int32(len(args)))
	for _, a := range args {
		w.value(a)
	}
	w.int(options)
	r, err := c.call(ctx, setObject, 6, "ObjectReference.InvokeMethod", w.b)
	if err != nil {
		return InvokeResult{}, err
	}
	res := InvokeResult{Value: r.value(), Exception: r.value()}
	return res, r.done()
}

// StringValue reads a string object's characters.
func (c *Conn) StringValue(ctx context.Context, s ObjectID) (string, error) {
	w := c.newWriter()
	w.object(s)
	r, err := c.call(ctx, setString, 1, "StringReference.Value", w.b)
	if err != nil {
		return "", err
	}
	v := r.string()
	return v, r.done()
}

// ThreadName is a thread's name.
func (c *Conn) ThreadName(ctx context.Context, t ObjectID) (string, error) {
	w := c.newWriter()
	w.object(t)
	r, err := c.call(ctx, setThread, 1, "ThreadReference.Name", w.b)
	if err != nil {
		return "", err
	}
	v := r.string()
	return v, r.done()
}

// ResumeThread undoes one suspension of one thread: the answer to an
// event whose suspend policy stopped only the thread it happened on.
func (c *Conn) ResumeThread(ctx context.Context, t ObjectID) error {
	w := c.newWriter()
	w.object(t)
	_, err := c.call(ctx, setThread, 3, "ThreadReference.Resume", w.b)
	return err
}

// ThreadStatus is a thread's state and whether it is suspended.
func (c *Conn) ThreadStatus(ctx context.Context, t ObjectID) (status int32, suspended bool, err error) {
	w := c.newWriter()
	w.object(t)
	r, err := c.call(ctx, setThread, 4, "ThreadReference.Status", w.b)
	if err != nil {
		return 0, false, err
	}
	status, susp := r.int(), r.int()
	return status, susp&1 != 0, r.done()
}

// Frame is one frame of a suspended thread's stack.
type Frame struct {
	ID       FrameID
	Location Location
}

// Frames reads frames of a suspended thread; length -1 means all from start.
func (c *Conn) Frames(ctx context.Context, t ObjectID, start, length int32) ([]Frame, error) {
	w := c.newWriter()
	w.object(t)
	w.int(start)
	w.int(length)
	r, err := c.call(ctx, setThread, 6, "ThreadReference.Frames", w.b)
	if err != nil {
		return nil, err
	}
	n := r.count(1)
	out := make([]Frame, 0, n)
	for range n {
		out = append(out, Frame{ID: r.frame(), Location: r.location()})
	}
	return out, r.done()
}

// FrameCount is the depth of a suspended thread's stack.
func (c *Conn) FrameCount(ctx context.Context, t ObjectID) (int, error) {
	w := c.newWriter()
	w.object(t)
	r, err := c.call(ctx, setThread, 7, "ThreadReference.FrameCount", w.b)
	if err != nil {
		return 0, err
	}
	n := r.int()
	return int(n), r.done()
}

// ArrayLength is an array's length.
func (c *Conn) ArrayLength(ctx context.Context, a ObjectID) (int, error) {
	w := c.newWriter()
	w.object(a)
	r, err := c.call(ctx, setArray, 1, "ArrayReference.Length", w.b)
	if err != nil {
		return 0, err
	}
	n := r.int()
	return int(n), r.done()
}

// ArrayValues reads length elements of an array from first.
func (c *Conn) ArrayValues(ctx context.Context, a ObjectID, first, length int) ([]Value, error) {
	w := c.newWriter()
	w.object(a)
	w.int(int32(first))
	w.int(int32(length))
	r, err := c.call(ctx, setArray, 2, "ArrayReference.GetValues", w.b)
	if err != nil {
		return nil, err
	}
	tag := r.byte()
	n := r.count(1)
	out := make([]Value, 0, n)
	primitive := tag != TagObject && tag != TagArray && tag != TagString && tag != TagThread &&
		tag != TagThreadGroup && tag != TagClassLoader && tag != TagClassObject
	for range n {
		if primitive {
			out = append(out, r.untagged(tag))
		} else {
			out = append(out, r.value())
		}
	}
	return out, r.done()
}

// Modifier narrows an event request.
type Modifier struct {
	kind byte
	data func(w *writer)
}

// CountModifier fires the request once, after n-1 skipped occurrences.
func CountModifier(n int32) Modifier {
	return Modifier{1, func(w *writer) { w.int(n) }}
}

// ThreadOnly limits a request to one thread.
func ThreadOnly(t ObjectID) Modifier {
	return Modifier{3, func(w *writer) { w.object(t) }}
}

// ClassOnly limits a request to a type and its subtypes.
func ClassOnly(t ReferenceTypeID) Modifier {
	return Modifier{4, func(w *writer) { w.refType(t) }}
}

// ClassMatch limits a request to classes whose name matches a pattern
// with an optional leading or trailing "*".
func ClassMatch(pattern string) Modifier {
	return Modifier{5, func(w *writer) { w.string(pattern) }}
}

// ClassExclude excludes classes whose name matches a pattern.
func ClassExclude(pattern string) Modifier {
	return Modifier{6, func(w *writer) { w.string(pattern) }}
}

// LocationOnly limits a request to one code location (breakpoints).
func LocationOnly(l Location) Modifier {
	return Modifier{7, func(w *writer) { w.location(l) }}
}

// ExceptionOnly limits exception events to a type (0: all) and to caught
// and/or uncaught throws.
func ExceptionOnly(t ReferenceTypeID, caught, uncaught bool) Modifier {
	return Modifier{8, func(w *writer) {
		w.refType(t)
		w.bool(caught)
		w.bool(uncaught)
	}}
}

// StepModifier makes a single-step request for a thread.
func StepModifier(t ObjectID, size, depth int32) Modifier {
	return Modifier{10, func(w *writer) {
		w.object(t)
		w.int(size)
		w.int(depth)
	}}
}

// SourceNameMatch limits class prepare events to classes whose source file
// name matches a pattern.
func SourceNameMatch(pattern string) Modifier {
	return Modifier{12, func(w *writer) { w.string(pattern) }}
}

// SetEvent creates an event request and returns its id.
func (c *Conn) SetEvent(ctx context.Context, kind, suspend byte, mods ...Modifier) (int32, error) {
	w := c.newWriter()
	w.byte(kind)
	w.byte(suspend)
	w.int(int32(len(mods)))
	for _, m := range mods {
		w.byte(m.kind)
		m.data(w)
	}
	r, err := c.call(ctx, setEventReq, 1, "EventRequest.Set", w.b)
	if err != nil {
		return 0, err
	}
	id := r.int()
	return id, r.done()
}

// ClearEvent removes an event request.
func (c *Conn) ClearEvent(ctx context.Context, kind byte, id int32) error {
	w := c.newWriter()
	w.byte(kind)
	w.int(id)
	_, err := c.call(ctx, setEventReq, 2, "EventRequest.Clear", w.b)
	return err
}

// SlotRequest names a local variable slot and its signature's first byte.
type SlotRequest struct {
	Slot int32
	Tag  byte
}

// FrameValues reads local variables of a frame.
func (c *Conn) FrameValues(ctx context.Context, t ObjectID, f FrameID, slots []SlotRequest) ([]Value, error) {
	w := c.newWriter()
	w.object(t)
	w.frame(f)
	w.int(int32(len(slots)))
	for _, s := range slots {
		w.int(s.Slot)
		w.byte(s.Tag)
	}
	r, err := c.call(ctx, setStackFrame, 1, "StackFrame.GetValues", w.b)
	if err != nil {
		return nil, err
	}
	return readValues(r)
}

// ThisObject is a frame's `this` (a null object in static methods).
func (c *Conn) ThisObject(ctx context.Context, t ObjectID, f FrameID) (Value, error) {
	w := c.newWriter()
	w.object(t)
	w.frame(f)
	r, err := c.call(ctx, setStackFrame, 3, "StackFrame.ThisObject", w.b)
	if err != nil {
		return Value{}, err
	}
	v := r.value()
	return v, r.done()
}
