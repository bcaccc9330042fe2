package jdwp

import (
	"encoding/binary"
	"fmt"
	"math"
)

// IDSizes are the byte widths of the identifiers a VM uses, from
// VirtualMachine.IDSizes. Every identifier is carried here as a uint64.
type IDSizes struct {
	Field, Method, Object, ReferenceType, Frame int
}

// valid reports whether every size is one an encoder can carry.
func (s IDSizes) valid() bool {
	for _, n := range []int{s.Field, s.Method, s.Object, s.ReferenceType, s.Frame} {
		if n < 1 || n > 8 {
			return false
		}
	}
	return true
}

// Identifier types. A thread, string, array or class object is an ObjectID.
type (
	ObjectID        uint64
	ReferenceTypeID uint64
	MethodID        uint64
	FieldID         uint64
	FrameID         uint64
)

// writer builds command data.
type writer struct {
	sizes IDSizes
	b     []byte
}

func (w *writer) byte(v byte)  { w.b = append(w.b, v) }
func (w *writer) bool(v bool)  { w.byte(map[bool]byte{false: 0, true: 1}[v]) }
func (w *writer) int(v int32)  { w.b = binary.BigEndian.AppendUint32(w.b, uint32(v)) }
func (w *writer) long(v int64) { w.b = binary.BigEndian.AppendUint64(w.b, uint64(v)) }
func (w *writer) string(s string) {
	w.int(int32(len(s)))
	w.b = append(w.b, s...)
}

func (w *writer) id(v uint64, size int) {
	for i := size - 1; i >= 0; i-- {
		w.b = append(w.b, byte(v>>(8*i)))
	}
}

func (w *writer) object(v ObjectID)         { w.id(uint64(v), w.sizes.Object) }
func (w *writer) refType(v ReferenceTypeID) { w.id(uint64(v), w.sizes.ReferenceType) }
func (w *writer) method(v MethodID)         { w.id(uint64(v), w.sizes.Method) }
func (w *writer) field(v FieldID)           { w.id(uint64(v), w.sizes.Field) }
func (w *writer) frame(v FrameID)           { w.id(uint64(v), w.sizes.Frame) }
func (w *writer) location(l Location) {
	w.byte(l.TypeTag)
	w.refType(l.Class)
	w.method(l.Method)
	w.long(int64(l.Index))
}

// value writes a tagged value.
func (w *writer) value(v Value) {
	w.byte(v.Tag)
	switch v.Tag {
	case TagByte, TagBoolean:
		w.byte(byte(v.Prim))
	case TagChar, TagShort:
		w.b = binary.BigEndian.AppendUint16(w.b, uint16(v.Prim))
	case TagInt, TagFloat:
		w.b = binary.BigEndian.AppendUint32(w.b, uint32(v.Prim))
	case TagLong, TagDouble:
		w.b = binary.BigEndian.AppendUint64(w.b, v.Prim)
	case TagVoid:
	default:
		w.object(v.Object)
	}
}

// reader decodes reply and event data. The first error sticks: later reads
// return zero values, and err says what went wrong first.
type reader struct {
	sizes IDSizes
	b     []byte
	err   error
}

func (r *reader) need(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = fmt.Errorf("%w: wants %d more bytes, has %d", ErrMalformed, n, len(r.b))
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if b := r.need(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) bool() bool { return r.byte() != 0 }

func (r *reader) int() int32 {
	if b := r.need(4); b != nil {
		return int32(binary.BigEndian.Uint32(b))
	}
	return 0
}

func (r *reader) long() int64 {
	if b := r.need(8); b != nil {
		return int64(binary.BigEndian.Uint64(b))
	}
	return 0
}

// count reads a repetition count and checks it against what is left, each
// item taking at least min bytes, so that a corrupt count cannot make a
// caller allocate without bound.
func (r *reader) count(min int) int {
	n := r.int()
	if r.err == nil && (n < 0 || int64(n)*int64(max(min, 1)) > int64(len(r.b))) {
		r.err = fmt.Errorf("%w: count %d with %d bytes left", ErrMalformed, n, len(r.b))
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

func (r *reader) string() string {
	n := r.int()
	if r.err == nil && n < 0 {
		r.err = fmt.Errorf("%w: string length %d", ErrMalformed, n)
	}
	return string(r.need(int(n)))
}

func (r *reader) id(size int) uint64 {
	b := r.need(size)
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

func (r *reader) object() ObjectID         { return ObjectID(r.id(r.sizes.Object)) }
func (r *reader) refType() ReferenceTypeID { return ReferenceTypeID(r.id(r.sizes.ReferenceType)) }
func (r *reader) method() MethodID         { return MethodID(r.id(r.sizes.Method)) }
func (r *reader) field() FieldID           { return FieldID(r.id(r.sizes.Field)) }
func (r *reader) frame() FrameID           { return FrameID(r.id(r.sizes.Frame)) }

func (r *reader) location() Location {
	return Location{TypeTag: r.byte(), Class: r.refType(), Method: r.method(), Index: uint64(r.long())}
}

// value reads a tagged value.
func (r *reader) value() Value { return r.untagged(r.byte()) }

// untagged reads a value whose tag is known from elsewhere (array regions
// of primitives).
func (r *reader) untagged(tag byte) Value {
	v := Value{Tag: tag}
	switch tag {
	case TagByte, TagBoolean:
		v.Prim = uint64(r.byte())
	case TagChar, TagShort:
		if b := r.need(2); b != nil {
			v.Prim = uint64(binary.BigEndian.Uint16(b))
		}
	case TagInt, TagFloat:
		v.Prim = uint64(uint32(r.int()))
	case TagLong, TagDouble:
		v.Prim = uint64(r.long())
	case TagVoid:
	case TagObject, TagArray, TagString, TagThread, TagThreadGroup, TagClassLoader, TagClassObject:
		v.Object = r.object()
	default:
		if r.err == nil {
			r.err = fmt.Errorf("%w: value tag %q", ErrMalformed, tag)
		}
	}
	return v
}

// done checks that every byte was consumed.
func (r *reader) done() error {
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%w: %d trailing bytes", ErrMalformed, len(r.b))
	}
	return r.err
}

// Location is a code position: a method of a class and a bytecode index.
type Location struct {
	TypeTag byte
	Class   ReferenceTypeID
	Method  MethodID
	Index   uint64
}

// Value tags (JDWP Tag constants).
const (
	TagArray       byte = '['
	TagByte        byte = 'B'
	TagChar        byte = 'C'
	TagObject      byte = 'L'
	TagFloat       byte = 'F'
	TagDouble      byte = 'D'
	TagInt         byte = 'I'
	TagLong        byte = 'J'
	TagShort       byte = 'S'
	TagVoid        byte = 'V'
	TagBoolean     byte = 'Z'
	TagString      byte = 's'
	TagThread      byte = 't'
	TagThreadGroup byte = 'g'
	TagClassLoader byte = 'l'
	TagClassObject byte = 'c'
)

// Value is a tagged value: a primitive's bits in Prim, or an object.
type Value struct {
	Tag    byte
	Prim   uint64
	Object ObjectID
}

// IsObject reports whether the value is a reference (possibly null).
func (v Value) IsObject() bool {
	switch v.Tag {
	case TagObject, TagArray, TagString, TagThread, TagThreadGroup, TagClassLoader, TagClassObject:
		return true
	}
	return false
}

// Int returns an integral primitive as an int64, sign-extended by width
// (a char is unsigned).
func (v Value) Int() int64 {
	switch v.Tag {
	case TagByte:
		return int64(int8(v.Prim))
	case TagShort:
		return int64(int16(v.Prim))
	case TagChar:
		return int64(uint16(v.Prim))
	case TagInt:
		return int64(int32(v.Prim))
	case TagBoolean:
		return int64(v.Prim & 1)
	}
	return int64(v.Prim)
}

// Float returns a float or double primitive.
func (v Value) Float() float64 {
	if v.Tag == TagFloat {
		return float64(math.Float32frombits(uint32(v.Prim)))
	}
	return math.Float64frombits(v.Prim)
}

// IntValue makes an int.
func IntValue(i int32) Value { return Value{Tag: TagInt, Prim: uint64(uint32(i))} }

// LongValue makes a long.
func LongValue(i int64) Value { return Value{Tag: TagLong, Prim: uint64(i)} }

// DoubleValue makes a double.
func DoubleValue(f float64) Value { return Value{Tag: TagDouble, Prim: math.Float64bits(f)} }

// BoolValue makes a boolean.
func BoolValue(b bool) Value {
	if b {
		return Value{Tag: TagBoolean, Prim: 1}
	}
	return Value{Tag: TagBoolean}
}

// ObjectValue makes a reference of the given tag (TagObject for plain objects).
func ObjectValue(tag byte, id ObjectID) Value { return Value{Tag: tag, Object: id} }
