package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Stream hands on what Load returns, in the same order, for a directory
// and for each single file, and a Digest of it is Load's Checksum.
func TestStreamMatchesLoad(t *testing.T) {
	for _, path := range []string{"testdata/mixed", "testdata/mixed/records.jsonl", "testdata/mixed/guides/descaling.md", "testdata/mixed/repair.html"} {
		want, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []Document
		var g Digest
		if err := Stream(path, func(d *Document) error {
			got = append(got, *d)
			g.Add(d)
			return nil
		}); err != nil {
			t.Fatalf("Stream(%s): %v", path, err)
		}
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(got)
		if string(a) != string(b) {
			t.Errorf("Stream(%s) handed on\n%s\nLoad returned\n%s", path, b, a)
		}
		if g.Sum() != Checksum(want) {
			t.Errorf("Stream(%s): digest %s, Load's checksum %s", path, g.Sum(), Checksum(want))
		}
	}
}

// Stream stops at a bad record with Load's error, and at fn's error.
func TestStreamErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	os.WriteFile(path, []byte(`{"id":"a","title":"A","text":"x"}`+"\n"+`{"id":"b","title":"B","text":"y","acl":[]}`+"\n"), 0o644)
	_, lerr := Load(path)
	n := 0
	err := Stream(path, func(*Document) error { n++; return nil })
	if err == nil || lerr == nil || err.Error() != lerr.Error() || n != 1 {
		t.Errorf("Stream error %v after %d documents, want Load's %v after 1", err, n, lerr)
	}
	stop := fmt.Errorf("stop")
	if err := Stream("testdata/mixed", func(*Document) error { return stop }); err != stop {
		t.Errorf("Stream with a failing fn: %v, want %v", err, stop)
	}
}

// Stream holds one document at a time: reading a 30 MB corpus, the live
// heap stays far below the corpus's size (Load's would exceed it).
func TestStreamDoesNotHoldTheCorpus(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	text := strings.Repeat("descaling the kettle every month keeps it quiet. ", 30)
	const docs = 20000
	for i := range docs {
		fmt.Fprintf(w, `{"id":"d%d","title":"Document %d","text":"%s %d","acl":["public"]}`+"\n", i, i, text, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	var peak uint64
	n := 0
	var g Digest
	err = Stream(path, func(d *Document) error {
		g.Add(d)
		if n++; n%5000 == 0 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("live heap at most %d bytes streaming a %d-byte corpus of %d documents", peak, st.Size(), n)
	if n != docs {
		t.Fatalf("streamed %d documents, want %d", n, docs)
	}
	if peak > uint64(st.Size())/4 {
		t.Errorf("live heap reached %d bytes streaming a %d-byte corpus: the documents are held", peak, st.Size())
	}
}
