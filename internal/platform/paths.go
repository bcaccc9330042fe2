package platform

import (
	"net/url"
	"path"
	"strings"
)

// Comparable is p in the form two paths of one file share on o: cleaned,
// with Windows's separators and drive letters in one form, and folded to
// lower case where o's file system ignores case. It is for comparing, not
// for opening.
func (o OS) Comparable(p string) string {
	if p == "" {
		return ""
	}
	if o.IsWindows() {
		p = cleanSlashed(toSlash(p))
	} else {
		p = path.Clean(p)
	}
	if o.FoldsCase {
		p = strings.ToLower(p)
	}
	return p
}

// SamePath says whether a and b name one file by their names alone (a link
// is not followed).
func (o OS) SamePath(a, b string) bool {
	return a == b || a != "" && b != "" && o.Comparable(a) == o.Comparable(b)
}

// Within says whether p is dir or lies below it, by o's comparison.
func (o OS) Within(dir, p string) bool {
	d, q := o.Comparable(dir), o.Comparable(p)
	if d == "" || q == "" {
		return false
	}
	return q == d || strings.HasPrefix(q, strings.TrimSuffix(d, "/")+"/")
}

// FileURL is the file: URL of an absolute path, as Node and browsers write
// it: file:///home/a/x.js, file:///C:/a/x.js, file://server/share/x.js.
func (o OS) FileURL(p string) string {
	if !o.IsWindows() {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	s := toSlash(p)
	if strings.HasPrefix(s, "//") {
		host, rest, _ := strings.Cut(s[2:], "/")
		return (&url.URL{Scheme: "file", Host: host, Path: "/" + rest}).String()
	}
	return (&url.URL{Scheme: "file", Path: "/" + s}).String()
}

// PathFromURL turns a file: URL back into o's path; ok is false for any
// other URL.
func (o OS) PathFromURL(s string) (p string, ok bool) {
	if !strings.HasPrefix(s, "file://") {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", false
	}
	if !o.IsWindows() {
		return u.Path, true
	}
	if u.Host != "" && u.Host != "localhost" {
		return fromSlash("//" + u.Host + u.Path), true
	}
	return fromSlash(strings.TrimPrefix(u.Path, "/")), true
}
