package recording

import (
	"fmt"
	"path/filepath"
	"testing"
)

// Past maxEvents the file keeps the first events, a gap naming the calls
// that fell out, the ring of the last maxEvents/10 and the end; what it
// says reads back as a recording that counts what was dropped.
func TestWriterKeepsTheStartAGapTheLastEventsAndTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	w, err := Create(path, 20)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(0, []byte(`{"k":"start","t":0,"lang":"c","version":1}`))
	for id := 1; id <= 100; id++ {
		w.Add(id, []byte(fmt.Sprintf(`{"k":"call","t":%d,"id":%d,"p":0,"fn":"f","file":"/f.c","line":1,"args":[]}`, w.Now(), id)))
		w.Add(id, []byte(fmt.Sprintf(`{"k":"ret","t":%d,"id":%d,"v":"1","line":2}`, w.Now(), id)))
	}
	w.Always([]byte(`{"k":"end","t":1,"exit":0}`))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// 201 events: 20 written, 2 in the ring, the end; 179 fell out of the
	// ring, calls 10 to 99.
	if r.Events != 20+1+2+1 || r.Dropped != 179 || !r.Ended {
		t.Fatalf("events %d, dropped %d, ended %v", r.Events, r.Dropped, r.Ended)
	}
	rep, err := r.Report()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts.Calls != 10+1 || rep.Outcome != "exited with code 0" {
		t.Fatalf("report: %+v", rep)
	}
}
