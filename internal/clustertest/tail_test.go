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
