package jdwp

import (
	"errors"
	"testing"
)

// FuzzDecodePacket feeds arbitrary bytes to the packet and event
// decoders: they must reject what is malformed with ErrMalformed and never
// panic or allocate beyond the input's size.
func FuzzDecodePacket(f *testing.F) {
	sizes := IDSizes{8, 8, 8, 8, 8}
	w := &writer{sizes: sizes}
	w.byte(SuspendAll)
	w.int(1)
	w.byte(EventBreakpoint)
	w.int(2)
	w.object(1)
	w.location(Location{TypeTag: TypeClass, Class: 2, Method: 3, Index: 4})
	f.Add(Packet{ID: 1, CommandSet: cmdSetEvent, Command: cmdComposite, Data: w.b}.Encode())
	f.Add(Packet{ID: 2, Reply: true, ErrorCode: 101}.Encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := DecodePacket(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error not ErrMalformed: %v", err)
			}
			return
		}
		if got := p.Encode(); string(got) != string(b) {
			t.Fatalf("re-encoding differs: %x vs %x", got, b)
		}
		if !p.Reply && p.CommandSet == cmdSetEvent && p.Command == cmdComposite {
			if _, err := DecodeEventSet(p.Data, sizes); err != nil && !errors.Is(err, ErrMalformed) {
				t.Fatalf("event error not ErrMalformed: %v", err)
			}
		}
	})
}
