package live

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

type fakeThesaurus map[string][]string

func (f fakeThesaurus) Name() string                 { return "fake" }
func (f fakeThesaurus) Related(word string) []string { return f[word] }

// fakeSynonyms also tells synonyms alone.
type fakeSynonyms struct {
	fakeThesaurus
	syn map[string][]string
}

func (f fakeSynonyms) Synonyms(word string) []string { return f.syn[word] }

type fakeCounts map[string]int

func (f fakeCounts) DocFreq(t string) int { return f[t] }
func (f fakeCounts) Len() int             { return 10 }

// TestExpand: only words no visible chunk holds are expanded, into
// one-word synonyms visible chunks hold, most used first, at most two;
// known words, codes, frame words and phrases are not.
func TestExpand(t *testing.T) {
	an := terms.New()
	th := fakeThesaurus{
		"guarantee": {"warrant", "warranty", "guaranty", "vouch for"},
		"blender":   {"liquidizer"},
		"fixed":     {"repair", "mend"},
		"x200":      {"model"},
		"fast":      {"speed"},
	}
	vocab := fakeCounts{"warranti": 4, "warrant": 1, "guaranti": 2, "blender": 9, "repair": 5, "liquid": 3, "model": 2, "speed": 3}
	q, why := expand(an, th, vocab, "is my X200 blender still under guarantee once fixed?")
	if want := "is my X200 blender still under guarantee once fixed? warranty guaranty repair"; q != want {
		t.Errorf("expand = %q, want %q", q, want)
	}
	if got := strings.Join(why, ", "); got != "guarantee→warranty/guaranty, fixed→repair" {
		t.Errorf("why = %q", got)
	}
	if q, why := expand(an, th, vocab, "how fast is it"); why != nil {
		t.Errorf("a frame word was expanded: %q %v", q, why)
	}
	if q, why := expand(an, nil, vocab, "under guarantee"); q != "under guarantee" || why != nil {
		t.Errorf("without a thesaurus: %q %v, want the query unchanged", q, why)
	}
	if q, why := expand(an, th, fakeCounts{"blender": 1}, "under guarantee"); q != "under guarantee" || why != nil {
		t.Errorf("with no visible related word: %q %v, want the query unchanged", q, why)
	}
	// A thesaurus that tells synonyms alone: only those are used.
	sy := fakeSynonyms{th, map[string][]string{"guarantee": {"warranty"}}}
	if q, _ := expand(an, sy, vocab, "under guarantee"); q != "under guarantee warranty" {
		t.Errorf("with synonyms: %q, want only the synonym added", q)
	}
}

// TestWithExpansion: over a real index, a question whose word no visible
// chunk holds keeps its own first k-1 hits in order and gives the last
// place to the best new hit of the search in the documents' words; the
// trace's expand stage says so. Another principal's chunks are neither
// counted nor returned.
func TestWithExpansion(t *testing.T) {
	ctx := context.Background()
	body := `{"id":"a","title":"Blender jar","text":"The blender jar holds two litres.","acl":["public"]}
{"id":"b","title":"Blender lid","text":"The blender lid locks with a click.","acl":["public"]}
{"id":"c","title":"Blender base","text":"Wipe the blender base with a damp cloth.","acl":["public"]}
{"id":"w","title":"Warranty","text":"Every appliance has a two-year warranty.","acl":["public"]}
{"id":"s","title":"Staff","text":"Guarantee claims for the blender go to the staff desk.","acl":["staff"]}
`
	l := openCorpus(t, body)
	g := l.cur.Load()
	th := fakeThesaurus{"guarantee": {"warranty"}}
	req := retrieval.Request{Query: "blender guarantee", Groups: []string{"public"}, K: 2}
	plain, err := g.searcher.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := withExpansion(ctx, g.searcher, terms.New(), th, g.ix.Visible(req.Groups), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].ChunkID != plain.Hits[0].ChunkID || !strings.HasPrefix(res.Hits[1].ChunkID, "w") {
		t.Fatalf("hits %+v, want the question's first hit %s then the warranty page", res.Hits, plain.Hits[0].ChunkID)
	}
	if len(res.Stages) == 0 || res.Stages[0].Name != "expand" || !strings.Contains(res.Stages[0].Note, "guarantee→warranty") || !strings.Contains(res.Stages[0].Note, res.Hits[1].ChunkID) {
		t.Errorf("stages %+v, want an expand stage naming guarantee→warranty and %s", res.Stages, res.Hits[1].ChunkID)
	}
	// Staff see "guarantee" in a chunk: nothing to expand, nothing changed.
	staff := req
	staff.Groups = []string{"staff", "public"}
	res2, err := withExpansion(ctx, g.searcher, terms.New(), th, g.ix.Visible(staff.Groups), staff)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res2.Stages {
		if st.Name == "expand" {
			t.Errorf("staff, whose chunks use the word: expand stage %+v, want none", st)
		}
	}
	// Without a thesaurus: the plain search.
	res3, _ := withExpansion(ctx, g.searcher, terms.New(), nil, g.ix.Visible(req.Groups), req)
	if len(res3.Hits) != len(plain.Hits) || res3.Hits[len(res3.Hits)-1].ChunkID != plain.Hits[len(plain.Hits)-1].ChunkID {
		t.Errorf("without a thesaurus: %+v, want the plain hits %+v", res3.Hits, plain.Hits)
	}
}
