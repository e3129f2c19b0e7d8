package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/internal/synth"
	"github.com/assay-rag/assay/router"
)

// wrapper writes an executable script that runs bin with the builtin
// generator of round 16 (builtin:extractive-v16), so its model ids differ
// from bin's. Without release, it answers `release` as a binary older
// than releases does.
func wrapper(t *testing.T, bin, name string, release bool) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	script := "#!/bin/sh\n"
	if !release {
		script += "if [ \"$1\" = release ]; then echo 'assay: unknown command \"release\"' >&2; exit 2; fi\n"
	}
	script += "export ASSAY_LOOP_GENERATOR=builtin:extractive-v16\nexec " + bin + " \"$@\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestE2EOnlyRediSearchOtherModels: two binaries whose builtin models
// differ, on one RediSearch index. Each gets a release of its own, made
// and promoted before its runs, so both answer (no run fails, no question
// stops with a failure) and the store holds both releases with their
// generators. A binary that has no release of its own and other models
// than the stable release is refused by it: every question of its run
// fails, the run is a failure naming the binary, the stop reason and the
// service's reason, its numbers count in no mean, and bench-scale is an
// error. Needs ASSAY_TEST_REDISEARCH.
func TestE2EOnlyRediSearchOtherModels(t *testing.T) {
	if os.Getenv(redistest.DirEnv) == "" {
		t.Skipf("SKIPPED: set %s to a directory with redis-server and redisearch.so (e.g. ../shared/redisearch)", redistest.DirEnv)
	}
	temporal, bin, _ := twoBinaries(t)
	ds, err := eval.LoadBEIR(sourceBEIR(t, 40), eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	data := smallCorpus(t, ds, synth.DefaultSeed)
	srv := redistest.Start(t)
	name := redistest.Name("models")
	where := redisWhere(srv.Addr, name)
	if out, err := exec.Command(bin, append(append([]string{"index"}, where...), "--corpus", filepath.Join(data, synth.CorpusFile), "--quiet")...).CombinedOutput(); err != nil {
		t.Fatalf("assay index: %v\n%s", err, out)
	}
	ctx := context.Background()
	small := []string{"-e2e-only", "-redis-addr", srv.Addr, "-index", name, "-data", data,
		"-e2e-settle", "0", "-e2e-n", "4", "-e2e-warmup", "1", "-e2e-concurrency", "1,2", "-temporal-bin", temporal}

	v16 := wrapper(t, bin, "assay-v16", true)
	out := t.TempDir()
	var stdout strings.Builder
	if err := run(ctx, append(small, "-assay", bin+","+v16, "-out", out), &stdout); err != nil {
		t.Fatalf("two binaries with other models, each with its release: %v\n%s", err, stdout.String())
	}
	var rep E2EReport
	readJSON(t, filepath.Join(out, "e2e.json"), &rep)
	if len(rep.Trials) != 2 {
		t.Fatalf("%d trials, want 2", len(rep.Trials))
	}
	for _, tr := range rep.Trials {
		if len(tr.Run.Errors) > 0 || len(tr.Run.E2E) != 2 {
			t.Errorf("run of %s: errors %q, %d levels; want two levels measured", rep.Binaries[tr.Binary].Label, tr.Run.Errors, len(tr.Run.E2E))
		}
		for _, e := range tr.Run.E2E {
			if e.Failed != 0 || e.Errors != 0 || e.StopReasons["search_error"] != 0 || e.Completed != 4 {
				t.Errorf("run of %s at %d in flight: %+v; want 4 questions, none failed", rep.Binaries[tr.Binary].Label, e.Concurrency, e)
			}
		}
	}
	if rep.Binaries[0].Release == "" || rep.Binaries[1].Release == "" || rep.Binaries[0].Release == rep.Binaries[1].Release {
		t.Errorf("releases %q and %q, want one of its own for each binary", rep.Binaries[0].Release, rep.Binaries[1].Release)
	}
	list, err := exec.Command(bin, append(append([]string{"release", "list", "--json"}, where...), "--data-dir", t.TempDir())...).Output()
	if err != nil {
		t.Fatal(err)
	}
	var views []struct {
		Stable   bool `json:"stable"`
		Manifest struct {
			Name      string `json:"name"`
			Generator struct {
				Model string `json:"model"`
			} `json:"generator"`
		} `json:"manifest"`
	}
	if err := json.Unmarshal(list, &views); err != nil {
		t.Fatalf("release list: %v\n%s", err, list)
	}
	gens := map[string]string{}
	stable := ""
	for _, v := range views {
		gens[v.Manifest.Name] = v.Manifest.Generator.Model
		if v.Stable {
			stable = v.Manifest.Name
		}
	}
	if stable != "" {
		t.Errorf("stable release after the runs %q, want none, as before them", stable)
	}
	store := (servedIndex{redisAddr: srv.Addr, name: name}).releaseStore()
	defer store.Close()
	if a, err := store.Active(ctx); err != nil || !reflect.DeepEqual(a, release.Active{}) {
		t.Errorf("active releases after the runs %+v (%v), want none promoted, as before them", a, err)
	}
	if g0, g1 := gens[rep.Binaries[0].Release], gens[rep.Binaries[1].Release]; g0 == "" || g1 != "builtin:extractive-v16" || g0 == g1 {
		t.Errorf("the releases' generators: %q, %q; want the binary's own each (%s)", g0, g1, list)
	}
	tableHas(t, stdout.String(), "its runs serve its own release "+rep.Binaries[1].Release)

	// A binary without a release of its own: the stable release (the
	// first binary's, promoted before its run) refuses its runs.
	// The active set before the sitting (a stable release, a canary,
	// a previous stable) is put back exactly after it.
	want := release.Active{Stable: rep.Binaries[0].Release, Candidate: rep.Binaries[1].Release, Share: 10, Previous: []string{rep.Binaries[1].Release}}
	if err := store.SetActive(ctx, want); err != nil {
		t.Fatal(err)
	}
	old := wrapper(t, bin, "assay-old", false)
	out2 := t.TempDir()
	stdout.Reset()
	err = run(ctx, append(small, "-assay", bin+","+old, "-out", out2), &stdout)
	if err == nil {
		t.Fatalf("a run whose every question failed: no error\n%s", stdout.String())
	}
	for _, want := range []string{"1 of 2 runs failed", "B assay-old, round 1: assay-old: every question at 1 in flight failed (0 errors; 4 runs stopped search_error 4): question ",
		"stopped search_error: search failed: unavailable; not measured (assay dev's log, in OUT/logs, says why); assay dev logged: Search: release.Serve: release bench-",
		"generates with {" + router.BuiltinGenerateModel + " }, this worker with {" + router.BuiltinAssessModel + " } and {builtin:extractive-v16 }: deploy a worker for it"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	var rep2 E2EReport
	readJSON(t, filepath.Join(out2, "e2e.json"), &rep2)
	if len(rep2.Trials) != 2 || len(rep2.Trials[0].Run.Errors) != 0 || len(rep2.Trials[1].Run.Errors) != 1 || rep2.Binaries[1].Release != "" {
		t.Fatalf("trials %+v, binaries %+v; want the first measured, the second failed and without a release", rep2.Trials, rep2.Binaries)
	}
	if e := rep2.Trials[1].Run.E2E; len(e) == 0 || e[0].Failed != e[0].Completed || e[0].Failed == 0 {
		t.Errorf("the failed run's first level %+v: want every completed question counted as failed", e)
	}
	md, err := os.ReadFile(filepath.Join(out2, "e2e.md"))
	if err != nil {
		t.Fatal(err)
	}
	tableHas(t, string(md), "B assay-old, round 1; stops at 1 in flight: search_error 4; **at 1 in flight 4 failed, 0 errors** (first: question ", "**failed**: assay-old: every question")
	if got, err := store.Active(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("active releases after the second sitting %+v (%v), want %+v, as before it", got, err, want)
	}
	tableHas(t, stdout.String(), "the active releases of "+name+" are as before the runs: stable "+want.Stable+", candidate "+want.Candidate+" at 10%, previous "+want.Candidate)
	log, err := os.ReadFile(filepath.Join(out2, "logs", "e2e.log"))
	if err != nil || !strings.Contains(string(log), "deploy a worker for it") {
		t.Errorf("assay dev's log does not say why (%v)", err)
	}
	for _, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "| questions/s, 1 in flight |") && !strings.HasSuffix(line, "| — | — |") {
			t.Errorf("%s\nwant the failed run in no mean and no ratio", line)
		}
	}
}
