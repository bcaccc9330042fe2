package session

import "context"

// nativeUserFunctions lists the functions of a C, C++ or Rust program
// whose source is under roots.
func (s *Session) nativeUserFunctions(ctx context.Context, roots []string) ([]userFunction, error) {
	return nil, nil
}
