package retrieval_test

import (
	"context"
	"errors"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/retrieval"
)

// failingStats is a backend whose visible statistics stop answering
// after `after` counts, as RediSearch's do when Redis fails mid-question
// (its searches, here, still answer): every later count is 0 and the
// vocabulary's Err is the failure.
type failingStats struct {
	backend.Searcher
	after int
	calls *int
	err   error
}

func (f failingStats) Visible(groups []string) backend.Vocabulary {
	return failingVocab{f.Searcher.Visible(groups), f}
}

type failingVocab struct {
	backend.Vocabulary
	f failingStats
}

func (v failingVocab) DocFreq(t string) int {
	if *v.f.calls++; *v.f.calls > v.f.after {
		return 0
	}
	return v.Vocabulary.DocFreq(t)
}

func (v failingVocab) Err() error {
	if *v.f.calls > v.f.after {
		return v.f.err
	}
	return nil
}

// TestStatisticsErrorFailsTheSearch: the reranker's and the coverage's
// counts come from the visible vocabulary; when its server fails at any
// of them, the search is the failure, not hits scored (or a weak-evidence
// warning judged) on counts of 0. With statistics that never fail the
// results are the plain backend's.
func TestStatisticsErrorFailsTheSearch(t *testing.T) {
	_, ix := hollinWith(t, retrieval.Options{})
	down := errors.New("redis: connection refused")
	req := retrieval.Request{Query: "descale the kettle with vinegar", Groups: []string{"public"}, K: 5, Mode: retrieval.HybridRerank}
	want, err := retriever(t, ix, retrieval.Options{}).Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	got, err := retriever(t, failingStats{ix, 1 << 30, &calls, down}, retrieval.Options{}).Search(context.Background(), req)
	if err != nil || len(got.Hits) != len(want.Hits) {
		t.Fatalf("statistics that never fail: %d hits, %v; want %d", len(got.Hits), err, len(want.Hits))
	}
	for i := range want.Hits {
		if got.Hits[i].ChunkID != want.Hits[i].ChunkID || got.Hits[i].Score != want.Hits[i].Score {
			t.Fatalf("statistics that never fail: hit %d is %s %g, want %s %g", i, got.Hits[i].ChunkID, got.Hits[i].Score, want.Hits[i].ChunkID, want.Hits[i].Score)
		}
	}
	total := calls
	if total < 2 {
		t.Fatalf("the search reads %d counts: too few to fail in the middle", total)
	}
	for _, after := range []int{0, total / 2, total - 1} {
		calls = 0
		res, err := retriever(t, failingStats{ix, after, &calls, down}, retrieval.Options{}).Search(context.Background(), req)
		if !errors.Is(err, down) {
			t.Errorf("statistics failing after %d of %d counts: %d hits, %v; want the error %v", after, total, len(res.Hits), err, down)
		}
	}
}
