package session

import (
	"context"
	"slices"

	"github.com/google/go-dap"
)

// FrameArg is the frame a tool's frameId argument names: nil (the current
// stop's top frame) for nil, and for 0 unless a frame of the current stop
// has the id 0. Clients that must send every argument (OpenAI's strict
// mode) send 0 for "not given", and most adapters number frames from 1 or
// higher, so a 0 that names no frame means the default, not "Unable to
// find thread".
func (s *Session) FrameArg(ctx context.Context, id *int) *int {
	if id == nil || *id != 0 {
		return id
	}
	_, st, err := s.pausedStop(ctx, "use a frame")
	if err != nil {
		// The call the frame is for says what is wrong (not paused, …).
		return nil
	}
	if slices.ContainsFunc(st.frames, func(f dap.StackFrame) bool { return f.Id == 0 }) {
		return id
	}
	return nil
}
