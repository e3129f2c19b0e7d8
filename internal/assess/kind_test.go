package assess

import (
	"context"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// TestKind (v36): with Kind, the words the asked action acts on are read
// without those naming which thing is meant. rv32b's item 8: a pronoun
// after the verb stands for the product's code only when that code is no
// product's ("my K50 …, how do I turn it off": the pairing page's "K50"
// stated it, and v34 accepted the pairing page); the error code the scene
// shows stays ("E4. How do I clear it?"). Item 9: a product's class noun
// ("kettle", a word of "K50 Smart Kettle") is stated by every page about
// the product, so the kettle page's "descale it" answered "… how do I
// speed up the kettle?" and "… get the kettle talking to the app?" (the
// wide reading); the app is still what the pairing page states. Fails
// with Kind's call in assess removed (the first, third and fourth are
// accepted), with every code a pronoun stands for dropped (the second is
// refused: "clear" is no word of the documents), or with no code dropped
// (the first is accepted).
func TestKind(t *testing.T) {
	th := fakeThesaurus{}
	v34 := func(b *Builtin) {
		b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = true, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
	}
	v36 := func(b *Builtin) {
		b.Act, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = true, true, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
	}
	for _, c := range []struct {
		q, page string
		off, on bool
		rule    string
	}{
		{"the ring light on my K50 is too bright at night, how do i turn it off", "pair#0", true, false, "a pronoun standing for a product's code states nothing"},
		{"The X300 Pro is showing E4. How do I clear it?", "err#0", true, true, "a pronoun standing for an error code: the code"},
		{"My K50 kettle boils in about four minutes with citric acid; how do I speed up the kettle?", "man-k50-kettle#0", true, false, "a product's class noun states nothing"},
		{"My K50 kettle boils in about four minutes with citric acid; how do I get the kettle talking to the app?", "man-k50-kettle#0", true, false, "a product's class noun states nothing"},
		{"how do I get my K50 kettle talking to the app?", "pair#0", true, true, "what is done with the kettle: the app"},
	} {
		if off := actJudgeWith(t, v34, th, c.q, c.page); off.Assessment.Sufficient != c.off || off.Usage.Model != V34Model+"+fake-1" {
			t.Errorf("%s: %q on %s, v34: %+v (%s), want sufficient %v (builtin:coverage-v34+fake-1)", c.rule, c.q, c.page, off.Assessment, off.Usage.Model, c.off)
		}
		if on := actJudgeWith(t, v36, th, c.q, c.page); on.Assessment.Sufficient != c.on || on.Usage.Model != V36Model+"+fake-1" {
			t.Errorf("%s: %q on %s, v36: %+v (%s), want sufficient %v (builtin:coverage-v36+fake-1)", c.rule, c.q, c.page, on.Assessment, on.Usage.Model, c.on)
		}
	}
}

// TestUnkind: the objects Kind leaves, on actJudgeWith's pool (its
// visible product names: "K50 Smart Kettle", "X300 Pro Blender"). A
// word of a product's name, and the words before it in its phrase, name
// which thing ("my faulty blender"); a product's code a pronoun stands
// for is dropped, an error code kept; a clause left with a verb no
// document uses and nothing but which thing decides nothing ("how do I
// zap it", of the K50). The names are read from the evidence and from the
// visible chunks: through the name pairs when the vocabulary knows them
// (no search), else through Naming; a vocabulary that can do neither
// reads the evidence only.
func TestUnkind(t *testing.T) {
	an := terms.New()
	pool := append(append(slices.Clone(actCorpus), hollinLike...), moreK50...)
	var texts []string
	for _, e := range pool {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	searches := 0
	paired := pairedLexicon{lexicon: lex, searches: &searches}
	b := NewBuiltin(an, lex)
	related := map[string][]synonym{"faulti": {{Term: "fault"}}}
	read := func(vocab Vocabulary, q string, ev []Evidence) *action {
		t.Helper()
		a := b.askedAction(q, answertype.Classify(q), Entities(an, q, vocab), vocab, related)
		if err := b.unkind(context.Background(), a, vocab, wire.Filters{}, ev); err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, c := range []struct {
		q       string
		objects []string
		unknown bool
		rule    string
	}{
		{"how do I send my faulty blender off to the workshop?", []string{"workshop"}, false, "a class noun and the words before it in its phrase"},
		{"how do I wipe the kettle lid?", []string{"lid"}, false, "a class noun before the thing done to"},
		{"the ring light on my K50 is too bright, how do i wipe it", nil, false, "a product's code"},
		{"The X300 Pro is showing E4. How do I wipe it?", []string{"e4"}, false, "an error code"},
		{"my K50 is too bright, how do i zap it", nil, true, "an unknown verb and only which thing"},
	} {
		for _, v := range []struct {
			name  string
			vocab Vocabulary
		}{{"Naming", lex.Visible([]string{"public"})}, {"pairs", paired.Visible([]string{"public"})}} {
			searches = 0
			if a := read(v.vocab, c.q, nil); !slices.Equal(a.objects, c.objects) || a.unknown != c.unknown {
				t.Errorf("%s (%s): %q: objects %v unknown %v, want %v %v", c.rule, v.name, c.q, a.objects, a.unknown, c.objects, c.unknown)
			}
			if searches > 0 {
				t.Errorf("%s: %q: %d Naming searches with the pairs known", c.rule, c.q, searches)
			}
		}
	}
	// Under the run's filters the pairs (the whole visible corpus's) are
	// not read: the filtered search decides. A filter that leaves out every
	// chunk naming the X300 Pro Blender keeps "blender" an object, read
	// through the search, pairs known or not (rv33's asymmetry: reading the
	// pairs here drops it).
	q := "how do I send my faulty blender off to the workshop?"
	filter := wire.Filters{Types: []string{"policy"}}
	for _, v := range []struct {
		name  string
		vocab Vocabulary
	}{{"Naming", filteredNaming{lex.Visible([]string{"public"}).(*lexVocab)}}, {"pairs", filteredNaming{paired.Visible([]string{"public"}).(pairedVocab)}}} {
		searches = 0
		a := b.askedAction(q, answertype.Classify(q), Entities(an, q, v.vocab), v.vocab, related)
		if err := b.unkind(context.Background(), a, v.vocab, filter, nil); err != nil {
			t.Fatal(err)
		}
		if want := []string{"faulti", "blender", "workshop"}; !slices.Equal(a.objects, want) {
			t.Errorf("%q under a filter naming no product (%s): objects %v, want %v", q, v.name, a.objects, want)
		}
	}
	// no Naming, no pairs: the evidence's names only
	bare := struct{ Vocabulary }{lex.Visible([]string{"public"})}
	if a := read(bare, q, hollinLike[1:2]); !slices.Equal(a.objects, []string{"workshop"}) {
		t.Errorf("%q, the evidence naming the X300 Pro Blender: objects %v, want [workshop]", q, a.objects)
	}
	if a := read(bare, q, hollinLike[3:4]); !slices.Equal(a.objects, []string{"faulti", "blender", "workshop"}) {
		t.Errorf("%q, evidence naming no product: objects %v, want [faulti blender workshop]", q, a.objects)
	}
}

// TestUnkindPhrase (rv33): the phrase before a name word ends at a
// determiner ("the workshop my … blender": the workshop stays), a
// preposition ("lids on … blenders") or a particle ("lids away …
// blenders"); the names are read from the evidence's texts, not only its
// titles, and a code the evidence writes a name after is a product's
// (the pronoun standing for the X300 Pro states nothing); a failed Naming
// search fails the reading; and a clause left with no verb and no object decides nothing
// only when its verb is one no document uses ("how do I get the kettle?":
// a light verb, not unknown; a33-kind's variant C, measured and not
// kept). Each case fails with that test of unkind removed.
func TestUnkindPhrase(t *testing.T) {
	b, lex := assessorOver(append(append(slices.Clone(actCorpus), hollinLike...), moreK50...))
	an := b.an
	bare := struct{ Vocabulary }{lex.Visible([]string{"public"})} // no Naming, no pairs: the evidence's names only
	ev := []Evidence{{ChunkID: "about#0", Title: "About us", Text: "The X300 Pro Blender and the K50 Smart Kettle are ours."}}
	for _, c := range []struct {
		q       string
		objects []string
		unknown bool
	}{
		{"how do I show the workshop my faulty blender?", []string{"workshop"}, false},
		{"how do I wipe lids on faulty blenders?", []string{"lid"}, false},
		{"how do I wipe lids away faulty blenders?", []string{"lid"}, false},
		{"how do I get the kettle?", nil, false},
		{"the X300 Pro is too loud, how do I wipe it", nil, false}, // the evidence writes a name after the code
	} {
		a := b.askedAction(c.q, answertype.Classify(c.q), Entities(an, c.q, bare), bare, nil)
		if err := b.unkind(context.Background(), a, bare, wire.Filters{}, ev); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.objects, c.objects) || a.unknown != c.unknown {
			t.Errorf("%q: objects %v unknown %v, want %v %v", c.q, a.objects, a.unknown, c.objects, c.unknown)
		}
	}
	// a failed search fails the reading, as the class readings' do
	q := "how do I wipe lids on faulty blenders?"
	failing := failingNaming{lex.Visible([]string{"public"})}
	if err := b.unkind(context.Background(), b.askedAction(q, answertype.Classify(q), Entities(an, q, failing), failing, nil), failing, wire.Filters{}, nil); err == nil {
		t.Errorf("%q, Naming failing: no error", q)
	}
}

// filteredNaming is a vocabulary whose Naming search finds nothing under
// any filter: the filters leave out every chunk that names a product.
type filteredNaming struct{ NamingVocabulary }

func (v filteredNaming) Naming(ctx context.Context, term string, f wire.Filters) ([]string, error) {
	if !f.IsZero() {
		return nil, nil
	}
	return v.NamingVocabulary.Naming(ctx, term, f)
}

// NamePairs passes the wrapped vocabulary's pairs on, when it knows them.
func (v filteredNaming) NamePairs() (names.Pairs, bool) {
	if pv, ok := v.NamingVocabulary.(PairedNamingVocabulary); ok {
		return pv.NamePairs()
	}
	return names.Pairs{}, false
}
