package e2e

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

const q02 = "how many years is the X300 Pro motor covered for"

// narrowedHollin is the Hollin corpus with pol-warranty-2026 made
// staff-only, as chunks and as a JSONL file.
func narrowedHollin(t *testing.T) ([]corpus.Chunk, string, string) {
	t.Helper()
	docs, err := corpus.LoadJSONL("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	for i := range docs {
		if docs[i].ID == "pol-warranty-2026" {
			docs[i].ACL = []string{"staff"}
		}
		b, _ := json.Marshal(docs[i])
		buf.Write(append(b, '\n'))
	}
	path := filepath.Join(t.TempDir(), "narrowed.jsonl")
	if err := os.WriteFile(path, []byte(buf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	return ch.SplitAll(docs), corpus.Checksum(docs), path
}

func cited(q api.QuestionResponse) []string {
	var out []string
	for _, c := range q.Citations {
		out = append(out, c.DocID)
	}
	return out
}

// traceMentions reports whether a run's trace names doc anywhere: hits,
// stage candidates, warnings.
func traceMentions(t *testing.T, s *devStack, id, doc string) bool {
	t.Helper()
	tr, err := s.client().Trace(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(tr)
	return strings.Contains(string(b), doc)
}

// indexStage returns the note of the "index" stage of a run's first
// attempt: the index version it searched.
func indexStage(t *testing.T, s *devStack, id string) string {
	t.Helper()
	tr, err := s.client().Trace(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Attempts) == 0 || len(tr.Attempts[0].Stages) == 0 || tr.Attempts[0].Stages[0].Name != "index" {
		t.Fatalf("trace has no index stage: %+v", tr.Attempts)
	}
	return tr.Attempts[0].Stages[0].Note
}

func readyInfo(t *testing.T, s *devStack) api.Readiness {
	t.Helper()
	resp, err := http.Get(s.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rd api.Readiness
	if err := json.NewDecoder(resp.Body).Decode(&rd); err != nil {
		t.Fatal(err)
	}
	return rd
}

// TestEndToEndRebuiltIndexIsServed (issue 12, finding 4): after a
// rebuild narrows a document's ACL, the running worker of `assay dev`
// serves the new index at once; /readyz and the trace name the version.
func TestEndToEndRebuiltIndexIsServed(t *testing.T) {
	dir := t.TempDir()
	s := startDev(t, dir)
	id, q := s.askID(t, q02)
	if q.StopReason != "answered" || !slices.Contains(cited(q), "pol-warranty-2026") {
		t.Fatalf("before the rebuild: stop %s, cited %v; want answered citing pol-warranty-2026", q.StopReason, cited(q))
	}
	before := indexStage(t, s, id)
	if rd := readyInfo(t, s); rd.Info["index"] != before {
		t.Errorf("/readyz info %v, want the index version the trace names, %q", rd.Info, before)
	}

	chunks, sum, _ := narrowedHollin(t)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	if _, _, err := bleveindex.Build(context.Background(), filepath.Join(dir, "index"), chunks, backend.BuildOptions{
		Checksum: sum, Embedder: emb, Chunking: chunk.Default().String(),
	}); err != nil {
		t.Fatal(err)
	}

	id, q = s.askID(t, q02)
	if slices.Contains(cited(q), "pol-warranty-2026") || traceMentions(t, s, id, "pol-warranty-2026") {
		t.Errorf("after narrowing pol-warranty-2026 to staff, a public run still sees it: stop %s, cited %v", q.StopReason, cited(q))
	}
	after := indexStage(t, s, id)
	if after == before {
		t.Errorf("the trace names the same index version before and after the rebuild: %q", after)
	}
	if rd := readyInfo(t, s); rd.Status != "ready" || rd.Info["index"] != after {
		t.Errorf("/readyz = %+v, want ready serving %q", rd, after)
	}
}

// TestEndToEndRediSearch: `assay dev` with the redisearch backend indexes
// its corpus into Redis, says so, answers q02 citing pol-warranty-2026,
// never shows a public caller the staff-only ticket, and serves a
// rebuild written by another process without a restart.
func TestEndToEndRediSearch(t *testing.T) {
	srv := redistest.Start(t)
	name := redistest.Name("e2e")
	s := startDev(t, t.TempDir(), "--backend", "redisearch", "--redis-addr", srv.Addr, "--name", name)
	if out := s.stdout.String(); !strings.Contains(out, "RediSearch index \""+name+"\" in Redis at "+srv.Addr) {
		t.Errorf("start-up output does not say the index is in Redis:\n%s", out)
	}
	id, q := s.askID(t, q02)
	if q.StopReason != "answered" || !slices.Contains(cited(q), "pol-warranty-2026") {
		t.Fatalf("q02: stop %s, cited %v; want answered citing pol-warranty-2026\n%s", q.StopReason, cited(q), s.stderr.String())
	}
	if v := indexStage(t, s, id); !strings.Contains(v, "redisearch assay:"+name+":v1") {
		t.Errorf("trace names index %q, want version 1 of %s", v, name)
	}
	// Redis is all the search calls: it ran as a local activity
	// (worker.local_redis_search), a marker in the history, no activity task.
	if got := devScheduled(t, s, id); got["Search"] != "local" {
		t.Errorf("Search ran as %q, want local (worker.local_redis_search defaults to true)", got["Search"])
	}
	for _, question := range []string{"case 30455", "K50 will not pair with an older Android phone", "what did the staff ticket 30455 say"} {
		id, q := s.askID(t, question)
		if slices.Contains(cited(q), "tkt-30455") || traceMentions(t, s, id, "tkt-30455") {
			t.Errorf("public question %q reached the staff-only tkt-30455: cited %v", question, cited(q))
		}
	}

	// Another process rebuilds the shared index with pol-warranty-2026
	// staff-only; the running worker serves it on its next search.
	chunks, sum, _ := narrowedHollin(t)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	rdb := srv.Client(t)
	if _, _, err := redisearch.Build(context.Background(), rdb, name, chunks, redisearch.BuildOptions{Checksum: sum, Embedder: emb, Chunking: chunk.Default().String()}); err != nil {
		t.Fatal(err)
	}
	id, q = s.askID(t, q02)
	if slices.Contains(cited(q), "pol-warranty-2026") || traceMentions(t, s, id, "pol-warranty-2026") {
		t.Errorf("after the rebuild a public run still sees pol-warranty-2026: cited %v", cited(q))
	}
	if v := indexStage(t, s, id); !strings.Contains(v, ":v2") {
		t.Errorf("after the rebuild the trace names %q, want version 2", v)
	}
	if rd := readyInfo(t, s); rd.Status != "ready" || !strings.Contains(rd.Info["index"], ":v2") {
		t.Errorf("/readyz = %+v, want ready on version 2", rd)
	}

	// Redis lost mid-run: the Search activity retries, then the run stops
	// search_error with a detail that names no host.
	if srv.Cmd == nil {
		t.Skip("SKIPPED the lost-Redis part: the server comes from ASSAY_TEST_REDIS_URL and is not ours to kill")
	}
	// Redis that stops answering (a paused process: connections are
	// accepted, nothing replies): each local attempt ends at its timeout,
	// shorter than the workflow task's, and the run stops search_error.
	srv.Cmd.Process.Signal(syscall.SIGSTOP)
	start := time.Now()
	_, q = s.askID(t, "E12")
	if q.StopReason != "search_error" || strings.Contains(q.StopDetail, srv.Addr) {
		t.Errorf("with Redis paused: stop %s, detail %q; want search_error naming no host", q.StopReason, q.StopDetail)
	}
	t.Logf("with Redis paused the run stopped %s (%s) after %s", q.StopReason, q.StopDetail, time.Since(start).Round(time.Millisecond))
	srv.Cmd.Process.Kill()
	srv.Cmd.Wait()
	start = time.Now()
	_, q = s.askID(t, "E12")
	if q.StopReason != "search_error" || q.StopDetail != "search failed: unavailable" || strings.Contains(q.StopDetail, srv.Addr) {
		t.Errorf("with Redis gone: stop %s, detail %q; want search_error, \"search failed: unavailable\"", q.StopReason, q.StopDetail)
	}
	t.Logf("with Redis gone the run stopped %s after %s", q.StopReason, time.Since(start).Round(time.Millisecond))
}

// devScheduled says how run id's activities ran, by type: "activity"
// (an activity task), "local" (a LocalActivity marker) or "both".
func devScheduled(t *testing.T, s *devStack, id string) map[string]string {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: s.TemporalAddr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out := map[string]string{}
	add := func(name, kind string) {
		if k := out[name]; k != "" && k != kind {
			kind = "both"
		}
		out[name] = kind
	}
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			add(a.GetActivityType().GetName(), "activity")
		}
		if m := ev.GetMarkerRecordedEventAttributes(); m.GetMarkerName() == "LocalActivity" {
			var data struct{ ActivityType string }
			if err := converter.GetDefaultDataConverter().FromPayloads(m.GetDetails()["data"], &data); err != nil {
				t.Fatal(err)
			}
			add(data.ActivityType, "local")
		}
	}
	return out
}
