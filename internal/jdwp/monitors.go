package jdwp

import "context"

// ContendedMonitor is the object whose monitor a suspended thread waits to
// enter (a synchronized block or method), 0 when it waits for none
// (ThreadReference.CurrentContendedMonitor; the VM must have
// canGetCurrentContendedMonitor).
func (c *Conn) ContendedMonitor(ctx context.Context, t ObjectID) (ObjectID, error) {
	w := c.newWriter()
	w.object(t)
	r, err := c.call(ctx, setThread, 9, "ThreadReference.CurrentContendedMonitor", w.b)
	if err != nil {
		return 0, err
	}
	r.byte() // the tag: an object
	monitor := r.object()
	return monitor, r.done()
}

// MonitorOwner is the thread that holds an object's monitor, 0 when none
// does (ObjectReference.MonitorInfo; the VM must have canGetMonitorInfo
// and its threads be suspended).
func (c *Conn) MonitorOwner(ctx context.Context, o ObjectID) (ObjectID, error) {
	w := c.newWriter()
	w.object(o)
	r, err := c.call(ctx, setObject, 5, "ObjectReference.MonitorInfo", w.b)
	if err != nil {
		return 0, err
	}
	owner := r.object()
	r.int() // entry count
	for n := r.count(0); n > 0; n-- {
		r.object() // a thread waiting for a notify
	}
	return owner, r.done()
}
