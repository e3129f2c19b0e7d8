package rollout

import (
	"context"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/internal/wire"
)

// TestGateTemplate: the gate asks its questions on a release with the
// loop defaults the release records, as the gateway's runs on it start;
// a release recording none uses the worker's.
func TestGateTemplate(t *testing.T) {
	ctx := context.Background()
	st, err := release.NewFileStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	loop := release.Loop{MaxAttempts: 2, Threshold: 0.8, MaxTokens: 900, Deadline: 20 * time.Second, TopK: 3}
	for _, m := range []release.Manifest{{Name: "tight", Loop: loop}, {Name: "bare"}} {
		if err := st.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	worker := wire.AnswerInput{Budget: wire.Budget{MaxAttempts: 4, Deadline: time.Minute}, Threshold: 0.5, TopK: 8}
	a := &Activities{Store: st, Template: worker}
	got, err := a.template(ctx, "tight")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := loop.Template()
	want.Release = "tight"
	if got.Budget != want.Budget || got.Threshold != want.Threshold || got.TopK != want.TopK || got.Release != want.Release {
		t.Errorf("gate template on tight = %+v; want the release's loop defaults %+v", got, want)
	}
	if got, err = a.template(ctx, "bare"); err != nil || got.Budget != worker.Budget || got.TopK != worker.TopK || got.Release != "bare" {
		t.Errorf("gate template on a release without loop defaults = %+v, %v; want the worker's on bare", got, err)
	}
	if _, err := a.template(ctx, "missing"); err == nil {
		t.Error("gate template of a release that does not exist: want an error")
	}
}
