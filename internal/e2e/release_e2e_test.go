package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/internal/cli"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/workflows"
)

// releaseCmd runs `assay release ARGS... --data-dir DIR --temporal-address
// ADDR` against a dev stack.
func releaseCmd(t *testing.T, s *devStack, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	full := append([]string{"assay", "release"}, args...)
	full = append(full, "--data-dir", s.DataDir, "--temporal-address", s.TemporalAddr)
	full = append(full, releaseConn[s]...)
	err := cli.Run(context.Background(), full, func(string) string { return "" }, &out, &errOut)
	if err != nil {
		t.Logf("assay release %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), err
}

// hollinVariant writes the Hollin corpus changed by edit (nil drops a
// document) to a file.
func hollinVariant(t *testing.T, name string, edit func(d *corpus.Document) bool) string {
	t.Helper()
	docs, err := corpus.LoadJSONL("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for i := range docs {
		if !edit(&docs[i]) {
			continue
		}
		b, _ := json.Marshal(docs[i])
		buf.Write(append(b, '\n'))
	}
	path := filepath.Join(t.TempDir(), name+".jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// gateQuestions writes the Hollin questions with the given ids.
func gateQuestions(t *testing.T, ids ...string) string {
	t.Helper()
	b, err := os.ReadFile("../../testdata/hollin/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, line := range strings.Split(string(b), "\n") {
		for _, id := range ids {
			if strings.Contains(line, `"id": "`+id+`"`) {
				keep = append(keep, line)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "gate.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// releaseConn are the connection flags of a stack's release commands
// besides its data dir and Temporal (RediSearch mode's).
var releaseConn = map[*devStack][]string{}

func releaseStatusOf(t *testing.T, s *devStack, name string) release.Status {
	t.Helper()
	out, err := releaseCmd(t, s, "status", name, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var st release.Status
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	return st
}

var gateIDs = []string{"q01", "q02", "q03", "q23", "q30", "q31"}

// TestEndToEndReleases (issue 22): the first assay dev makes release
// initial; a candidate built without the warranty pages is rejected by
// the gate, naming the threshold; a candidate with one page corrected
// passes the gate and every canary step and is promoted, and every run
// stays on the release it started with over every attempt; a rollback
// takes effect for new runs within a second.
func TestEndToEndReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	s := startDev(t, t.TempDir())
	if out, err := releaseCmd(t, s, "list"); err != nil || !strings.Contains(out, "initial (stable)") {
		t.Fatalf("release list after the first assay dev:\n%s\nwant initial as the stable release", out)
	}
	if st := releaseStatusOf(t, s, "initial"); st.State != release.Promoted || st.Share != 100 {
		t.Fatalf("initial: %+v, want promoted at 100%%", st)
	}
	// Runs of the initial release say so.
	id, q := s.askID(t, q02)
	if tr, err := s.client().Trace(context.Background(), id); err != nil || tr.Release != "initial" || q.StopReason != "answered" {
		t.Fatalf("a run on the initial release: release %q, stop %s, %v", tr.Release, q.StopReason, err)
	}

	// A candidate that lost the warranty pages fails the gate.
	noWarranty := hollinVariant(t, "no-warranty", func(d *corpus.Document) bool { return !strings.Contains(d.ID, "warranty") })
	if _, err := releaseCmd(t, s, "create", "no-warranty", "--corpus", noWarranty); err != nil {
		t.Fatal(err)
	}
	gate := gateQuestions(t, gateIDs...)
	_, err := releaseCmd(t, s, "start", "no-warranty", "--gate", gate, "--gate-corpus", "../../testdata/hollin/corpus.jsonl",
		"--canary", "50,100", "--step-runs", "3", "--poll", "300ms", "--wait")
	if err == nil {
		t.Fatal("the candidate without warranty pages was promoted")
	}
	st := releaseStatusOf(t, s, "no-warranty")
	if st.State != release.Rejected || !strings.Contains(st.Reason, "right_source_cited") || !strings.Contains(st.Reason, "right_source_drop") {
		t.Fatalf("no-warranty: %+v; want rejected by the gate naming right_source_cited and its threshold", st)
	}
	t.Logf("no-warranty: %s: %s", st.State, st.Reason)
	recordHistory(t, s, "release-no-warranty", "rejected")
	for range 4 {
		id, _ := s.askID(t, q02)
		if tr, _ := s.client().Trace(context.Background(), id); tr.Release != "initial" {
			t.Fatalf("after the gate rejected no-warranty, a run used %q", tr.Release)
		}
	}

	// The same loss with a gate that does not cover it: the canary stops
	// it at its first step, by the rise of insufficient_context.
	if _, err := releaseCmd(t, s, "create", "no-warranty-2", "--corpus", noWarranty); err != nil {
		t.Fatal(err)
	}
	// (A gate of questions about other documents also stops it: with the
	// warranty pages gone, q16's ranking changes. So no gate here.)
	canaryCase(t, s, "no-warranty-2", "", []string{q02, "is blade wear covered for the X200"})

	// A candidate with one page corrected passes the gate and the canary.
	fixed := hollinVariant(t, "fixed", func(d *corpus.Document) bool {
		if d.ID == "man-x200-cleaning" {
			d.Text = strings.Replace(d.Text, ".", ". (Corrected.)", 1)
		}
		return true
	})
	if _, err := releaseCmd(t, s, "create", "fixed", "--corpus", fixed); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		// The gate's and the canary's latency thresholds are not what this
		// case is about, and the traffic below runs beside the gate's
		// batches: on a loaded machine the candidate's p95 came out at
		// 1.2 s against stable's 0.23 s. A 10 s slack leaves them out;
		// workflows' tests cover the p95 threshold.
		_, err := releaseCmd(t, s, "start", "fixed", "--gate", gate, "--gate-corpus", "../../testdata/hollin/corpus.jsonl",
			"--canary", "50,100", "--step-runs", "3", "--poll", "300ms", "--thresholds", `{"p95_slack_ms":10000}`, "--wait")
		done <- err
	}()
	// Traffic while the release runs, four questions at a time so that
	// runs are in flight when the shares change and at the promotion:
	// every run stays on the release it started with over every attempt,
	// and a run on initial answers as a run on initial did before.
	// Questions both releases answer: with a few runs a step, a mix of
	// answered and unanswerable questions split by run id would differ
	// between the releases by chance more than the thresholds allow.
	questions := []string{q02, "can I put the blender base in the sink"}
	baseline := map[string]string{}
	for _, q := range questions {
		baseline[q] = s.ask(t, q).Answer
	}
	runs := map[string]string{} // run id → release
	deadline := time.Now().Add(4 * time.Minute)
wait:
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("release fixed: %v (status %+v)", err, releaseStatusOf(t, s, "fixed"))
			}
			break wait
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("release fixed not done after 4 minutes: %+v", releaseStatusOf(t, s, "fixed"))
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		for i := range 4 {
			wg.Go(func() {
				question := questions[i%len(questions)]
				id, q := s.askID(t, question)
				rel := traceRelease(t, s, id)
				checkOneIndex(t, s, id)
				if rel == "initial" && q.Answer != baseline[question] {
					t.Errorf("run %s on initial answered %q, initial alone answered %q", id, q.Answer, baseline[question])
				}
				mu.Lock()
				runs[id] = rel
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	if st := releaseStatusOf(t, s, "fixed"); st.State != release.Promoted {
		t.Fatalf("fixed: %+v, want promoted", st)
	}
	byRelease := map[string]int{}
	for _, r := range runs {
		byRelease[r]++
	}
	t.Logf("runs during the release of fixed: %v", byRelease)
	recordHistory(t, s, "release-fixed", "promoted-canary")
	if byRelease["fixed"] == 0 || byRelease["initial"] == 0 {
		t.Errorf("runs during the canary by release: %v; want both releases to have taken runs", byRelease)
	}
	if id, _ := s.askID(t, q02); traceRelease(t, s, id) != "fixed" {
		t.Fatalf("after promotion a new run used %q, want fixed", traceRelease(t, s, id))
	}

	// Rollback: new runs are back on initial within a second.
	if _, err := releaseCmd(t, s, "rollback"); err != nil {
		t.Fatal(err)
	}
	decided := time.Now()
	var firstBack time.Duration
	for firstBack == 0 {
		id, _ := s.askID(t, q02)
		if traceRelease(t, s, id) == "initial" {
			firstBack = time.Since(decided)
		}
		if time.Since(decided) > 10*time.Second {
			t.Fatal("10 s after the rollback, new runs still use fixed")
		}
	}
	t.Logf("first run on initial %s after the rollback", firstBack)
	time.Sleep(time.Until(decided.Add(time.Second)))
	for range 5 {
		if id, _ := s.askID(t, q02); traceRelease(t, s, id) != "initial" {
			t.Fatalf("a run started more than 1 s after the rollback used %q", traceRelease(t, s, id))
		}
	}
	if st := releaseStatusOf(t, s, "fixed"); st.State != release.RolledBack {
		t.Fatalf("fixed after the rollback: %+v", st)
	}
}

func traceRelease(t *testing.T, s *devStack, id string) string {
	t.Helper()
	tr, err := s.client().Trace(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Release
}

// checkOneIndex fails when a run's attempts searched more than one index
// version, or one that is not its release's.
func checkOneIndex(t *testing.T, s *devStack, id string) {
	t.Helper()
	tr, err := s.client().Trace(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	store, _ := release.NewFileStore(filepath.Join(s.DataDir, "releases"))
	m, err := store.Get(context.Background(), tr.Release)
	if err != nil {
		t.Fatalf("run %s: release %q: %v", id, tr.Release, err)
	}
	for _, at := range tr.Attempts {
		if len(at.Stages) == 0 || at.Stages[0].Name != "index" || at.Stages[0].Note != m.Index.Version {
			t.Fatalf("run %s on release %s (index %s): attempt %d searched %+v", id, tr.Release, m.Index.Version, at.N, at.Stages)
		}
	}
}

// canaryCase starts release name's workflow with gate and asks questions
// in turn until it ends; it must end rolled back by the canary, naming a
// threshold, and no run may use the release after.
func canaryCase(t *testing.T, s *devStack, name, gate string, questions []string) {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		args := []string{"start", name, "--canary", "50,100", "--step-runs", "4", "--poll", "300ms", "--wait"}
		if gate != "" {
			args = append(args, "--gate", gate, "--gate-corpus", "../../testdata/hollin/corpus.jsonl")
		}
		out, _ := releaseCmd(t, s, args...)
		done <- out
	}()
	deadline := time.Now().Add(4 * time.Minute)
	var out string
loop:
	for i := 0; ; i++ {
		select {
		case out = <-done:
			break loop
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("release %s not done after 4 minutes: %+v", name, releaseStatusOf(t, s, name))
		}
		id, _ := s.askID(t, questions[i%len(questions)])
		checkOneIndex(t, s, id)
	}
	t.Logf("release %s:\n%s", name, out)
	st := releaseStatusOf(t, s, name)
	if st.State != release.RolledBack || !strings.Contains(st.Reason, "canary at 50%") {
		t.Fatalf("%s: %+v; want rolled back by the canary's first step", name, st)
	}
	recordHistory(t, s, "release-"+name, "rolled_back")
	// Gateways read the active set at most release.DefaultTTL late: a
	// run started a second after the decision must not use the release.
	time.Sleep(time.Until(st.UpdatedAt.Add(time.Second)))
	for range 6 {
		id, _ := s.askID(t, q02)
		if r := traceRelease(t, s, id); r == name {
			t.Fatalf("a run started %s after the rollback of %s used it", time.Since(st.UpdatedAt), name)
		}
	}
}

// TestEndToEndReleasesRediSearch: in RediSearch mode the releases live in
// Redis, a release built from a corpus gets an index of its own, the gate
// rejects the candidate without the warranty pages, and promotion and
// rollback move new runs between index versions.
func TestEndToEndReleasesRediSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	srv := redistest.Start(t)
	name := redistest.Name("e2e-rel")
	conn := []string{"--backend", "redisearch", "--redis-addr", srv.Addr, "--name", name}
	s := startDev(t, t.TempDir(), conn...)
	releaseConn[s] = conn
	if out, err := releaseCmd(t, s, "list"); err != nil || !strings.Contains(out, "initial (stable)") {
		t.Fatalf("release list after the first assay dev:\n%s\nwant initial as the stable release", out)
	}
	if n, err := srv.Client(t).Exists(context.Background(), "assay:releases:"+name+":manifest:initial").Result(); err != nil || n != 1 {
		t.Fatalf("initial's manifest is not in Redis: %d, %v", n, err)
	}
	noWarranty := hollinVariant(t, "no-warranty", func(d *corpus.Document) bool { return !strings.Contains(d.ID, "warranty") })
	if _, err := releaseCmd(t, s, "create", "no-warranty", "--corpus", noWarranty); err != nil {
		t.Fatal(err)
	}
	if _, err := releaseCmd(t, s, "start", "no-warranty", "--gate", gateQuestions(t, gateIDs...), "--gate-corpus", "../../testdata/hollin/corpus.jsonl", "--wait"); err == nil {
		t.Fatal("the candidate without warranty pages was promoted")
	}
	if st := releaseStatusOf(t, s, "no-warranty"); st.State != release.Rejected || !strings.Contains(st.Reason, "right_source_cited") {
		t.Fatalf("no-warranty: %+v, want rejected by the gate", st)
	}
	if _, err := releaseCmd(t, s, "create", "fixed", "--corpus", hollinVariant(t, "fixed", func(*corpus.Document) bool { return true })); err != nil {
		t.Fatal(err)
	}
	if _, err := releaseCmd(t, s, "promote", "fixed"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * release.DefaultTTL)
	id, q := s.askID(t, q02)
	if q.StopReason != "answered" || traceRelease(t, s, id) != "fixed" || !strings.Contains(indexStage(t, s, id), name+"-rel-fixed") {
		t.Fatalf("after promoting fixed: stop %s, release %q, index %q", q.StopReason, traceRelease(t, s, id), indexStage(t, s, id))
	}
	if _, err := releaseCmd(t, s, "rollback"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * release.DefaultTTL)
	if id, _ := s.askID(t, q02); traceRelease(t, s, id) != "initial" || strings.Contains(indexStage(t, s, id), "-rel-") {
		t.Fatalf("after the rollback: release %q, index %q", traceRelease(t, s, id), indexStage(t, s, id))
	}
}

// TestEndToEndReleaseSurvivesRestart: a ReleaseWorkflow waiting for
// approval survives a restart of the whole stack (Temporal, worker,
// gateway) on the same data dir, and goes on to promotion after it.
func TestEndToEndReleaseSurvivesRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	dir := t.TempDir()
	s := startDev(t, dir)
	// Without --corpus a bleve release is a copy of the served index.
	if _, err := releaseCmd(t, s, "create", "snap"); err != nil {
		t.Fatal(err)
	}
	store, _ := release.NewFileStore(filepath.Join(dir, "releases"))
	snap, err := store.Get(context.Background(), "snap")
	initial, err2 := store.Get(context.Background(), "initial")
	if err != nil || err2 != nil || snap.Index.Served || snap.Index.Dir != store.IndexDir("snap") ||
		snap.Index.Version != initial.Index.Version || snap.Digest != initial.Digest || snap.Index.Manifest.CorpusChecksum != initial.Index.Manifest.CorpusChecksum {
		t.Fatalf("snap = %+v (%v), initial = %+v (%v): want a copy of initial's index in its own directory", snap.Index, err, initial.Index, err2)
	}
	if _, err := releaseCmd(t, s, "create", "snap"); err == nil {
		t.Fatal("a second release named snap was created")
	}
	fixed := hollinVariant(t, "fixed", func(*corpus.Document) bool { return true })
	if _, err := releaseCmd(t, s, "create", "fixed", "--corpus", fixed); err != nil {
		t.Fatal(err)
	}
	// The candidate's first runs after the restart are cold, and on a
	// loaded machine their p95 passed stable's x2 + 500 ms (CI, round
	// 22: 1182 ms against 213): latency is not what this test checks,
	// so its slack is wide; the canary's other rules stay the defaults.
	if _, err := releaseCmd(t, s, "start", "fixed", "--approve", "--canary", "50,100", "--step-runs", "2", "--poll", "300ms",
		"--thresholds", `{"p95_slack_ms":60000}`); err != nil {
		t.Fatal(err)
	}
	for st := releaseStatusOf(t, s, "fixed"); st.State != release.Gating || st.Workflow == ""; st = releaseStatusOf(t, s, "fixed") {
		time.Sleep(100 * time.Millisecond)
	}
	s.stop(t)

	s = startDev(t, dir)
	if _, err := releaseCmd(t, s, "approve", "fixed"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	approvedPromotion := false
	for {
		st := releaseStatusOf(t, s, "fixed")
		if st.State == release.Promoted {
			break
		}
		if st.State == release.RolledBack || time.Now().After(deadline) {
			t.Fatalf("fixed after the restart: %+v", st)
		}
		if st.State == release.Canary && st.Share == 100 && !approvedPromotion {
			// The last step passes, then the workflow waits for approval of the promotion.
			if v := releaseProgress(t, s, "fixed"); strings.Contains(v.Waiting, "approve the promotion") {
				if _, err := releaseCmd(t, s, "approve", "fixed"); err != nil {
					t.Fatal(err)
				}
				approvedPromotion = true
			}
		}
		id, _ := s.askID(t, q02)
		checkOneIndex(t, s, id)
	}
	recordHistory(t, s, "release-fixed", "promoted-after-restart")
}

// releaseProgress is the status query of release name's workflow.
func releaseProgress(t *testing.T, s *devStack, name string) workflows.ReleaseProgress {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: s.TemporalAddr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	v, err := c.QueryWorkflow(context.Background(), "release-"+name, "", workflows.QueryReleaseStatus)
	var p workflows.ReleaseProgress
	if err == nil {
		err = v.Get(&p)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// recordHistory writes workflow id's history to
// $ASSAY_RECORD_HISTORIES/release-<what>-<id>.json when that is set,
// for the replay tests in workflows/.
func recordHistory(t *testing.T, s *devStack, id, what string) {
	t.Helper()
	dir := os.Getenv("ASSAY_RECORD_HISTORIES")
	if dir == "" {
		return
	}
	c, err := client.Dial(client.Options{HostPort: s.TemporalAddr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	writeHistory(t, c, id, filepath.Join(dir, what+"-"+strings.ToLower(id)+".json"))
}

// TestEndToEndReleaseLoopDefaults: a run starts from its release's loop
// defaults, not the gateway's configuration: with a release recording
// loop.max_attempts 1 promoted, a request asking for 2 attempts is
// refused naming the release's bound, where on initial (the configured
// defaults) it was accepted; rolled back, it is accepted again.
func TestEndToEndReleaseLoopDefaults(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	dir := t.TempDir()
	s := startDev(t, filepath.Join(dir, "data"))
	cfg := filepath.Join(dir, "tight.yaml")
	if err := os.WriteFile(cfg, []byte("loop:\n  max_attempts: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ask := func(body string) (int, string) {
		code, _, b := httpCall(t, http.MethodPost, s.URL+"/v1/questions?wait=30s", "", "application/json", body)
		return code, string(b)
	}
	twoAttempts := `{"question":"` + q02 + `","max_attempts":2}`
	if code, body := ask(twoAttempts); code != http.StatusOK || !strings.Contains(body, `"release":"initial"`) {
		t.Fatalf("2 attempts on initial = %d %s; want 200 on release initial", code, body)
	}
	if _, err := releaseCmd(t, s, "create", "tight", "--config", cfg, "--note", "one attempt"); err != nil {
		t.Fatal(err)
	}
	if m := releaseManifestOf(t, s, "tight"); m.Loop.MaxAttempts != 1 {
		t.Fatalf("release tight records loop %+v; want max_attempts 1 from its --config", m.Loop)
	}
	if _, err := releaseCmd(t, s, "promote", "tight"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * release.DefaultTTL) // the gateway's cache of the active set
	if code, body := ask(twoAttempts); code != http.StatusBadRequest || !strings.Contains(body, "max_attempts") || !strings.Contains(body, "want 1..1") {
		t.Errorf("2 attempts on tight = %d %s; want 400 on max_attempts, want 1..1", code, body)
	}
	if code, body := ask(`{"question":"` + q02 + `"}`); code != http.StatusOK || !strings.Contains(body, `"release":"tight"`) || !strings.Contains(body, `"attempts":1`) {
		t.Errorf("a question on tight = %d %s; want 200 on release tight after one attempt", code, body)
	}
	if _, err := releaseCmd(t, s, "rollback"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * release.DefaultTTL)
	if code, body := ask(twoAttempts); code != http.StatusOK || !strings.Contains(body, `"release":"initial"`) {
		t.Errorf("2 attempts after the rollback = %d %s; want 200 on initial", code, body)
	}
}

// releaseManifestOf reads release name's manifest from the dev stack's
// store.
func releaseManifestOf(t *testing.T, s *devStack, name string) release.Manifest {
	t.Helper()
	store, err := release.NewFileStore(filepath.Join(s.DataDir, "releases"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := store.Get(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
