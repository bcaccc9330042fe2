package golang

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"testing"

	godap "github.com/google/go-dap"
)

func TestSendsExitedEvents(t *testing.T) {
	for v, want := range map[string]bool{
		"1.25.2": false, "1.26.2": false, "1.27.1": true, "1.27.2": true, "2.0.0": true, "weird": true,
	} {
		if got := sendsExitedEvents(v); got != want {
			t.Errorf("sendsExitedEvents(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestExitedEventAdded: the messages of a Delve before 1.27 pass through
// unchanged, and its console line at the program's end is followed by the
// exited event it does not send; the program's own output saying the same
// words is left alone.
func TestExitedEventAdded(t *testing.T) {
	delve, ours := net.Pipe()
	tr := withExitedEvents(ours)
	defer tr.Close()
	output := func(category, text string) []byte {
		b, _ := json.Marshal(map[string]any{"seq": 7, "type": "event", "event": "output", "body": map[string]any{"category": category, "output": text}})
		return b
	}
	sent := [][]byte{
		output("stdout", "Process 1 has exited with status 9\n"),
		output("console", "Process 28200 has exited with status 3\n"),
		[]byte(`{"seq":9,"type":"event","event":"terminated"}`),
	}
	go func() {
		for _, m := range sent {
			if err := godap.WriteBaseMessage(delve, m); err != nil {
				return
			}
		}
		delve.Close()
	}()
	br := bufio.NewReader(tr)
	var got []string
	for {
		msg, err := godap.ReadBaseMessage(br)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(msg))
	}
	want := []string{string(sent[0]), string(sent[1]), `{"seq":0,"type":"event","event":"exited","body":{"exitCode":3}}`, string(sent[2])}
	if len(got) != len(want) {
		t.Fatalf("messages:\n%q\nwant\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d: %s, want %s", i, got[i], want[i])
		}
	}
}
