package assess

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// freqVocab is a lexVocab that records the terms DocFreq is asked.
type freqVocab struct {
	*lexVocab
	asked *[]string
}

func (v freqVocab) DocFreq(t string) int {
	*v.asked = append(*v.asked, t)
	return v.lexVocab.DocFreq(t)
}

type freqCorpus struct {
	*lexicon
	asked *[]string
}

func (c freqCorpus) Visible(groups []string) Vocabulary {
	return freqVocab{c.lexicon.Visible(groups).(*lexVocab), c.asked}
}

// TestHypAsksOnlyForChunkWords: v24's hypernym step asks the visible
// vocabulary only about the relatives the first chunk holds. "erased" has
// five hypernyms and hyponyms every one of which the documents use; the
// chunk holds one ("delete"). Before round 23 (h23-vocab) all five were
// asked (on RediSearch, a Redis round trip each when not cached); now
// only "delete" is, and the judgement is TestHyp's: accepted reading
// "erased" as "delete".
func TestHypAsksOnlyForChunkWords(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "privacy#0", Title: "Your account data", Text: "We delete your account data within 30 days of your request."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move",
		"Erased jobs in the repair log", "obliterate expunge scrub efface the old record")
	lacked := []string{"obliterate", "expunge", "scrub", "efface"}
	var xs []thesaurus.Taxon
	for _, w := range append([]string{"delete"}, lacked...) {
		xs = append(xs, thesaurus.Taxon{Word: w, Broader: true, Pos: 'v', Sense: 1, Common: true, Its: 1, ItsCommon: true})
	}
	th := fakeTaxonomy{fakeThesaurus{}, map[string][]thesaurus.Taxon{"erased": xs}}
	var asked []string
	b := NewBuiltin(an, freqCorpus{lex, &asked})
	b.Rewriter = NewRewriter(an, lex)
	b.UseThesaurus(th)
	q := "how long until my data is erased"
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Assessment; !a.Sufficient || !strings.Contains(a.Reason, `reading "erased" as "delete", a broader word`) {
		t.Errorf("%+v, want accepted reading \"erased\" as \"delete\"", a)
	}
	for _, w := range lacked {
		if slices.Contains(asked, an.Terms(w)[0]) {
			t.Errorf("the vocabulary was asked about %q; the chunk lacks it", w)
		}
	}
	if !slices.Contains(asked, an.Terms("delete")[0]) {
		t.Errorf("the vocabulary was never asked about \"delete\", which the chunk holds")
	}
}

// taxaEvery is taxa as builtin:coverage-v24 shipped it (round 22 to
// h23-vocab): it asks the vocabulary about every candidate relative,
// whether the first chunk holds it or not (the question words it reads
// are taxa's, hypWord). Kept as the reference
// TestHypTaxaAsEveryRelative compares against.
func (b *Builtin) taxaEvery(question string, ents []Entity, vocab Vocabulary) map[string][]synonym {
	tx, ok := b.Thesaurus.(Taxonomer)
	if !ok {
		return nil
	}
	inEntity, inQuestion := entityTerms(ents), b.an.Set(question)
	lower := strings.ContainsFunc(question, unicode.IsLower)
	out := map[string][]synonym{}
	for _, raw := range strings.Fields(question) {
		w := hypWord(raw, lower)
		if w == "" {
			continue
		}
		ts := b.an.Terms(w)
		if len(ts) != 1 || inEntity[ts[0]] || terms.IsQuestionWord(ts[0]) || out[ts[0]] != nil {
			continue
		}
		for _, x := range tx.Taxa(w) {
			if !x.Common || !x.ItsCommon || answertype.IsUnit(x.Word) {
				continue
			}
			rt := b.an.Terms(x.Word)
			if strings.Contains(x.Word, " ") || len(rt) != 1 || inQuestion[rt[0]] || vocab.DocFreq(rt[0]) == 0 {
				continue
			}
			if !containsTerm(out[ts[0]], rt[0]) {
				how := "a narrower word"
				if x.Broader {
					how = "a broader word"
				}
				out[ts[0]] = append(out[ts[0]], synonym{Word: x.Word, Term: rt[0], How: how})
			}
		}
	}
	return out
}

// TestHypTaxaAsEveryRelative: on 3,000 random questions, chunks,
// vocabularies and taxonomies (spellings of one stem, repeated words,
// relatives the chunk holds or lacks, the documents use or not, rare
// senses, several words), taxa gives each question term exactly the
// relatives taxaEvery gives it that the chunk holds, in the same order,
// with fewer lookups, and with no chunk (nil) exactly taxaEvery's. The
// credit reads only the chunk's terms (relatedCovers, hypCredited, both
// on judged.have), so the judgement is the same; and it is, on the
// same inputs through Assess, against taxaEvery's relatives filtered.
func TestHypTaxaAsEveryRelative(t *testing.T) {
	an := terms.New()
	rng := rand.New(rand.NewSource(23))
	qwords := []string{"erased", "erasing", "erase", "deleted", "deleting", "account", "accounts", "data", "removed", "removing", "ship", "shipped", "shipping", "fee", "fees", "ok"}
	rels := []string{"delete", "remove", "wipe", "scrub", "record", "profile", "parcel", "send", "charge", "cost", "transport", "post", "data", "clear out", "minutes", "move"}
	lookups, everyLookups, credited := 0, 0, 0
	for n := range 3000 {
		var q []string
		for range 2 + rng.Intn(6) {
			q = append(q, qwords[rng.Intn(len(qwords))])
		}
		question := "how " + strings.Join(q, " ")
		tax := map[string][]thesaurus.Taxon{}
		for _, w := range qwords {
			for range rng.Intn(5) {
				tax[w] = append(tax[w], thesaurus.Taxon{Word: rels[rng.Intn(len(rels))], Broader: rng.Intn(2) == 0, Pos: 'v', Sense: 1,
					Common: rng.Intn(6) > 0, Its: 1, ItsCommon: rng.Intn(6) > 0})
			}
		}
		var docs, chunk []string
		for _, r := range rels {
			if rng.Intn(3) > 0 {
				docs = append(docs, r)
			}
			if rng.Intn(3) == 0 {
				chunk = append(chunk, r)
			}
		}
		text := "We " + strings.Join(chunk, " ") + " " + strings.Join(q[:rng.Intn(len(q))], " ") + " within 30 days."
		lex := newLexicon(an, text, strings.Join(docs, " "), "K50 kettle descaling", "X300 Pro blender jug")
		th := fakeTaxonomy{fakeThesaurus{}, tax}
		b := NewBuiltin(an, lex)
		b.UseThesaurus(th)
		have := an.Set(text)
		var asked, everyAsked []string
		vocab := lex.Visible([]string{"public"}).(*lexVocab)
		got := b.taxa(question, nil, freqVocab{vocab, &asked}, have)
		every := b.taxaEvery(question, nil, freqVocab{vocab, &everyAsked})
		want := map[string][]synonym{}
		for term, ss := range every {
			for _, s := range ss {
				if have[s.Term] {
					want[term] = append(want[term], s)
				}
			}
		}
		if !sameTaxa(got, want) {
			t.Fatalf("case %d %q, chunk %q: taxa %v, want taxaEvery's the chunk holds %v (taxaEvery %v)", n, question, text, got, want, every)
		}
		if all := b.taxa(question, nil, vocab, nil); !sameTaxa(all, every) {
			t.Fatalf("case %d %q: taxa with no chunk %v, want taxaEvery's %v", n, question, all, every)
		}
		lookups += len(asked)
		everyLookups += len(everyAsked)
		// through Assess: the judgement equals the one taxaEvery's
		// relatives give, read on the same chunk
		res, err := b.Assess(context.Background(), Request{Question: question, Query: question, K: 5, Evidence: []Evidence{{ChunkID: "c#0", Title: "Your account", Text: text}}, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Assessment.Reason, "a broader word") || strings.Contains(res.Assessment.Reason, "a narrower word") {
			credited++
			ok := false
			for term, ss := range want {
				for _, s := range ss {
					ok = ok || strings.Contains(res.Assessment.Reason, fmt.Sprintf("as %q, %s", s.Word, s.How)) && term != ""
				}
			}
			if !ok {
				t.Fatalf("case %d %q: %q credits a relative taxaEvery does not give the chunk (%v)", n, question, res.Assessment.Reason, want)
			}
		}
	}
	if lookups >= everyLookups || credited == 0 {
		t.Errorf("lookups %d (taxaEvery %d), %d judgements credited: want fewer lookups and some credit", lookups, everyLookups, credited)
	}
	t.Logf("lookups %d, taxaEvery %d; %d of 3000 judgements credited through a hypernym", lookups, everyLookups, credited)
}

func sameTaxa(a, b map[string][]synonym) bool {
	if len(a) != len(b) {
		return false
	}
	for t, s := range a {
		if !slices.Equal(s, b[t]) {
			return false
		}
	}
	return true
}
