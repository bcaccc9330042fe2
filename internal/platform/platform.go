// Package platform describes the operating systems the server runs on as
// values, so that adapter discovery and path comparison follow one OS's
// rules while tests drive all of them from any machine: nothing here reads
// runtime.GOOS except Current.
package platform

import (
	"path"
	"runtime"
	"strings"
)

// OS describes what an operating system means for finding programs and
// comparing their paths.
type OS struct {
	// Name is the GOOS value: "linux", "darwin" or "windows".
	Name string
	// ExeSuffix ends an executable's file name (".exe" on Windows).
	ExeSuffix string
	// FoldsCase says the default file system compares names
	// case-insensitively (APFS on macOS, NTFS on Windows).
	FoldsCase bool
	// Separator separates path elements; ListSeparator separates PATH's.
	Separator     byte
	ListSeparator byte
	// DriveLetters says absolute paths begin with a drive ("C:\").
	DriveLetters bool
	// Installer names the package manager install hints are written for
	// ("apt", "brew", "winget").
	Installer string
}

// The operating systems the server supports.
var (
	Linux   = OS{Name: "linux", Separator: '/', ListSeparator: ':', Installer: "apt"}
	Darwin  = OS{Name: "darwin", FoldsCase: true, Separator: '/', ListSeparator: ':', Installer: "brew"}
	Windows = OS{Name: "windows", ExeSuffix: ".exe", FoldsCase: true, Separator: '\\', ListSeparator: ';', DriveLetters: true, Installer: "winget"}
)

// InstallCommands are the commands that install one thing, per package
// manager; For picks the one an OS's hints are written for.
type InstallCommands struct {
	Apt, Brew, Winget string
}

// For is the command for o's installer (apt's for an unknown one).
func (c InstallCommands) For(o OS) string {
	switch o.Installer {
	case Darwin.Installer:
		return c.Brew
	case Windows.Installer:
		return c.Winget
	}
	return c.Apt
}

// Current is the OS this process runs on; other Unix systems follow
// Linux's rules.
func Current() OS { return ForName(runtime.GOOS) }

// ForName returns the OS a GOOS value names.
func ForName(goos string) OS {
	switch goos {
	case "darwin", "ios":
		return Darwin
	case "windows":
		return Windows
	}
	o := Linux
	o.Name = goos
	return o
}

// IsWindows says whether o follows Windows's path rules.
func (o OS) IsWindows() bool { return o.DriveLetters }

// Exe is the file name of the program called name.
func (o OS) Exe(name string) string {
	if o.ExeSuffix == "" || strings.HasSuffix(strings.ToLower(name), o.ExeSuffix) {
		return name
	}
	return name + o.ExeSuffix
}

// Join joins path elements with o's separator and cleans the result.
func (o OS) Join(elem ...string) string {
	if !o.IsWindows() {
		return path.Join(elem...)
	}
	for i, e := range elem {
		elem[i] = toSlash(e)
	}
	return fromSlash(cleanSlashed(strings.Join(nonEmpty(elem), "/")))
}

// Dir is p without its last element.
func (o OS) Dir(p string) string {
	if !o.IsWindows() {
		return path.Dir(p)
	}
	return fromSlash(cleanSlashed(path.Dir(toSlash(p))))
}

// Base is the last element of p.
func (o OS) Base(p string) string {
	if !o.IsWindows() {
		return path.Base(p)
	}
	return path.Base(toSlash(p))
}

// SplitList splits a PATH-style list, dropping empty entries (which mean
// nothing safe to search).
func (o OS) SplitList(list string) []string {
	var out []string
	for _, d := range strings.Split(list, string(o.ListSeparator)) {
		if d = strings.Trim(d, `"`); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// IsAbs says whether p is absolute on o.
func (o OS) IsAbs(p string) bool {
	if !o.IsWindows() {
		return strings.HasPrefix(p, "/")
	}
	s := toSlash(p)
	return strings.HasPrefix(s, "//") || len(s) >= 3 && isDrive(s) && s[2] == '/'
}

// HasSeparator says whether name is a path rather than a bare command
// name.
func (o OS) HasSeparator(name string) bool {
	return strings.ContainsRune(name, rune(o.Separator)) || o.IsWindows() && strings.ContainsAny(name, "/:")
}

// HomeDir is the user's home directory as env tells it.
func (o OS) HomeDir(getenv func(string) string) string {
	if o.IsWindows() {
		return getenv("USERPROFILE")
	}
	return getenv("HOME")
}

func nonEmpty(elem []string) []string {
	out := elem[:0:0]
	for _, e := range elem {
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

func toSlash(p string) string   { return strings.ReplaceAll(p, `\`, "/") }
func fromSlash(p string) string { return strings.ReplaceAll(p, "/", `\`) }

// isDrive says whether a slashed Windows path begins with "X:".
func isDrive(s string) bool {
	return len(s) >= 2 && s[1] == ':' && ('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z')
}

// cleanSlashed cleans a slashed Windows path, keeping a UNC path's
// leading "//" and a drive's root.
func cleanSlashed(s string) string {
	if strings.HasPrefix(s, "//") {
		return "/" + path.Clean(s[1:])
	}
	if isDrive(s) {
		rest := s[2:]
		if rest == "" {
			return s
		}
		return s[:2] + path.Clean(rest)
	}
	return path.Clean(s)
}
