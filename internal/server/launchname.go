package server

// programPath is the program to launch as the session takes it: absolute,
// or nothing when the launch arguments name it instead (a Python module, a
// JVM main class: session.ProgramInLaunchArgs), where absPath would make
// "" the server's directory.
func (s *Server) programPath(scriptPath string) string {
	if scriptPath == "" {
		return ""
	}
	return s.absPath(scriptPath)
}
