package jdwp

import "fmt"

// Command sets and commands of the event channel.
const (
	cmdSetEvent  = 64
	cmdComposite = 100
)

// Event kinds (JDWP EventKind).
const (
	EventSingleStep   byte = 1
	EventBreakpoint   byte = 2
	EventException    byte = 4
	EventThreadStart  byte = 6
	EventThreadDeath  byte = 7
	EventClassPrepare byte = 8
	EventClassUnload  byte = 9
	EventFieldAccess  byte = 20
	EventFieldModify  byte = 21
	EventMethodEntry  byte = 40
	EventMethodExit   byte = 41
	EventMethodExitRV byte = 42
	EventMonitorCE    byte = 43
	EventMonitorCEd   byte = 44
	EventMonitorWait  byte = 45
	EventMonitorWaitd byte = 46
	EventVMStart      byte = 90
	EventVMDeath      byte = 99
)

// Suspend policies.
const (
	SuspendNone   byte = 0
	SuspendThread byte = 1
	SuspendAll    byte = 2
)

// EventSet is one composite event packet: events that happened together,
// with the suspension the VM applied for all of them.
type EventSet struct {
	SuspendPolicy byte
	Events        []Event
}

// Event is one event of a set. Which fields are set depends on Kind.
type Event struct {
	Kind      byte
	RequestID int32
	Thread    ObjectID
	Location  Location
	// Exception and CatchLocation describe an exception event; a zero
	// CatchLocation.Class means nothing catches it.
	Exception     Value
	CatchLocation Location
	// RefTypeTag, TypeID, Signature and Status describe a class prepare.
	RefTypeTag byte
	TypeID     ReferenceTypeID
	Signature  string
	Status     int32
	// ReturnValue is what the method of a MethodExitWithReturnValue
	// event returned.
	ReturnValue Value
}

// DecodeEventSet parses the data of a composite event packet.
func DecodeEventSet(data []byte, sizes IDSizes) (*EventSet, error) {
	r := &reader{sizes: sizes, b: data}
	set := &EventSet{SuspendPolicy: r.byte()}
	n := r.count(5)
	for i := 0; i < n && r.err == nil; i++ {
		e := Event{Kind: r.byte(), RequestID: r.int()}
		switch e.Kind {
		case EventVMStart, EventThreadStart, EventThreadDeath:
			e.Thread = r.object()
		case EventSingleStep, EventBreakpoint, EventMethodEntry, EventMethodExit:
			e.Thread, e.Location = r.object(), r.location()
		case EventMethodExitRV:
			e.Thread, e.Location = r.object(), r.location()
			e.ReturnValue = r.value()
		case EventMonitorCE, EventMonitorCEd:
			e.Thread = r.object()
			r.value()
			e.Location = r.location()
		case EventMonitorWait:
			e.Thread = r.object()
			r.value()
			e.Location = r.location()
			r.long()
		case EventMonitorWaitd:
			e.Thread = r.object()
			r.value()
			e.Location = r.location()
			r.bool()
		case EventException:
			e.Thread, e.Location = r.object(), r.location()
			e.Exception = r.value()
			e.CatchLocation = r.location()
		case EventClassPrepare:
			e.Thread = r.object()
			e.RefTypeTag, e.TypeID = r.byte(), r.refType()
			e.Signature, e.Status = r.string(), r.int()
		case EventClassUnload:
			e.Signature = r.string()
		case EventFieldAccess, EventFieldModify:
			e.Thread, e.Location = r.object(), r.location()
			e.RefTypeTag, e.TypeID = r.byte(), r.refType()
			r.field()
			r.value()
			if e.Kind == EventFieldModify {
				r.value()
			}
		case EventVMDeath:
		default:
			if r.err == nil {
				return nil, fmt.Errorf("%w: event kind %d", ErrMalformed, e.Kind)
			}
		}
		set.Events = append(set.Events, e)
	}
	if err := r.done(); err != nil {
		return nil, fmt.Errorf("composite event: %w", err)
	}
	return set, nil
}
