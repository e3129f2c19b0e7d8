package clustertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTailFirstError: a log whose fatal line is followed by more than
// the tail's 4,000 bytes of stack trace still shows that line.
func TestTailFirstError(t *testing.T) {
	log := filepath.Join(t.TempDir(), "temporal-server.log")
	fatal := `{"level":"fatal","msg":"Unable to start server","error":"listen tcp 127.0.0.1:25690: bind: address already in use"}`
	body := `{"level":"info","msg":"starting"}` + "\n" + fatal + "\n" + strings.Repeat("go.uber.org/dig.paramList.BuildList\n", 400)
	if err := os.WriteFile(log, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t}
	got := c.tail(&proc{name: "temporal-server", log: log})
	if !strings.Contains(got, "address already in use") {
		t.Errorf("tail lost the fatal line:\n%.300s", got)
	}
	if strings.Contains(got, `"msg":"starting"`) {
		t.Errorf("tail shows an info line:\n%.300s", got)
	}
}

// TestTailLeadsWithFatal: the fatal line of a log comes first even after
// more error lines than the head holds; assay's own error lines (slog's
// text handler) and a Go panic followed by a goroutine dump longer than
// the tail are found too, and PostgreSQL's FATAL line.
func TestTailLeadsWithFatal(t *testing.T) {
	dump := strings.Repeat("goroutine 1 [running]:\nmain.main()\n\t/src/main.go:1 +0x1\n", 200)
	for _, tc := range []struct {
		name, body string
		want       []string // in this order, in the head
	}{
		{"temporal-server", strings.Repeat(`{"level":"error","msg":"Unable to process task"}`+"\n", 5) +
			`{"level":"fatal","msg":"Unable to start server","error":"bind: address already in use"}` + "\n" + dump,
			[]string{"address already in use", "Unable to process task"}},
		{"worker-0", "time=2026-12-06T18:00:00Z level=INFO msg=started\n" +
			"time=2026-12-06T18:00:01Z level=ERROR msg=\"activity failed\" error=boom\n" +
			"panic: runtime error: index out of range [3] with length 3\n\n" + dump,
			[]string{"index out of range", "activity failed"}},
		{"postgres", "2026-12-06 18:00:00.000 UTC [12] LOG:  starting PostgreSQL\n" +
			"2026-12-06 18:00:00.001 UTC [12] FATAL:  could not create lock file \"/run/x.lock\"\n" + dump,
			[]string{"could not create lock file"}},
	} {
		log := filepath.Join(t.TempDir(), tc.name+".log")
		if err := os.WriteFile(log, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		got := (&cluster{t: t}).tail(&proc{name: tc.name, log: log})
		head, _, ok := strings.Cut(got, "\nthe end:\n")
		if !ok {
			t.Errorf("%s: no head:\n%.400s", tc.name, got)
			continue
		}
		at := -1
		for _, w := range tc.want {
			i := strings.Index(head, w)
			if i < 0 || i < at {
				t.Errorf("%s: head lacks %q or has it out of order:\n%s", tc.name, w, head)
			}
			at = i
		}
		if strings.Contains(head, "level=INFO") || strings.Contains(head, "LOG:") {
			t.Errorf("%s: head shows an info line:\n%s", tc.name, head)
		}
	}
}
