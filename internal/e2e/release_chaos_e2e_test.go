package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/cli"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/release"
)

// TestChaosRelease (ASSAY_CHAOS=1): a release in its canary survives a
// worker SIGKILL and a Temporal server SIGKILL. The stack is the crash
// tests' (two `assay worker`s and an `assay gateway` as processes,
// sharing a data dir for the release store); worker 0 is killed while
// the candidate takes 50% of the runs, the Temporal server (restarted on
// its database after 5 s) while it takes 100%. The release is promoted,
// and no run is lost or mixes releases.
func TestChaosRelease(t *testing.T) {
	chaosEnabled(t)
	// The release store is in the shared data dir; the gateway reads
	// passages from an index of its own (the workers' are per worker).
	data := filepath.Join(t.TempDir(), "data")
	corpusPath, _ := filepath.Abs("../../testdata/hollin/corpus.jsonl")
	gwIndex := filepath.Join(data, "index")
	if err := cli.Run(context.Background(), []string{"assay", "index", "--corpus", corpusPath, "--index", gwIndex}, func(string) string { return "" }, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	s := newChaosStack(t, fmt.Sprintf("data_dir: %s\n", data))
	rel := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		full := append(append([]string{"assay", "release"}, args...), "--config", s.cfg, "--temporal-address", s.addr())
		err := cli.Run(context.Background(), full, func(string) string { return "" }, &out, &errOut)
		if err != nil {
			t.Logf("assay release %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
		}
		return out.String(), err
	}
	status := func(name string) release.Status {
		out, err := rel("status", name, "--json")
		var st release.Status
		if err == nil {
			err = json.Unmarshal([]byte(out), &st)
		}
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	for _, args := range [][]string{
		{"create", "initial", "--corpus", corpusPath}, {"promote", "initial"},
		{"create", "fixed", "--corpus", hollinVariant(t, "fixed", func(*corpus.Document) bool { return true })},
		{"start", "fixed", "--canary", "50,100", "--step-runs", "12", "--poll", "500ms"},
	} {
		if _, err := rel(args...); err != nil {
			t.Fatal(err)
		}
	}
	c := &apiclient.Client{BaseURL: "http://" + s.base, APIKey: chaosKey}
	var mu sync.Mutex
	runs := map[string]api.QuestionResponse{}
	killed, restarted := false, false
	deadline := time.Now().Add(5 * time.Minute)
	for st := status("fixed"); st.State != release.Promoted; st = status("fixed") {
		if st.State == release.RolledBack || time.Now().After(deadline) {
			t.Fatalf("fixed: %+v", st)
		}
		if st.State == release.Canary && !killed {
			killed = true
			t.Logf("SIGKILL worker 0 with fixed at %d%%", st.Share)
			s.workers[0].kill()
			time.Sleep(time.Second)
			s.startWorker(0)
		}
		if st.State == release.Canary && st.Share == 100 && !restarted {
			restarted = true
			t.Log("SIGKILL the Temporal server with fixed at 100%; restarting it after 5s")
			s.srv.Kill()
			time.Sleep(5 * time.Second)
			s.startTemporal()
			s.waitReady()
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				id, err := c.Submit(ctx, api.QuestionRequest{Question: q02})
				if err != nil {
					t.Errorf("submit: %v", err)
					return
				}
				q, err := c.Wait(ctx, id, 100*time.Millisecond, nil)
				if err != nil {
					t.Errorf("run %s lost: %v", id, err)
					return
				}
				mu.Lock()
				runs[id] = q
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	if !killed || !restarted {
		t.Fatalf("the release was promoted before the crashes: worker killed %v, Temporal restarted %v", killed, restarted)
	}
	store, _ := release.NewFileStore(filepath.Join(data, "releases"))
	byRelease := map[string]int{}
	for id, q := range runs {
		if q.StopReason != "answered" {
			t.Errorf("run %s: %s", id, q.StopReason)
		}
		tr, err := c.Trace(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		m, err := store.Get(context.Background(), tr.Release)
		if err != nil {
			t.Fatalf("run %s: release %q: %v", id, tr.Release, err)
		}
		for _, at := range tr.Attempts {
			if at.Stages[0].Note != m.Index.Version {
				t.Errorf("run %s on %s searched %s", id, tr.Release, at.Stages[0].Note)
			}
		}
		byRelease[tr.Release]++
	}
	t.Logf("%d runs, none lost, by release %v", len(runs), byRelease)
	if t.Failed() {
		t.Logf("stack logs:\n%s", s.logs.String())
	}
}
