//go:build !unix

package session

// diskFullNote is "" where free space is not read: a truncated recording
// is then described as any other.
func diskFullNote(string) string { return "" }
