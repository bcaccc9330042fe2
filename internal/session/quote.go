package session

import "fmt"

// inputQuoteLimit is how much of the agent's own input an error or message
// repeats: enough to recognise it, never enough to blow the answer's size
// when the input is huge.
const inputQuoteLimit = 200

// Brief returns s when it is short, else its first bytes followed by
// "… (N bytes)", for quoting the agent's input back in errors and messages.
func Brief(s string) string {
	if len(s) <= inputQuoteLimit {
		return s
	}
	prefix, _ := Cut(s, inputQuoteLimit)
	return fmt.Sprintf("%s (%d bytes)", prefix, len(s))
}
