package node

import (
	"context"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// V8 shows a function's return value only while paused at the function's
// return (CallFrame.returnValue); its step out stops in the caller, where
// the value is gone. So a step out here first sets temporary breakpoints
// at the function's return positions, and the step out pauses at one of
// them on its way: the value is read there, the breakpoints removed, and
// the step out goes on to the caller, where the value is shown as the
// local "(return) name".

// returnCapture is a step out in progress that catches the return value.
type returnCapture struct {
	depth    int // frames on the stack the step out started from
	function string
	bpIDs    map[string]bool // temporary breakpoints at the returns
	value    *cdp.RemoteObject
}

// prepareReturnCapture sets the temporary breakpoints at the returns of
// top's function, when it is a function (not a module's top level).
func (s *server) prepareReturnCapture(ctx context.Context, top cdp.CallFrame, depth int) {
	if top.FunctionName == "" || top.FunctionLocation == nil {
		return
	}
	if top.ReturnValue != nil {
		// Paused at the return already (where a step out from inside
		// the function's callee lands).
		s.mu.Lock()
		s.capture = &returnCapture{depth: depth, function: top.FunctionName, value: top.ReturnValue}
		s.mu.Unlock()
		return
	}
	var possible struct {
		Locations []cdp.BreakLocation `json:"locations"`
	}
	params := map[string]any{"start": top.FunctionLocation, "restrictToFunction": true}
	if err := s.cdp.Call(ctx, "Debugger.getPossibleBreakpoints", params, &possible); err != nil {
		s.log.Debug("node adapter: return positions", "err", err)
		return
	}
	var pending []*cdp.Pending
	for _, l := range possible.Locations {
		if l.Type != "return" {
			continue
		}
		p, err := s.cdp.Send("Debugger.setBreakpoint", map[string]any{"location": l.Location})
		if err != nil {
			break
		}
		pending = append(pending, p)
	}
	rc := &returnCapture{depth: depth, function: top.FunctionName, bpIDs: map[string]bool{}}
	for _, p := range pending {
		var res struct {
			BreakpointID string `json:"breakpointId"`
		}
		if err := p.Wait(ctx, &res); err == nil {
			rc.bpIDs[res.BreakpointID] = true
		}
	}
	if len(rc.bpIDs) == 0 {
		return
	}
	s.mu.Lock()
	s.capture = rc
	s.mu.Unlock()
}

// continueReturnCapture handles a pause during a step out that catches a
// return value. It reports true when it took the pause (the step out goes
// on); false when the pause is to be reported, the value (if caught) then
// going with it.
func (s *server) continueReturnCapture(p cdp.Paused) bool {
	s.mu.Lock()
	rc := s.capture
	if rc == nil {
		s.mu.Unlock()
		return false
	}
	atReturn, other := false, false
	for _, id := range p.HitBreakpoints {
		if rc.bpIDs[id] {
			atReturn = true
		} else if s.byCDP[id] != nil {
			other = true
		}
	}
	depth := len(p.CallFrames)
	inside := p.Reason == "other" && !other && !s.pauseRequested && depth >= rc.depth
	var remove []string
	if inside && atReturn && depth == rc.depth && len(p.CallFrames) > 0 {
		rc.value = p.CallFrames[0].ReturnValue
		for id := range rc.bpIDs {
			remove = append(remove, id)
		}
		rc.bpIDs = nil
	}
	s.mu.Unlock()
	if !inside {
		return false
	}
	for _, id := range remove {
		_, _ = s.cdp.Send("Debugger.removeBreakpoint", map[string]any{"breakpointId": id})
	}
	// Still inside the function (at its return, or back in it from a
	// deeper call of the same): step out again.
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	if err := s.cdp.Call(ctx, "Debugger.stepOut", nil, nil); err != nil {
		s.log.Debug("node adapter: step out", "err", err)
		return false
	}
	return true
}

// endReturnCaptureLocked ends the capture with the stop being reported: it
// returns the value caught, with the function's name, and the temporary
// breakpoints still to remove.
func (s *server) endReturnCaptureLocked() (value *cdp.RemoteObject, function string, remove []string) {
	rc := s.capture
	s.capture = nil
	if rc == nil {
		return nil, "", nil
	}
	for id := range rc.bpIDs {
		remove = append(remove, id)
	}
	return rc.value, rc.function, remove
}
