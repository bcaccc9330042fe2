package session

import "context"

// nativeUserFunctions would list the functions of a C, C++ or Rust
// program whose sources are under roots; finding them through lldb is not
// written yet, so native programs are refused rather than recorded empty.
func (s *Session) nativeUserFunctions(_ context.Context, _ []string) ([]userFunction, error) {
	return nil, errorf("debug it with start_debugging and trace_function meanwhile", "recording %s programs is not supported yet: only Go is recorded through breakpoints", s.Language.ID)
}
