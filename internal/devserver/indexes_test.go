package devserver

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/assay-rag/assay/internal/devserver/devservertest"
)

// visibilityIndexes lists executions_visibility's indexes by the column
// each is for.
func visibilityIndexes(t *testing.T, dbPath string) map[string]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'executions_visibility' AND sql IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			t.Fatal(err)
		}
		col := indexColumn(def)
		if col == "" {
			col = "(" + name + ")"
		}
		out[col] = name
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var visAttempts = temporal.NewSearchAttributeKeyInt64("VisTestAttempts")

// TestTrimVisibilityIndexes: a dev server Start made keeps the indexes of
// the columns assay and the Web UI filter on, those of its search
// attributes' columns, and none of droppedSystemIndexes or of unmapped
// custom columns; every query still answers, through an index or a scan;
// and a mapped column that lost its index gets it back at the next trim.
func TestTrimVisibilityIndexes(t *testing.T) {
	bin := devservertest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "temporal.db")
	srv, err := Start(ctx, Options{Bin: bin, DataDir: dir, Port: freePort(t),
		SearchAttributes: map[string]enumspb.IndexedValueType{
			visStatus.GetName():   enumspb.INDEXED_VALUE_TYPE_KEYWORD,
			visAttempts.GetName(): enumspb.INDEXED_VALUE_TYPE_INT,
		}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			srv.Stop(10 * time.Second)
		}
	}()

	got := visibilityIndexes(t, dbPath)
	db, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := mappedColumns(ctx, db)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	var keyword, integer string
	for col := range mapped {
		switch customColumn.FindStringSubmatch(col)[1] {
		case "Keyword":
			keyword = col
		case "Int":
			integer = col
		}
	}
	if len(mapped) != 2 || keyword == "" || integer == "" {
		t.Fatalf("mapped custom columns %v, want one Keyword and one Int column", mapped)
	}
	for _, col := range []string{"(default_idx)", "execution_time", "workflow_id", "workflow_type_name", "status", "task_queue",
		"TemporalNamespaceDivision", "TemporalScheduledById", "TemporalWorkerDeploymentVersion", "parent_workflow_id", "root_workflow_id",
		keyword, integer} {
		if got[col] == "" {
			t.Errorf("no index on %s after the trim; indexes: %v", col, got)
		}
	}
	for col := range got {
		if droppedSystemIndexes[col] {
			t.Errorf("index %s on %s left", got[col], col)
		}
		if customColumn.MatchString(col) && !mapped[col] {
			t.Errorf("index %s on unmapped column %s left", got[col], col)
		}
	}
	if len(got) > 22 {
		t.Errorf("%d indexes left, want at most 22 of the CLI's 45: %v", len(got), slices.Sorted(func(yield func(string) bool) {
			for c := range got {
				if !yield(c) {
					return
				}
			}
		}))
	}

	// Queries answer as before: on an attribute (its index), on a column
	// whose index was dropped (a scan).
	const queue = "trim-test"
	c, w := visClientWorker(ctx, t, srv, queue)
	defer c.Close()
	for i := range 3 {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "trim-" + string(rune('a'+i)), TaskQueue: queue,
			TypedSearchAttributes: temporal.NewSearchAttributes(visAttempts.ValueSet(int64(i)))}, visWorkflow, time.Duration(0))
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	w.Stop()
	for q, want := range map[string]int64{
		"WorkflowType = 'visWorkflow' AND VisTestStatus = 'completed'":                    3,
		"WorkflowType = 'visWorkflow' AND VisTestAttempts >= 1":                           2,
		"WorkflowType = 'visWorkflow' AND HistoryLength > 2 AND StateTransitionCount > 0": 3,
		"WorkflowType = 'visWorkflow' AND HistoryLength > 1000":                           0,
	} {
		deadline := time.Now().Add(5 * time.Second)
		for {
			resp, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: q})
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if resp.GetCount() == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d runs, want %d", q, resp.GetCount(), want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	c.Close()
	if err := srv.Stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	stopped = true

	// A mapped column without its index (dropped as unmapped before its
	// attribute was registered) gets it back; a second trim changes nothing.
	rw, err := sql.Open("sqlite", "file:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(`DROP INDEX ` + got[keyword]); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	dropped, restored, err := trimVisibilityIndexes(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(dropped) != 0 || !slices.Equal(restored, []string{keyword}) {
		t.Fatalf("second trim dropped %v, restored %v; want nothing dropped and %s restored", dropped, restored, keyword)
	}
	if again := visibilityIndexes(t, dbPath); again[keyword] != customIndexName(keyword) || len(again) != len(got) {
		t.Fatalf("after the restore: %v, want %v", again, got)
	}
	if dropped, restored, err := trimVisibilityIndexes(ctx, dbPath); err != nil || dropped != nil || restored != nil {
		t.Fatalf("third trim: dropped %v, restored %v, err %v; want nothing", dropped, restored, err)
	}
}

// TestKeepVisibilityIndexes: with KeepVisibilityIndexes the CLI's 45
// indexes stay.
func TestKeepVisibilityIndexes(t *testing.T) {
	bin := devservertest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	srv, err := Start(ctx, Options{Bin: bin, DataDir: dir, Port: freePort(t), KeepVisibilityIndexes: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(10 * time.Second)
	if got := visibilityIndexes(t, filepath.Join(dir, "temporal.db")); len(got) != 45 {
		t.Fatalf("%d indexes, want the CLI's 45", len(got))
	}
}

func TestIndexColumn(t *testing.T) {
	for def, want := range map[string]string{
		`CREATE INDEX by_keyword_02  ON executions_visibility (namespace_id, Keyword02,  (COALESCE(close_time, '9999-12-31 23:59:59+00:00')) DESC, start_time DESC, run_id)`: "Keyword02",
		"CREATE INDEX by_status ON executions_visibility (namespace_id, status,\n (COALESCE(close_time, '9999-12-31 23:59:59+00:00')) DESC, start_time DESC, run_id)":        "status",
		`CREATE INDEX default_idx ON executions_visibility (namespace_id, (COALESCE(close_time, '9999-12-31 23:59:59+00:00')) DESC, start_time DESC, run_id)`:                "",
	} {
		if got := indexColumn(def); got != want {
			t.Errorf("indexColumn(%q) = %q, want %q", def, got, want)
		}
	}
	if got := customIndexName("Datetime03"); got != "by_datetime_03" {
		t.Errorf("customIndexName(Datetime03) = %q", got)
	}
}

// TestTrimExistingBeforeLaunch: an existing temporal.db is trimmed before
// the server opens it, not under it. A trim that runs while the server
// writes makes some of the server's writes fail with SQLITE_BUSY,
// busy_timeout notwithstanding (a transaction that read first cannot
// wait for the lock): seen as "database is locked (5) (SQLITE_BUSY)" on
// CreateWorkflowExecution under load. Here the second start's server is
// a program that exits at once, so only a trim made before the launch
// can have dropped the index.
func TestTrimExistingBeforeLaunch(t *testing.T) {
	bin := devservertest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "temporal.db")
	srv, err := Start(ctx, Options{Bin: bin, DataDir: dir, Port: freePort(t), KeepVisibilityIndexes: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Stop(10 * time.Second); err != nil {
		t.Logf("stop: %v", err)
	}
	if got := visibilityIndexes(t, dbPath); got["history_length"] == "" {
		t.Fatalf("no index on history_length with KeepVisibilityIndexes: %v", got)
	}
	exits := filepath.Join(t.TempDir(), "exits")
	if err := os.WriteFile(exits, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Start(ctx, Options{Bin: exits, DataDir: dir, Port: freePort(t), ReadyTimeout: 10 * time.Second}); err == nil {
		t.Fatal("a server that exits at once started")
	}
	if got := visibilityIndexes(t, dbPath); got["history_length"] != "" || got["workflow_id"] == "" {
		t.Fatalf("indexes after a start whose server never ran: %v; want history_length's dropped before the launch, workflow_id's kept", got)
	}
}
