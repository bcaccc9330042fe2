package jdwp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// fakeVM is the VM's end of a pipe: it answers the handshake and then
// whatever the test's handler writes.
type fakeVM struct {
	t    *testing.T
	conn net.Conn
}

func startFake(t *testing.T) (*Conn, *fakeVM) {
	t.Helper()
	client, vmEnd := net.Pipe()
	vm := &fakeVM{t: t, conn: vmEnd}
	ready := make(chan error, 1)
	go func() {
		buf := make([]byte, len(handshake))
		if _, err := io.ReadFull(vmEnd, buf); err != nil {
			ready <- err
			return
		}
		if _, err := vmEnd.Write([]byte(handshake)); err != nil {
			ready <- err
			return
		}
		// IDSizes: answer with 8-byte ids.
		p, err := vm.read()
		if err != nil {
			ready <- err
			return
		}
		w := &writer{}
		for range 5 {
			w.int(8)
		}
		ready <- vm.reply(p.ID, 0, w.b)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := New(ctx, client, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-ready; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		vmEnd.Close()
		c.Close()
	})
	return c, vm
}

func (vm *fakeVM) read() (Packet, error) {
	header := make([]byte, headerSize)
	if _, err := io.ReadFull(vm.conn, header); err != nil {
		return Packet{}, err
	}
	n, err := PacketLength(header)
	if err != nil {
		return Packet{}, err
	}
	buf := make([]byte, n)
	copy(buf, header)
	if _, err := io.ReadFull(vm.conn, buf[headerSize:]); err != nil {
		return Packet{}, err
	}
	return DecodePacket(buf)
}

func (vm *fakeVM) reply(id uint32, code uint16, data []byte) error {
	_, err := vm.conn.Write(Packet{ID: id, Reply: true, ErrorCode: code, Data: data}.Encode())
	return err
}

func (vm *fakeVM) event(data []byte) error {
	_, err := vm.conn.Write(Packet{ID: 999, CommandSet: cmdSetEvent, Command: cmdComposite, Data: data}.Encode())
	return err
}

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestRepliesMatchedByIDOutOfOrderAndEventsInBetween(t *testing.T) {
	c, vm := startFake(t)
	ctx := bounded(t)
	type res struct {
		name string
		err  error
	}
	results := make(chan res, 2)
	go func() {
		n, err := c.ThreadName(ctx, 1)
		results <- res{n, err}
	}()
	first, err := vm.read()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		n, err := c.ThreadName(ctx, 2)
		results <- res{n, err}
	}()
	second, err := vm.read()
	if err != nil {
		t.Fatal(err)
	}
	if first.CommandSet != setThread || first.Command != 1 || len(first.Data) != 8 {
		t.Fatalf("ThreadReference.Name on the wire: %+v", first)
	}
	// An event between the replies, the second answered first.
	ev := &writer{sizes: c.Sizes()}
	ev.byte(SuspendAll)
	ev.int(1)
	ev.byte(EventBreakpoint)
	ev.int(7)
	ev.object(2)
	ev.location(Location{TypeTag: TypeClass, Class: 3, Method: 4, Index: 5})
	if err := vm.event(ev.b); err != nil {
		t.Fatal(err)
	}
	for _, p := range []Packet{second, first} {
		w := &writer{}
		w.string(map[uint32]string{first.ID: "main", second.ID: "worker"}[p.ID])
		if err := vm.reply(p.ID, 0, w.b); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]bool{}
	for range 2 {
		r := <-results
		if r.err != nil {
			t.Fatal(r.err)
		}
		got[r.name] = true
	}
	if !got["main"] || !got["worker"] {
		t.Fatalf("names: %v", got)
	}
	set := <-c.Events()
	if len(set.Events) != 1 || set.Events[0].Kind != EventBreakpoint || set.Events[0].RequestID != 7 || set.Events[0].Location.Index != 5 {
		t.Fatalf("event: %+v", set)
	}
}

func TestErrorReplyAndTimeoutAndClose(t *testing.T) {
	c, vm := startFake(t)
	ctx := bounded(t)
	go func() {
		p, err := vm.read()
		if err == nil {
			_ = vm.reply(p.ID, ErrAbsentInformation, nil)
		}
	}()
	if _, err := c.VariableTable(ctx, 1, 2); !IsCode(err, ErrAbsentInformation) {
		t.Fatalf("want ABSENT_INFORMATION, got %v", err)
	}
	// A command the VM never answers ends with its context.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	go func() { _, _ = vm.read() }()
	if _, err := c.FrameCount(short, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want a deadline error, got %v", err)
	}
	// The VM going away ends pending and later commands and the events.
	vm.conn.Close()
	<-c.Done()
	if _, err := c.AllThreads(ctx); !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
	if _, ok := <-c.Events(); ok {
		t.Fatal("events should be closed")
	}
}

func TestDecodeEventSetRejectsTruncatedAndHugeCounts(t *testing.T) {
	sizes := IDSizes{8, 8, 8, 8, 8}
	w := &writer{sizes: sizes}
	w.byte(SuspendAll)
	w.int(1)
	w.byte(EventClassPrepare)
	w.int(3)
	w.object(1)
	w.byte(TypeClass)
	w.refType(9)
	w.string("Lcom/example/Scale;")
	w.int(7)
	set, err := DecodeEventSet(w.b, sizes)
	if err != nil || set.Events[0].Signature != "Lcom/example/Scale;" || set.Events[0].TypeID != 9 {
		t.Fatalf("class prepare: %+v %v", set, err)
	}
	if _, err := DecodeEventSet(w.b[:len(w.b)-2], sizes); !errors.Is(err, ErrMalformed) {
		t.Fatalf("truncated: %v", err)
	}
	huge := []byte{SuspendAll, 0x7f, 0xff, 0xff, 0xff}
	if _, err := DecodeEventSet(huge, sizes); !errors.Is(err, ErrMalformed) {
		t.Fatalf("huge count: %v", err)
	}
}

func TestDecodeMethodExitKeepsTheReturnValue(t *testing.T) {
	sizes := IDSizes{8, 8, 8, 8, 8}
	w := &writer{sizes: sizes}
	w.byte(SuspendNone)
	w.int(1)
	w.byte(EventMethodExitRV)
	w.int(7)
	w.object(42)
	w.location(Location{TypeTag: TypeClass, Class: 3, Method: 4, Index: 9})
	w.value(IntValue(30))
	set, err := DecodeEventSet(w.b, sizes)
	if err != nil {
		t.Fatal(err)
	}
	e := set.Events[0]
	if e.Thread != 42 || e.Location.Method != 4 || e.ReturnValue.Tag != TagInt || e.ReturnValue.Int() != 30 {
		t.Fatalf("decoded %+v", e)
	}
}

func TestRedefineClassesSendsEachClassWithItsBytesAndNamesTheRefusal(t *testing.T) {
	c, vm := startFake(t)
	ctx := bounded(t)
	got := make(chan Packet, 1)
	go func() {
		p, err := vm.read()
		if err != nil {
			return
		}
		got <- p
		_ = vm.reply(p.ID, 64, nil)
	}()
	err := c.RedefineClasses(ctx, []ClassDefinition{{Type: 7, Bytes: []byte{0xCA, 0xFE}}})
	if err == nil || !strings.Contains(err.Error(), "SCHEMA_CHANGE_NOT_IMPLEMENTED") {
		t.Fatalf("want the refusal named, got %v", err)
	}
	p := <-got
	want := []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 2, 0xCA, 0xFE}
	if p.CommandSet != setVM || p.Command != 18 || !bytes.Equal(p.Data, want) {
		t.Fatalf("RedefineClasses packet: set %d command %d data % x", p.CommandSet, p.Command, p.Data)
	}
}

func TestCapabilitiesNewReadsCanRedefineClasses(t *testing.T) {
	c, vm := startFake(t)
	go func() {
		p, err := vm.read()
		if err != nil {
			return
		}
		flags := make([]byte, capabilityFlags)
		flags[7] = 1
		_ = vm.reply(p.ID, 0, flags)
	}()
	caps, err := c.CapabilitiesNew(bounded(t))
	if err != nil || !caps.CanRedefineClasses || caps.CanAddMethod {
		t.Fatalf("capabilities: %+v, %v", caps, err)
	}
}

func TestResumeThreadSendsThreadReferenceResumeForThatThread(t *testing.T) {
	c, vm := startFake(t)
	got := make(chan Packet, 1)
	go func() {
		p, err := vm.read()
		if err != nil {
			return
		}
		got <- p
		_ = vm.reply(p.ID, 0, nil)
	}()
	if err := c.ResumeThread(bounded(t), 0x2a); err != nil {
		t.Fatal(err)
	}
	p := <-got
	want := []byte{0, 0, 0, 0, 0, 0, 0, 0x2a}
	if p.CommandSet != setThread || p.Command != 3 || !bytes.Equal(p.Data, want) {
		t.Fatalf("ThreadReference.Resume packet: set %d command %d data % x", p.CommandSet, p.Command, p.Data)
	}
}
