package assess

import (
	"context"
	"testing"
)

// TestAloneKeyScene: aloneKey's word is the coverage rules' key as the
// judgement of all the evidence read it, the scene's words weighed down
// (Scene): for "my kid knocked the toaster off the shelf and the door
// cracked. is accidental damage covered?" it is "accidental" (which the
// warranty page holds), not the scene's "shelf" (which only the door care
// page holds), though both are as rare in sceneCorpus.
func TestAloneKeyScene(t *testing.T) {
	b, _ := assessorOver(sceneCorpus)
	q := "my kid knocked the toaster off the shelf and the door cracked. is accidental damage covered?"
	vocab := b.corpus.Visible([]string{"public"})
	res, err := b.assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: sceneCorpus, Groups: []string{"public"}}, vocab, q, false)
	if err != nil {
		t.Fatal(err)
	}
	key := b.holdsKey(res.first)
	for _, c := range []struct {
		e    Evidence
		want bool
	}{{sceneCorpus[1], true}, {sceneCorpus[0], false}} {
		if got := key(c.e); got != c.want {
			t.Errorf("holdsKey(%s) = %v, want %v", c.e.ChunkID, got, c.want)
		}
	}
}
