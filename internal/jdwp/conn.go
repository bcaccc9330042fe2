package jdwp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// handshake is what both sides send first, verbatim.
const handshake = "JDWP-Handshake"

// DefaultTimeout bounds a command whose context has no deadline.
const DefaultTimeout = 30 * time.Second

// ErrClosed is returned by commands once the connection has ended.
var ErrClosed = errors.New("jdwp: connection closed")

// Error is a reply's error code with its name.
type Error struct {
	Code    uint16
	Command string
}

// Error codes a debugger handles on purpose.
const (
	ErrInvalidThread      = 10
	ErrThreadNotSuspended = 13
	ErrInvalidObject      = 20
	ErrInvalidFrameID     = 30
	ErrAbsentInformation  = 101
	ErrVMDead             = 112
)

var errorNames = map[uint16]string{
	10: "INVALID_THREAD", 11: "INVALID_THREAD_GROUP", 13: "THREAD_NOT_SUSPENDED",
	14: "THREAD_SUSPENDED", 20: "INVALID_OBJECT", 21: "INVALID_CLASS",
	22: "CLASS_NOT_PREPARED", 23: "INVALID_METHODID", 24: "INVALID_LOCATION",
	25: "INVALID_FIELDID", 30: "INVALID_FRAMEID", 31: "NO_MORE_FRAMES",
	32: "OPAQUE_FRAME", 33: "NOT_CURRENT_FRAME", 34: "TYPE_MISMATCH",
	35: "INVALID_SLOT", 41: "NOT_FOUND",
	60: "INVALID_CLASS_FORMAT", 61: "CIRCULAR_CLASS_DEFINITION", 62: "FAILS_VERIFICATION",
	63: "ADD_METHOD_NOT_IMPLEMENTED", 64: "SCHEMA_CHANGE_NOT_IMPLEMENTED", 65: "INVALID_TYPESTATE",
	66: "HIERARCHY_CHANGE_NOT_IMPLEMENTED", 67: "DELETE_METHOD_NOT_IMPLEMENTED", 68: "UNSUPPORTED_VERSION",
	69: "NAMES_DONT_MATCH", 70: "CLASS_MODIFIERS_CHANGE_NOT_IMPLEMENTED",
	71: "METHOD_MODIFIERS_CHANGE_NOT_IMPLEMENTED", 72: "CLASS_ATTRIBUTE_CHANGE_NOT_IMPLEMENTED", 99: "NOT_IMPLEMENTED",
	100: "NULL_POINTER", 101: "ABSENT_INFORMATION", 102: "INVALID_EVENT_TYPE",
	103: "ILLEGAL_ARGUMENT", 110: "OUT_OF_MEMORY", 111: "ACCESS_DENIED",
	112: "VM_DEAD", 113: "INTERNAL", 115: "UNATTACHED_THREAD",
	500: "INVALID_TAG", 502: "ALREADY_INVOKING", 503: "INVALID_INDEX",
	504: "INVALID_LENGTH", 506: "INVALID_STRING", 507: "INVALID_CLASS_LOADER",
	508: "INVALID_ARRAY", 509: "TRANSPORT_LOAD", 510: "TRANSPORT_INIT",
	511: "NATIVE_METHOD", 512: "INVALID_COUNT",
}

func (e *Error) Error() string {
	name := errorNames[e.Code]
	if name == "" {
		name = "error"
	}
	return fmt.Sprintf("jdwp %s: %s (%d)", e.Command, name, e.Code)
}

// IsCode reports whether err is a JDWP reply error with this code.
func IsCode(err error, code uint16) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// Conn is a debugger's connection to one VM. Commands may be sent from any
// goroutine; one reader goroutine matches replies to commands by id and
// queues event packets, which Events delivers in order. Events never
// block the reader (the queue is unbounded), so a command's reply is read
// even while nobody consumes events.
type Conn struct {
	rwc   io.ReadWriteCloser
	sizes IDSizes

	wmu    sync.Mutex // one packet at a time on rwc
	mu     sync.Mutex // guards what follows
	nextID uint32
	wait   map[uint32]chan Packet
	err    error
	queue  []*EventSet
	ready  chan struct{} // signalled when queue grows

	events chan *EventSet
	done   chan struct{} // closed when the reader ends
	pumped chan struct{} // closed when the event pump ends
	// closing is set, and closed closed, once Close is called.
	closing atomic.Bool
	closed  chan struct{}
	// afterRead runs after every read (TCP_QUICKACK re-arming).
	afterRead func()
}

// Options tune a connection.
type Options struct {
	// AfterRead, when set, runs after every read from the transport.
	AfterRead func()
}

// New shakes hands on rwc, starts the reader and asks the VM for its
// identifier sizes. ctx bounds the handshake.
func New(ctx context.Context, rwc io.ReadWriteCloser, opts Options) (*Conn, error) {
	if err := shakeHands(ctx, rwc); err != nil {
		return nil, err
	}
	c := &Conn{
		rwc:       rwc,
		wait:      map[uint32]chan Packet{},
		ready:     make(chan struct{}, 1),
		events:    make(chan *EventSet),
		done:      make(chan struct{}),
		pumped:    make(chan struct{}),
		closed:    make(chan struct{}),
		afterRead: opts.AfterRead,
		// IDSizes itself has no identifiers; real sizes follow.
		sizes: IDSizes{8, 8, 8, 8, 8},
	}
	go c.readLoop()
	go c.pump()
	sizes, err := c.IDSizes(ctx)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("jdwp id sizes: %w", err)
	}
	if !sizes.valid() {
		c.Close()
		return nil, fmt.Errorf("jdwp: VM reports unusable id sizes %+v", sizes)
	}
	c.mu.Lock()
	c.sizes = sizes
	c.mu.Unlock()
	return c, nil
}

// shakeHands writes the handshake and reads it back, within ctx.
func shakeHands(ctx context.Context, rwc io.ReadWriteCloser) error {
	errc := make(chan error, 1)
	go func() {
		if _, err := io.WriteString(rwc, handshake); err != nil {
			errc <- err
			return
		}
		buf := make([]byte, len(handshake))
		if _, err := io.ReadFull(rwc, buf); err != nil {
			errc <- err
			return
		}
		if string(buf) != handshake {
			errc <- fmt.Errorf("unexpected reply %q", buf)
			return
		}
		errc <- nil
	}()
	select {
	case err := <-errc:
		if err != nil {
			return fmt.Errorf("jdwp handshake: %w", err)
		}
		return nil
	case <-ctx.Done():
		// Closing unblocks the goroutine, which then ends.
		rwc.Close()
		<-errc
		return fmt.Errorf("jdwp handshake: %w", ctx.Err())
	}
}

// Sizes returns the VM's identifier sizes.
func (c *Conn) Sizes() IDSizes {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sizes
}

// Events delivers composite event packets in arrival order; it is closed
// once the connection has ended and every queued event was delivered.
func (c *Conn) Events() <-chan *EventSet { return c.events }

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err says why the connection ended (nil while open).
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the connection and waits for its goroutines. Event delivery
// stops too: a consumer blocked on Events sees the channel close.
func (c *Conn) Close() error {
	if c.closing.CompareAndSwap(false, true) {
		close(c.closed)
	}
	err := c.rwc.Close()
	<-c.done
	<-c.pumped
	return err
}

func (c *Conn) readLoop() {
	defer close(c.done)
	var err error
	defer func() {
		c.mu.Lock()
		if err == nil || errors.Is(err, net.ErrClosed) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, io.EOF) {
			err = ErrClosed
		} else {
			err = fmt.Errorf("%w: %w", ErrClosed, err)
		}
		c.err = err
		for id, ch := range c.wait {
			close(ch)
			delete(c.wait, id)
		}
		c.mu.Unlock()
		c.signal()
	}()
	header := make([]byte, headerSize)
	for {
		if _, err = io.ReadFull(c.rwc, header); err != nil {
			return
		}
		var n int
		if n, err = PacketLength(header); err != nil {
			return
		}
		buf := make([]byte, n)
		copy(buf, header)
		if _, err = io.ReadFull(c.rwc, buf[headerSize:]); err != nil {
			return
		}
		if c.afterRead != nil {
			c.afterRead()
		}
		var p Packet
		if p, err = DecodePacket(buf); err != nil {
			return
		}
		if p.Reply {
			c.mu.Lock()
			ch := c.wait[p.ID]
			delete(c.wait, p.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- p
			}
			continue
		}
		if p.CommandSet != cmdSetEvent || p.Command != cmdComposite {
			// The VM sends no other commands; skip what we do not know.
			continue
		}
		set, derr := DecodeEventSet(p.Data, c.Sizes())
		if derr != nil {
			err = derr
			return
		}
		c.mu.Lock()
		c.queue = append(c.queue, set)
		c.mu.Unlock()
		c.signal()
	}
}

func (c *Conn) signal() {
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

// pump hands queued events to Events' consumer; it ends when the reader
// has ended and the queue is empty, or when Close is called.
func (c *Conn) pump() {
	defer close(c.pumped)
	defer close(c.events)
	for {
		c.mu.Lock()
		var next *EventSet
		if len(c.queue) > 0 {
			next = c.queue[0]
			c.queue = c.queue[1:]
		}
		ended := c.err != nil
		c.mu.Unlock()
		if next == nil {
			if ended {
				return
			}
			<-c.ready
			continue
		}
		select {
		case c.events <- next:
		case <-c.done:
			// Deliver what was queued before the end (the VM's death),
			// unless the owner closed the connection and may no longer
			// be reading.
			if c.closing.Load() {
				return
			}
			select {
			case c.events <- next:
			case <-c.closed:
				return
			}
		}
	}
}

// call sends a command and waits for its reply, bounded by ctx (or by
// DefaultTimeout when ctx has no deadline).
func (c *Conn) call(ctx context.Context, set, cmd byte, name string, data []byte) (*reader, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	ch := make(chan Packet, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, fmt.Errorf("jdwp %s: %w", name, err)
	}
	c.nextID++
	id := c.nextID
	c.wait[id] = ch
	sizes := c.sizes
	c.mu.Unlock()
	pkt := Packet{ID: id, CommandSet: set, Command: cmd, Data: data}.Encode()
	c.wmu.Lock()
	_, err := c.rwc.Write(pkt)
	c.wmu.Unlock()
	if err != nil {
		c.forget(id)
		return nil, fmt.Errorf("jdwp %s: %w", name, err)
	}
	select {
	case p, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("jdwp %s: %w", name, c.Err())
		}
		if p.ErrorCode != 0 {
			return nil, &Error{Code: p.ErrorCode, Command: name}
		}
		return &reader{sizes: sizes, b: p.Data}, nil
	case <-ctx.Done():
		c.forget(id)
		return nil, fmt.Errorf("jdwp %s: %w", name, ctx.Err())
	}
}

func (c *Conn) forget(id uint32) {
	c.mu.Lock()
	delete(c.wait, id)
	c.mu.Unlock()
}

// newWriter starts command data with the connection's id sizes.
func (c *Conn) newWriter() *writer { return &writer{sizes: c.Sizes()} }
