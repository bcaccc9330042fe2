package java

import (
	"context"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// A step out shows what the method it left returned, as the caller's
// local "(return) weigh", the way debugpy does: the agent's function
// traces read it there. JDWP reports the value with a
// MethodExitWithReturnValue event; one is requested for the method's
// class on the stepping thread, without suspending, while the step runs.
// The last exit of that method before the step ends is the frame stepped
// out of (recursive calls of it exit earlier).

// returnPrefix names the variable that holds a return value.
const returnPrefix = "(return) "

// returnWatch is the method exit request of a step out and what the
// method returned once it has.
type returnWatch struct {
	req    int32
	thread jdwp.ObjectID
	class  jdwp.ReferenceTypeID
	method jdwp.MethodID
	name   string
	value  *jdwp.Value
}

// canGetReturnValues says whether the VM reports return values: JDWP 1.6
// added the event, and JDI decides the same way.
func (s *server) canGetReturnValues(ctx context.Context) bool {
	if !s.returnsProbed {
		s.returnsProbed = true
		if v, err := s.vm.Version(ctx); err == nil {
			s.returns = v.Major > 1 || v.Minor >= 6
		}
	}
	return s.returns
}

// watchReturn asks for the return value of the method on top of the
// thread's stack, which a step out is about to leave.
func (s *server) watchReturn(ctx context.Context, thread jdwp.ObjectID) {
	if !s.canGetReturnValues(ctx) {
		return
	}
	loc, ok := s.topLocation(ctx, thread)
	if !ok {
		return
	}
	m, ok := s.types.method(ctx, loc.Class, loc.Method)
	if !ok {
		return
	}
	id, err := s.vm.SetEvent(ctx, jdwp.EventMethodExitRV, jdwp.SuspendNone, jdwp.ThreadOnly(thread), jdwp.ClassOnly(loc.Class))
	if err != nil {
		s.log.Debug("java adapter: watch return value", "err", err)
		return
	}
	s.mu.Lock()
	s.ret = &returnWatch{req: id, thread: thread, class: loc.Class, method: loc.Method, name: m.Name}
	s.mu.Unlock()
}

// topLocation is where the thread's top frame is.
func (s *server) topLocation(ctx context.Context, thread jdwp.ObjectID) (jdwp.Location, bool) {
	if d := s.stopDataFor(thread); d != nil {
		if frames, _, err := d.allFrames(ctx); err == nil && len(frames) > 0 {
			return frames[0].Location, true
		}
	}
	frames, err := s.vm.Frames(ctx, thread, 0, 1)
	if err != nil || len(frames) == 0 {
		return jdwp.Location{}, false
	}
	return frames[0].Location, true
}

// returned records a method exit of the watched method.
func (s *server) returned(e jdwp.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.ret
	if w == nil || e.RequestID != w.req || e.Thread != w.thread || e.Location.Class != w.class || e.Location.Method != w.method {
		return
	}
	if e.ReturnValue.Tag == jdwp.TagVoid {
		w.value = nil
		return
	}
	v := e.ReturnValue
	w.value = &v
}

// returnVariable is the "(return) method" local of a stop that ended a
// step out, for the top frame of the stopped thread.
func (s *server) returnVariable(ctx context.Context, h *handle) (godap.Variable, bool) {
	if h.depth != 0 {
		return godap.Variable{}, false
	}
	s.mu.Lock()
	st := s.cur
	s.mu.Unlock()
	if st == nil || st.ret == nil || st.ret.value == nil || st.thread != h.thread {
		return godap.Variable{}, false
	}
	return s.variable(ctx, h.thread, returnPrefix+st.ret.name, *st.ret.value, ""), true
}
