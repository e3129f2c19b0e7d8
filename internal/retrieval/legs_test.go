package retrieval_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/retrieval"
)

// failingLegs is a backend whose BM25 and vector searches fail as told;
// a leg told to wait fails only once its context is cancelled.
type failingLegs struct {
	backend.Searcher
	text, vec error
	textWaits bool          // fail with the context's error once it is cancelled
	textAfter time.Duration // fail with text only after this long, cancelled or not
}

func (f failingLegs) SearchText(ctx context.Context, text string, fl backend.Filter, k int) ([]backend.Hit, error) {
	if f.textWaits {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	time.Sleep(f.textAfter)
	return nil, f.text
}

func (f failingLegs) SearchVector(ctx context.Context, vec []float32, fl backend.Filter, k int) ([]backend.Hit, backend.VectorStats, error) {
	return nil, backend.VectorStats{}, f.vec
}

// TestLegsError: the two first-stage legs run at once, and the error a
// hybrid search returns does not depend on which failed first: of two
// failures the BM25 leg's, and the vector leg's when the BM25 leg was
// only cancelled because of it.
func TestLegsError(t *testing.T) {
	_, b := hollinOn(t, "bleve", retrieval.Options{})
	errText, errVec := errors.New("bm25 leg failed"), errors.New("vector leg failed")
	for _, tc := range []struct {
		name string
		b    failingLegs
		want error
	}{
		{"both fail", failingLegs{Searcher: b, text: errText, vec: errVec}, errText},
		{"both fail, the vector leg first", failingLegs{Searcher: b, text: errText, vec: errVec, textAfter: 20 * time.Millisecond}, errText},
		{"only the vector leg fails", failingLegs{Searcher: b, vec: errVec, textWaits: true}, errVec},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := retriever(t, tc.b, retrieval.Options{})
			for range 20 { // the legs' order varies from run to run
				_, err := r.Search(context.Background(), retrieval.Request{Query: "warranty claim for the X200 motor", Groups: []string{"public"}, K: 5, Mode: retrieval.Hybrid})
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
			}
		})
	}
}
