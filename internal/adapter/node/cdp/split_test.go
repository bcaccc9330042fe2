package cdp

import (
	"encoding/json"
	"testing"
)

// The hand split must give what a full decode gives, and leave any other
// layout to the decoder.
func TestSplitMatchesDecode(t *testing.T) {
	for _, msg := range []string{
		`{"method":"Debugger.paused","params":{"callFrames":[{"a":{"b":"}"}}],"reason":"other"}}`,
		`{"method":"Debugger.resumed"}`,
		`{"id":12,"result":{"result":[{"name":"x","value":{"type":"number","value":1}}]}}`,
		`{"id":3,"result":{}}`,
	} {
		var want incoming
		if err := json.Unmarshal([]byte(msg), &want); err != nil {
			t.Fatal(err)
		}
		got, ok := incoming{}, false
		if method, params, isEvent := splitEvent([]byte(msg)); isEvent {
			got, ok = incoming{Method: method, Params: params}, true
		} else {
			got, ok = splitResponse([]byte(msg))
		}
		if !ok || got.ID != want.ID || got.Method != want.Method || string(got.Params) != string(want.Params) || string(got.Result) != string(want.Result) {
			t.Errorf("%s: split %+v (ok %v), decoded %+v", msg, got, ok, want)
		}
	}
	for _, msg := range []string{
		`{"id":4,"error":{"code":-32000,"message":"no"}}`,
		`{"method":"X","params":{},"sessionId":"s"}`,
		`{"params":{},"method":"X"}`,
	} {
		if _, _, ok := splitEvent([]byte(msg)); ok {
			t.Errorf("%s: split as an event", msg)
		}
		if _, ok := splitResponse([]byte(msg)); ok {
			t.Errorf("%s: split as a response", msg)
		}
	}
}
