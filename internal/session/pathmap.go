package session

// Path mappings: a program that runs somewhere else (a container, another
// host) sees its files under other roots than the agent's copy. Every DAP
// message between the session and such an adapter passes through
// mappedTransport, the one place that translates: source paths going out
// become the program's, source paths coming back become the agent's where
// the agent has the file, and stay the program's (marked remote in
// answers) where it has not.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// PathMapping pairs the agent's source root with the program's.
type PathMapping = adapter.PathMapping

// IsRemoteAbs reports whether p is absolute on the program's side, in
// POSIX form (/app) or Windows form (C:\app, C:/app, \\host\share). A
// container's path is POSIX whatever the server runs on, so this never
// asks the local filepath.
func IsRemoteAbs(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && isDriveLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

func isDriveLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// CheckPathMappings says what is wrong with mappings, if anything.
func CheckPathMappings(pairs []PathMapping) error {
	for i, p := range pairs {
		if p.LocalRoot == "" || p.RemoteRoot == "" {
			return fmt.Errorf("pathMappings[%d] needs both localRoot and remoteRoot", i)
		}
		if !IsRemoteAbs(p.RemoteRoot) {
			return fmt.Errorf("pathMappings[%d].remoteRoot %q is not absolute (as the program sees it: /app, C:\\app)", i, p.RemoteRoot)
		}
	}
	return nil
}

// pathMap translates paths between the agent's roots and the program's;
// the longest matching root wins on either side.
type pathMap struct {
	pairs []PathMapping
}

// newPathMap returns nil when there is nothing to map.
func newPathMap(pairs []PathMapping) *pathMap {
	if len(pairs) == 0 {
		return nil
	}
	m := &pathMap{}
	for _, p := range pairs {
		m.pairs = append(m.pairs, PathMapping{LocalRoot: filepath.Clean(p.LocalRoot), RemoteRoot: trimRemoteRoot(p.RemoteRoot)})
	}
	return m
}

// trimRemoteRoot drops trailing separators, keeping a bare root (/, C:\).
func trimRemoteRoot(root string) string {
	trimmed := strings.TrimRight(root, `/\`)
	if trimmed == "" || (len(trimmed) == 2 && trimmed[1] == ':') {
		return root
	}
	return trimmed
}

// windowsRemote reports whether a remote root is in Windows form, whose
// separators are either slash and whose names ignore case. A relative root
// (a build's trimmed paths, builtelsewhere.go) is slash-separated.
func windowsRemote(root string) bool { return IsRemoteAbs(root) && !strings.HasPrefix(root, "/") }

// remoteRest returns what follows root in p, slash-separated, when p is
// root itself or lies under it.
func remoteRest(root, p string) (string, bool) {
	win := windowsRemote(root)
	if len(p) < len(root) {
		return "", false
	}
	head := p[:len(root)]
	if head != root && !(win && strings.EqualFold(strings.ReplaceAll(head, `\`, "/"), strings.ReplaceAll(root, `\`, "/"))) {
		return "", false
	}
	rest := p[len(root):]
	if strings.HasSuffix(root, "/") || strings.HasSuffix(root, `\`) {
		return toSlash(rest, win), true
	}
	switch {
	case rest == "":
		return "", true
	case rest[0] == '/' || (win && rest[0] == '\\'):
		return toSlash(rest[1:], win), true
	}
	return "", false
}

func toSlash(p string, win bool) string {
	if win {
		return strings.ReplaceAll(p, `\`, "/")
	}
	return p
}

// localRest is remoteRest for the agent's side, in its own OS's form.
func localRest(root, p string) (string, bool) {
	p = filepath.Clean(p)
	if p == root {
		return "", true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if !strings.HasPrefix(p, prefix) {
		return "", false
	}
	return filepath.ToSlash(p[len(prefix):]), true
}

// toRemote translates an agent's path into the program's; a path under no
// local root is returned as it is.
func (m *pathMap) toRemote(local string) string {
	best, rest := -1, ""
	for i, p := range m.pairs {
		if r, ok := localRest(p.LocalRoot, local); ok && (best < 0 || len(p.LocalRoot) > len(m.pairs[best].LocalRoot)) {
			best, rest = i, r
		}
	}
	if best < 0 {
		return local
	}
	root := m.pairs[best].RemoteRoot
	if rest == "" {
		return root
	}
	sep := "/"
	if windowsRemote(root) {
		sep, rest = `\`, strings.ReplaceAll(rest, "/", `\`)
	}
	return strings.TrimRight(root, `/\`) + sep + rest
}

// toLocal translates a program's path into the agent's, reporting whether
// a remote root covered it.
func (m *pathMap) toLocal(remote string) (string, bool) {
	best, rest := -1, ""
	for i, p := range m.pairs {
		if r, ok := remoteRest(p.RemoteRoot, remote); ok && (best < 0 || len(p.RemoteRoot) > len(m.pairs[best].RemoteRoot)) {
			best, rest = i, r
		}
	}
	if best < 0 {
		return remote, false
	}
	return filepath.Join(m.pairs[best].LocalRoot, filepath.FromSlash(rest)), true
}

// shownPath is the path an answer shows for a program's path: the agent's
// copy where it has one, else the program's own.
func (m *pathMap) shownPath(remote string) string {
	local, ok := m.toLocal(remote)
	if !ok {
		return remote
	}
	if _, err := os.Stat(local); err != nil {
		return remote
	}
	return local
}

// localText rewrites the program's paths in free text (an exception's
// stack trace) as shownPath does: each path under a remote root, up to a
// quote, a blank, a comma or a colon, becomes the agent's where it has the
// file.
func (m *pathMap) localText(text string) string {
	var b strings.Builder
	for text != "" {
		at, root := -1, 0
		for _, p := range m.pairs {
			if i := strings.Index(text, p.RemoteRoot); i >= 0 && (at < 0 || i < at) {
				at, root = i, len(p.RemoteRoot)
			}
		}
		if at < 0 {
			break
		}
		end := at + root + strings.IndexAny(text[at+root:]+" ", "\"' \t\n,:()")
		b.WriteString(text[:at])
		b.WriteString(m.shownPath(text[at:end]))
		text = text[end:]
	}
	b.WriteString(text)
	return b.String()
}

// translate rewrites the source paths in one DAP message's JSON: those in
// a request's arguments go to the program's roots (outgoing), those in
// responses and events come back to the agent's. A message without any is
// returned as it is, and so is one that cannot be decoded.
func (m *pathMap) translate(body []byte, outgoing bool) []byte {
	if !bytes.Contains(body, []byte(`"source`)) && !bytes.Contains(body, []byte(`"stackTrace"`)) {
		return body
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var msg map[string]any
	if err := dec.Decode(&msg); err != nil {
		return body
	}
	part := "body"
	if outgoing {
		part = "arguments"
	}
	if !m.walk(msg[part], outgoing) {
		return body
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(msg); err != nil {
		return body
	}
	return bytes.TrimRight(out.Bytes(), "\n")
}

// walk translates every Source object's path under v (a "source" field,
// the elements of a "sources" list) and exception stack-trace text;
// it reports whether anything changed.
func (m *pathMap) walk(v any, outgoing bool) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			switch {
			case k == "source":
				changed = m.fixSource(child, outgoing) || changed
			case k == "sources":
				if list, ok := child.([]any); ok {
					for _, s := range list {
						changed = m.fixSource(s, outgoing) || changed
					}
				}
			case k == "stackTrace" && !outgoing:
				if text, ok := child.(string); ok {
					if local := m.localText(text); local != text {
						x[k], changed = local, true
					}
				}
			}
			changed = m.walk(child, outgoing) || changed
		}
	case []any:
		for _, child := range x {
			changed = m.walk(child, outgoing) || changed
		}
	}
	return changed
}

func (m *pathMap) fixSource(v any, outgoing bool) bool {
	src, ok := v.(map[string]any)
	if !ok {
		return false
	}
	path, ok := src["path"].(string)
	if !ok || path == "" {
		return false
	}
	to := m.shownPath(path)
	if outgoing {
		to = m.toRemote(path)
	}
	if to == path {
		return false
	}
	src["path"] = to
	return true
}

// mappedTransport translates the source paths of every DAP message that
// crosses it (see pathMap.translate).
type mappedTransport struct {
	io.ReadWriteCloser
	m       *pathMap
	r       *bufio.Reader
	pending []byte
}

func newMappedTransport(rwc io.ReadWriteCloser, m *pathMap) *mappedTransport {
	return &mappedTransport{ReadWriteCloser: rwc, m: m, r: bufio.NewReaderSize(rwc, 64<<10)}
}

// Read returns the adapter's messages with the agent's paths.
func (t *mappedTransport) Read(p []byte) (int, error) {
	for len(t.pending) == 0 {
		body, err := dapc.ReadFrame(t.r)
		if err != nil {
			return 0, err
		}
		t.pending = dapc.AppendFrame(nil, t.m.translate(body, false))
	}
	n := copy(p, t.pending)
	t.pending = t.pending[n:]
	return n, nil
}

// Write sends a message with the program's paths. The DAP client writes
// one whole frame per call.
func (t *mappedTransport) Write(p []byte) (int, error) {
	_, body, found := bytes.Cut(p, []byte("\r\n\r\n"))
	if !found {
		return 0, errors.New("path mapping: a DAP message without its header")
	}
	if _, err := t.ReadWriteCloser.Write(dapc.AppendFrame(nil, t.m.translate(body, true))); err != nil {
		return 0, err
	}
	return len(p), nil
}
