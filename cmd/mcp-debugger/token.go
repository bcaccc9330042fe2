package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
)

// The HTTP server always requires a bearer token, even on loopback: a
// loopback port is open to every local user, and reaching the server is
// running code as the user who started it. Unless one is given, the token
// is the user's own, kept in a file only the user can read; it outlives
// reboots, so that a client configured with it once keeps working.

// bearerToken is the token the HTTP server requires, and the file it came
// from ("" when it was given with a flag or the environment).
type bearerToken struct {
	value, file string
}

// serverToken returns the token from --token-file, --token or the
// environment, else the user's token, made on first use.
func serverToken(flagToken, tokenFile string) (bearerToken, error) {
	if tokenFile != "" {
		token, err := readToken(tokenFile)
		return bearerToken{value: token}, err
	}
	if flagToken != "" {
		return bearerToken{value: flagToken}, nil
	}
	if env := os.Getenv(tokenEnv); env != "" {
		return bearerToken{value: env}, nil
	}
	path, err := userTokenFile()
	if err != nil {
		return bearerToken{}, err
	}
	token, err := loadOrCreateToken(path)
	if err != nil {
		return bearerToken{}, err
	}
	return bearerToken{value: token, file: path}, nil
}

// userTokenFile names the file of the user's token, creating its directory
// private to the user. It lies in the configuration directory, not the
// runtime one, which is emptied at logout.
func userTokenFile() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding your configuration directory for the HTTP token: %w", err)
	}
	dir, err := privateDir(filepath.Join(base, "mcp-debugger"), "configuration directory")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "http-token"), nil
}

// loadOrCreateToken reads the token in path, or writes a new random one
// there (0600) when there is none. The new file is linked into place
// whole, so two servers starting at once never see half a token and agree
// on the one that got there first.
func loadOrCreateToken(path string) (string, error) {
	token, err := readToken(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return token, err
	}
	if token, err = httpserver.NewToken(); err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, []byte(token+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("writing the HTTP token: %w", err)
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); errors.Is(err, fs.ErrExist) {
		return readToken(path)
	} else if err != nil {
		return "", fmt.Errorf("writing the HTTP token: %w", err)
	}
	return token, nil
}

func readToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading the HTTP token: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("the token file %s is empty; remove it and a new token is made at the next start", path)
	}
	return token, nil
}

// configHint is the command that prints a client's configuration for a
// server listening on listen.
func configHint(listen string) string {
	return fmt.Sprintf("`mcp-debugger http --listen %s --print-config claude|cursor|vscode`", listen)
}

// unauthorizedHint is what a request without the token is told: where the
// token is and how to configure a client with it. Beyond loopback the
// asker may be on another host, so the file's path (and with it the
// user's home) is left out.
func (b bearerToken) unauthorizedHint(listen string, loopback bool) string {
	switch {
	case b.file == "":
		return "send \"Authorization: Bearer TOKEN\" with the token this server was started with (--token, --token-file or $" + tokenEnv + ")"
	case !loopback:
		return "send \"Authorization: Bearer TOKEN\" with the server's token; on the server's machine its user runs " + configHint(listen) + " for a client configuration that does"
	}
	return fmt.Sprintf("send \"Authorization: Bearer TOKEN\" with the token in %s (readable only by the user who started the server); as that user, %s prints a client configuration that does",
		b.file, configHint(listen))
}

// clientConfigs are the clients --print-config knows.
var clientConfigs = []string{"claude", "cursor", "vscode"}

// printClientConfig prints what plugs the server at listen into client,
// the token included: a command line for Claude Code and VS Code, the
// mcp.json entry for Cursor.
func printClientConfig(w io.Writer, client, listen, token string) error {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return fmt.Errorf("--print-config needs --listen HOST:PORT: %w", err)
	}
	if port == "0" || port == "" {
		return fmt.Errorf("--print-config needs the port the server listens on: add --listen 127.0.0.1:PORT, as given to the server")
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	url := "http://" + net.JoinHostPort(host, port) + "/mcp"
	auth := "Bearer " + token
	switch client {
	case "claude":
		_, err = fmt.Fprintf(w, "claude mcp add --transport http debugger %s --header %s\n", url, shellQuote("Authorization: "+auth))
	case "vscode":
		entry, _ := json.Marshal(map[string]any{"name": "debugger", "type": "http", "url": url, "headers": map[string]string{"Authorization": auth}})
		_, err = fmt.Fprintf(w, "code --add-mcp %s\n", shellQuote(string(entry)))
	case "cursor":
		entry, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"debugger": map[string]any{"url": url, "headers": map[string]string{"Authorization": auth}}}}, "", "  ")
		_, err = fmt.Fprintf(w, "%s\n", entry)
	default:
		return fmt.Errorf("--print-config: unknown client %q (one of %s)", client, strings.Join(clientConfigs, ", "))
	}
	if err != nil {
		return fmt.Errorf("printing the configuration: %w", err)
	}
	return nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
