package generate

import (
	"bufio"
	"context"
	"encoding/json"
	"github.com/assay-rag/assay/internal/assess"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// hollinMinHits is the floor for TestExtractiveHollin: the number of
// Hollin questions whose extractive answer contained every key fact when
// it was last measured. Raise it when the generator (or retrieval) gets
// better; a drop fails the test.
const hollinMinHits = 21

var hollinDir = filepath.Join("..", "..", "testdata", "hollin")

type hollinQuestion struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Relevant []string `json:"relevant"`
	Answer   string   `json:"answer"`
	Type     string   `json:"type"`
}

// readJSONL decodes every line of a JSONL file into a T.
func readJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, v)
	}
	return out
}

// hollinFixture is the Hollin corpus indexed in a temp dir, with the
// current retriever over it.
type hollinFixture struct {
	docs      map[string]corpus.Document
	ix        *bleveindex.Index
	retriever *retrieval.Retriever
}

// hollinChunks reads the Hollin corpus and splits it as the index does
// (chunk.Default).
func hollinChunks(t testing.TB) ([]corpus.Document, []corpus.Chunk) {
	t.Helper()
	docs, err := corpus.LoadJSONL(filepath.Join(hollinDir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := chunk.New(chunk.Default())
	if err != nil {
		t.Fatal(err)
	}
	return docs, ch.SplitAll(docs)
}

func newHollinFixture(t testing.TB) *hollinFixture {
	t.Helper()
	docs, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "index")
	if _, _, err := bleveindex.Build(context.Background(), dir, chunks, backend.BuildOptions{
		Checksum: corpus.Checksum(docs), Chunking: chunk.Default().String(),
	}); err != nil {
		t.Fatal(err)
	}
	ix, err := bleveindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	f := &hollinFixture{docs: map[string]corpus.Document{}, ix: ix, retriever: retrieval.New(ix)}
	for _, d := range docs {
		f.docs[d.ID] = d
	}
	return f
}

// groups are the ACL groups that can see q's relevant documents, plus
// public: a principal entitled to the answer.
func (f *hollinFixture) groups(q hollinQuestion) []string {
	gs := []string{corpus.PublicGroup}
	for _, id := range q.Relevant {
		for _, g := range f.docs[id].ACL {
			if !slices.Contains(gs, g) {
				gs = append(gs, g)
			}
		}
	}
	return gs
}

// request retrieves the top k chunks for q and labels them, as the
// Generate activity does.
func (f *hollinFixture) request(t testing.TB, q hollinQuestion, k int) Request {
	t.Helper()
	return f.requestAs(t, q, f.groups(q), k)
}

// requestAs is request for a principal of the given groups (and public).
func (f *hollinFixture) requestAs(t testing.TB, q hollinQuestion, groups []string, k int) Request {
	t.Helper()
	ctx := context.Background()
	if !slices.Contains(groups, corpus.PublicGroup) {
		groups = append([]string{corpus.PublicGroup}, groups...)
	}
	res, err := f.retriever.Search(ctx, retrieval.Request{Query: q.Question, Groups: groups, K: k})
	if err != nil {
		t.Fatalf("%s: Search: %v", q.ID, err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ChunkID)
	}
	chunks, err := f.ix.Chunks(ctx, ids)
	if err != nil {
		t.Fatalf("%s: Chunks: %v", q.ID, err)
	}
	req := Request{Question: q.Question}
	for i, c := range chunks {
		req.Sources = append(req.Sources, Source{Label: wire.Label(i), Chunk: c})
	}
	return req
}

// missingFacts returns the facts answer does not contain (case-insensitive).
func missingFacts(answer string, facts []string) []string {
	var out []string
	for _, f := range facts {
		if !strings.Contains(strings.ToLower(answer), strings.ToLower(f)) {
			out = append(out, f)
		}
	}
	return out
}

// TestExtractiveHollin measures the extractive generator on the Hollin
// questions that have an answer: retrieve the top 5 with the current
// retriever for a principal entitled to the relevant documents, generate,
// run Check, and count answers containing every key fact of
// testdata/hollin/key_facts.jsonl. Misses are logged with the answer and
// the retrieved documents, so a miss can be told apart as retrieval's or
// extraction's.
func TestExtractiveHollin(t *testing.T) {
	f := newHollinFixture(t)
	questions := readJSONL[hollinQuestion](t, filepath.Join(hollinDir, "questions.jsonl"))
	facts := map[string][]string{}
	for _, kf := range readJSONL[struct {
		ID    string   `json:"id"`
		Facts []string `json:"facts"`
	}](t, filepath.Join(hollinDir, "key_facts.jsonl")) {
		facts[kf.ID] = kf.Facts
	}
	an := terms.New()
	g := NewExtractive(an)
	chk := NewChecker(an)
	hits, total := 0, 0
	citedDocs, citedRelevant := 0, 0 // cited-document precision
	for _, q := range questions {
		want, ok := facts[q.ID]
		if len(q.Relevant) == 0 {
			if ok {
				t.Errorf("%s has no answer but key facts %v", q.ID, want)
			}
			continue
		}
		if !ok {
			t.Errorf("%s has an answer but no key facts", q.ID)
			continue
		}
		total++
		req := f.request(t, q, 5)
		ans, err := g.Generate(context.Background(), req)
		if err != nil {
			t.Errorf("%s: Generate: %v", q.ID, err)
			continue
		}
		ans, err = chk.Check(req, ans)
		if err != nil {
			t.Errorf("%s: Check rejected an extractive answer: %v", q.ID, err)
			continue
		}
		if len(ans.Stripped) > 0 {
			t.Errorf("%s: the extractive answer cited labels it was not given: %v", q.ID, ans.Stripped)
		}
		for _, c := range ans.Citations {
			citedDocs++
			if slices.Contains(q.Relevant, c.DocID) {
				citedRelevant++
			}
		}
		missing := missingFacts(ans.Text, want)
		if len(missing) == 0 {
			hits++
			continue
		}
		var docs []string
		for _, s := range req.Sources {
			docs = append(docs, s.DocID)
		}
		t.Logf("miss %s (%s) %q: missing %q\n\tanswer: %s\n\tretrieved: %v (relevant %v)",
			q.ID, q.Type, q.Question, missing, ans.Text, docs, q.Relevant)
	}
	t.Logf("extractive (%s): %d of %d Hollin answers contain every key fact; %d of %d cited documents are relevant",
		ExtractiveModel, hits, total, citedRelevant, citedDocs)
	if hits < hollinMinHits {
		t.Errorf("extractive answers with every key fact = %d of %d, want at least %d", hits, total, hollinMinHits)
	}
}

// TestExtractiveV9Hollin asks v9 and v8 development questions (fresh4 h63
// h67, fresh5 k59 k12 k22) from the top wire.DefaultTopK chunks, as the
// GENERATEDEV harness does: the opening source holds the asked value (a
// model number, a cost) and most of the weight of the clause that asks, so
// v9 cites it alone, where v8 adds a source for a scene word ("repair" of
// "the online repair form") or a word of the thing asked about
// ("replacement" from the recall notice). Each answer keeps its key fact.
func TestExtractiveV9Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	citesAlone(t, f, []*Extractive{NewExtractiveV9(an), NewExtractiveV8(an)}, 9, []aloneCase{
		{hollinQuestion{ID: "h63", Question: "The online repair form wants the model number of my X300 Pro - what is it?", Relevant: []string{"man-x300-specs"}}, "HL-X300-UK"},
		{hollinQuestion{ID: "h67", Question: "For the margin report: what's our cost on a replacement X200 jar?", Relevant: []string{"int-parts-cost"}}, "£6.10"},
		{hollinQuestion{ID: "k59", Question: "What does a replacement X200 jug cost us internally?", Relevant: []string{"int-parts-cost"}}, "£6.10"},
		// Another source's "complete" answer sharing only a common word
		// ("base" of the jar) with the opening sentence names no entity
		// of the question in both.
		{hollinQuestion{ID: "k12", Question: "Can I just rinse the X200 base under the tap when it gets sticky?", Relevant: []string{"man-x200-cleaning"}}, "damp cloth"},
		{hollinQuestion{ID: "k22", Question: "We've just moved somewhere with really chalky water. Should I be doing anything differently with my kettle?", Relevant: []string{"faq-hard-water"}}, "more often"},
	})
}

// aloneCase is a development question and a key fact its relevant
// document holds.
type aloneCase struct {
	q    hollinQuestion
	fact string
}

// citesAlone asks each case of every generator from the top
// wire.DefaultTopK chunks the asker finds (the finance group for the
// internal cost list, the public otherwise) and checks that the answer
// cites only the relevant document, with the key fact, exactly when the
// generator's version is version.
func citesAlone(t *testing.T, f *hollinFixture, gens []*Extractive, version int, cases []aloneCase) {
	t.Helper()
	for _, tt := range cases {
		groups := []string{corpus.PublicGroup}
		if tt.q.Relevant[0] == "int-parts-cost" {
			groups = []string{"finance"}
		}
		req := f.requestAs(t, tt.q, groups, wire.DefaultTopK)
		for _, g := range gens {
			docs, ans := citedDocs(t, g, req)
			alone := slices.Equal(docs, tt.q.Relevant) && strings.Contains(ans.Text, tt.fact)
			if alone != (g.Version == version) {
				t.Errorf("%s %s: %q cites %v; want only %v (with %q): %v", g.Model(), tt.q.ID, ans.Text, docs, tt.q.Relevant, tt.fact, g.Version == version)
			}
		}
	}
}

// TestExtractiveV10Hollin asks development questions (fresh7 n16, fresh4
// h61, fresh5 k47, fresh6 m22) of v10 and v9 from the top
// wire.DefaultTopK chunks, as the GENERATEDEV harness does. v9 adds a
// second source for a word of the question it adds ("Settings, then
// Privacy" for "speed settings"; the X300 Pro's specifications for "vacuum
// mode"; the registration page's "hollin.example" address) or as an
// equally complete answer sharing common words ("motor base", "water");
// v10 cites only the source naming the question's entity (the X200, the
// X300 Pro, VAT), with its key fact.
func TestExtractiveV10Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	citesAlone(t, f, []*Extractive{NewExtractiveV10(an), NewExtractiveV9(an)}, 10, []aloneCase{
		{hollinQuestion{ID: "n16", Question: "how many speed settings has the x200 got", Relevant: []string{"man-x200-specs"}}, "three speeds"},
		{hollinQuestion{ID: "h61", Question: "My X300 Pro keeps throwing up E12 and the vacuum mode doesn't seem to do anything any more. What's that mean?", Relevant: []string{"man-x300-errors"}}, "vacuum pump"},
		{hollinQuestion{ID: "k47", Question: "I run a little café and need a proper VAT receipt for the parts I bought. How do I get one?", Relevant: []string{"faq-vat-invoice"}}, "VAT number"},
		{hollinQuestion{ID: "m22", Question: "the bottom half of my X200 with the motor in is all sticky, can I rinse it under the tap?", Relevant: []string{"man-x200-cleaning"}}, "damp cloth"},
	})
}

// acceptedChunk returns, as Request.Accepted, the id of the chunk of
// document doc among req's sources (the assessor's accepted chunk).
func acceptedChunk(t *testing.T, id string, req Request, doc string) []string {
	t.Helper()
	for _, s := range req.Sources {
		if s.DocID == doc {
			return []string{s.ID}
		}
	}
	t.Fatalf("%s: %s not among the top %d", id, doc, wire.DefaultTopK)
	return nil
}

// TestExtractiveV11Hollin asks development questions (fresh6 m34 m47,
// fresh7 n48 n60, fresh8 p44 p80) of v11 and v10 from the top
// wire.DefaultTopK chunks their asker finds, with the chunk the builtin
// assessor accepts on them (the relevant document's, Request.Accepted), as
// the loop's first attempt runs them. v10, which does not read it, opens
// with a typed sentence of a source that bears less on the question ("Add
// your VAT number" for a receipt question, "Register your appliance" for
// the courier) or cites one beside the accepted source ("Register your
// appliance" beside the VAT invoice page); v11 opens with the accepted
// source and cites it alone, with its key fact. Without an accepted chunk
// v11 answers as v10, except that it counts a question's parts as rule 1a
// does (p44's comma opens no second question: v11 cites the VAT page
// alone there too); with an accepted chunk that bears on the question
// no more than v10's opening source (Hollin q21: the K50 manual against
// the app page), the sentence scores still choose.
func TestExtractiveV11Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	v11, v10 := NewExtractiveV11(an), NewExtractiveV10(an)
	for _, tt := range []struct {
		id, question string
		groups       []string
		relevant     string
		accepted     string // the assessor's accepted document
		fact         string
		v10alone     bool // v10 cites the relevant document alone too
	}{
		{"m34", "I binned the paper receipt but I've still got the order email from the shop. Will that do for a claim?", nil, "faq-proof-of-purchase", "faq-proof-of-purchase", "order confirmation email", false},
		{"m47", "how do I tell which batch my blender jug is from - where's the number?", nil, "ntc-x200-recall", "ntc-x200-recall", "base of the jar", false},
		{"n48", "how will I know when the courier has actually taken my appliance away?", nil, "faq-repair-tracking", "faq-repair-tracking", "tracking link", false},
		{"n60", "customers saying their K50 turns off before it boils - what's the fix?", []string{"staff"}, "sb-114", "sb-114", "2.3", false},
		{"p44", "I run a café and need a VAT invoice for the parts I bought, how do I get one?", nil, "faq-vat-invoice", "faq-vat-invoice", "parts@hollin.example", false},
		{"p80", "Can I send the parts cost price list to one of our repair partners?", []string{"finance"}, "int-parts-cost", "int-parts-cost", "Do not share outside Finance", false},
		{"q21", "how do I connect the K50 to my phone", nil, "man-k50-app", "man-k50-kettle", "5 seconds", true},
	} {
		q := hollinQuestion{ID: tt.id, Question: tt.question, Relevant: []string{tt.relevant}}
		req := f.requestAs(t, q, tt.groups, wire.DefaultTopK)
		plain := req
		req.Accepted = acceptedChunk(t, tt.id, req, tt.accepted)
		alone := func(g *Extractive, req Request) (bool, Answer) {
			ans, err := g.Generate(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			return len(ans.Citations) == 1 && ans.Citations[0].DocID == tt.relevant && strings.Contains(ans.Text, tt.fact), ans
		}
		if ok, ans := alone(v11, req); !ok {
			t.Errorf("v11 %s: %q cites %v; want only %s, with %q", tt.id, ans.Text, ans.Citations, tt.relevant, tt.fact)
		}
		if ok, ans := alone(v10, req); ok != tt.v10alone {
			t.Errorf("v10 %s: %q cites %v; alone %v, want %v", tt.id, ans.Text, ans.Citations, ok, tt.v10alone)
		}
		a, _ := v11.Generate(context.Background(), plain)
		b, _ := v10.Generate(context.Background(), plain)
		if (a.Text == b.Text) != (tt.id != "p44") {
			t.Errorf("%s without an accepted chunk: v11 %q, v10 %q; want the same unless p44", tt.id, a.Text, b.Text)
		}
	}
}

// TestExtractiveV12Hollin asks development questions of v12 and v11 from
// the top wire.DefaultTopK chunks their asker finds, with the chunk the
// builtin assessor accepts on them (Request.Accepted; none for m12), as
// the loop's first attempt runs them. Each of v12's rules drops a
// document v11 cites beside the answer:
//   - "one" and "go" are no content: "a new one" no longer ties "Using one
//     with a voltage converter abroad" to a warranty question (fresh4 h37,
//     fresh6 m54), nor "go through" "if you go ahead" to a repair's stages
//     (fresh2 g10; see also TestPropWords);
//   - when the question names no entity, another source's "equally
//     complete" answer must share more than one question word with the
//     opening sentence: "descale kettles more often" is no second answer
//     to what the K50 is descaled with (fresh7 n36);
//   - a name asked for by "model number" is a code: "Book a repair at
//     hollin.example/repair with your model number" no longer opens the
//     answer to r20 beside "Model number HL-X200-UK." (fresh9 r20);
//   - a sentence naming a question's name the answer did not ("Hollin")
//     must say something asked of it (fresh9 r90, a no-answer question,
//     no longer cites the partner handbook beside the repairs page), while
//     one naming a code (the K50) still comes in (fresh6 m12, as v11).
func TestExtractiveV12Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	f.againstPrevious(t, NewExtractiveV12(an), NewExtractiveV11(an), []previousCase{
		{"h37", "The jug on my blender has cracked. Will the warranty pay for a new one?", nil, "pol-warranty-2026",
			[]string{"pol-warranty-2026"}, "cracked jars", []string{"pol-warranty-2026", "faq-abroad"}},
		{"m54", "did the old 2024 warranty pay out for a cracked jug? does the current one?", nil, "pol-warranty-2024",
			[]string{"pol-warranty-2026"}, "cracked jars", []string{"faq-abroad", "pol-warranty-2026"}},
		{"g10", "what stages does my repair go through before it comes back", nil, "faq-repair-tracking",
			[]string{"faq-repair-tracking"}, "tracking link", []string{"pol-repairs", "faq-repair-tracking"}},
		{"n36", "what should I descale the hollin kettle with - is vinegar ok?", nil, "man-k50-kettle",
			[]string{"man-k50-kettle"}, "citric acid", []string{"man-k50-kettle", "faq-hard-water"}},
		{"r20", "What model number should I give for my X200 when I book it in?", nil, "man-x200-specs",
			[]string{"man-x200-specs"}, "HL-X200-UK", []string{"faq-warranty-claim", "man-x200-specs"}},
		{"r90", "Do we get a bonus from Hollin for turning a repair round inside 10 days?", []string{"partners", "partner:brook-street"}, "pol-repairs",
			[]string{"pol-repairs"}, "10 working days", []string{"pol-repairs", "ptn-handbook"}},
		{"m12", "how often am I meant to get the limescale out of my K50? we're not in a hard water area", nil, "",
			[]string{"faq-hard-water", "man-k50-kettle"}, "once a month", []string{"faq-hard-water", "man-k50-kettle"}},
	})
}

// TestPropWords: from v12, "one" and "go" are not content words of a
// question (see propWords); v11 counted them.
func TestPropWords(t *testing.T) {
	an := terms.New()
	for _, q := range []string{"what stages does my repair go through before it comes back", "Will the warranty pay for a new one?"} {
		asked := answertype.Classify(q)
		prop := an.Set("one go")
		v12, v11 := NewExtractive(an).content(q, asked), NewExtractiveV11(an).content(q, asked)
		if slices.ContainsFunc(v12, func(t string) bool { return prop[t] }) || !slices.ContainsFunc(v11, func(t string) bool { return prop[t] }) {
			t.Errorf("%q: v12 content %v, v11 %v; want %v in v11's only", q, v12, v11, prop)
		}
	}
}

// TestPropWordsInCompounds: a prop word inside a compound stays content
// ("The one-child policy has been successful in lowering population
// growth.", SciFact claim 1245).
func TestPropWordsInCompounds(t *testing.T) {
	an := terms.New()
	q := "The one-child policy has been successful in lowering population growth."
	prop := an.Set("one")
	if got := NewExtractive(an).content(q, answertype.Classify(q)); !slices.ContainsFunc(got, func(t string) bool { return prop[t] }) {
		t.Errorf("%q: content %v; want %v kept", q, got, prop)
	}
}

// TestExtractiveV13Hollin: questions whose first attempt v12 answered
// from the chunk the assessor accepted, a page mentioning the question's
// words in passing (the registration page, the warranty's motor cover),
// and that v13 answers from the page about what is asked: the page
// titled with it (topic: p39, r37, t43), or each compared model's
// specifications (choice: h20, n19, r55), and without another page's
// sentences sharing its words beside no expression of the asked kind
// (complete: t07). And questions the topic rule
// must leave alone: a yes/no question decided by a statement on the
// asked action (heldout h06, not the claim page's instruction), and a
// title holding a single word of the clause that asks (fresh5 k51:
// "Hollin" in "Pairing the K50 with the Hollin Home app"). Each case
// fails without its rule (checked by reverting it).
func TestExtractiveV13Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	f.againstPrevious(t, NewExtractiveV13(an), NewExtractiveV12(an), []previousCase{
		{"p39", "What are the steps for making a claim on my warranty?", nil, "pol-registration",
			[]string{"faq-warranty-claim"}, "hollin.example/repair", []string{"pol-registration"}},
		{"r37", "how do i put in a claim under my warranty", nil, "pol-registration",
			[]string{"faq-warranty-claim"}, "hollin.example/repair", []string{"pol-registration"}},
		{"t43", "whats the process for claiming on the warranty, step by step please", nil, "pol-registration",
			[]string{"faq-warranty-claim"}, "proof of purchase", []string{"pol-registration"}},
		{"h20", "Is the X300 Pro much more powerful than the X200, or is it mostly marketing?", nil, "pol-warranty-2026",
			[]string{"man-x300-specs", "man-x200-specs"}, "1,200 W", []string{"pol-warranty-2026"}},
		{"n19", "which blender has the beefier motor, the X200 or the X300 Pro, and by how much?", nil, "pol-warranty-2026",
			[]string{"man-x300-specs", "man-x200-specs"}, "1,500 W", []string{"pol-warranty-2026"}},
		{"r55", "Which blender has the beefier motor, the X200 or the X300 Pro?", nil, "pol-warranty-2026",
			[]string{"man-x300-specs", "man-x200-specs"}, "1,500 W", []string{"pol-warranty-2026"}},
		{"t07", "Where do I go online to book in a repair under guarantee?", nil, "ntc-repair-centre-move",
			[]string{"faq-warranty-claim"}, "hollin.example/repair", []string{"ntc-repair-centre-move", "faq-repair-tracking", "faq-warranty-claim"}},
		{"h06", "do I have to register my appliance before I can claim under the warranty", nil, "pol-registration",
			[]string{"pol-registration"}, "do not need to register", []string{"pol-registration"}},
		{"k51", "When does our contract with Hollin come up for renewal?", []string{"partners", "partner:brook-street"}, "ptn-handbook",
			[]string{"ptn-handbook"}, "partner agreement", []string{"ptn-handbook"}},
	})
}

// previousCase is a development question asked of a generator and of its
// previous version: the documents each must cite.
type previousCase struct {
	id, question string
	groups       []string
	accepted     string // the assessor's accepted document ("": none)
	want         []string
	fact         string
	prev         []string // what the previous version cites
}

// againstPrevious retrieves each case's question for its groups, marks
// its accepted document, and checks g and prev (citesAgainstPrevious).
func (f *hollinFixture) againstPrevious(t *testing.T, g, prev *Extractive, cases []previousCase) {
	t.Helper()
	for _, tt := range cases {
		req := f.requestAs(t, hollinQuestion{ID: tt.id, Question: tt.question}, tt.groups, wire.DefaultTopK)
		if tt.accepted != "" {
			req.Accepted = acceptedChunk(t, tt.id, req, tt.accepted)
		}
		citesAgainstPrevious(t, g, prev, req, tt.id, tt.want, tt.fact, tt.prev)
	}
}

// citesAgainstPrevious checks that g's answer to question id's req cites
// the documents want, in order, and says fact, and that prev's cites
// prevCites.
func citesAgainstPrevious(t *testing.T, g, prev *Extractive, req Request, id string, want []string, fact string, prevCites []string) {
	t.Helper()
	if docs, ans := citedDocs(t, g, req); !slices.Equal(docs, want) || !strings.Contains(ans.Text, fact) {
		t.Errorf("v%d %s: %q cites %v; want %v with %q", g.Version, id, ans.Text, docs, want, fact)
	}
	if docs, ans := citedDocs(t, prev, req); !slices.Equal(docs, prevCites) {
		t.Errorf("v%d %s: %q cites %v; want %v", prev.Version, id, ans.Text, docs, prevCites)
	}
}

// citedDocs generates g's answer to req and lists the documents it cites.
func citedDocs(t *testing.T, g *Extractive, req Request) ([]string, Answer) {
	t.Helper()
	ans, err := g.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, c := range ans.Citations {
		docs = append(docs, c.DocID)
	}
	return docs, ans
}

// TestChoice: a choice between two of the question's entities is read
// from "or", "than", "vs" or "versus" standing between them, not from
// two entities alone.
func TestChoice(t *testing.T) {
	an := terms.New()
	g := NewExtractive(an)
	for q, want := range map[string]bool{
		"Which blender has the beefier motor, the X200 or the X300 Pro?":               true,
		"Is the X300 Pro much more powerful than the X200, or is it mostly marketing?": true,
		"X200 vs X300 Pro: which one is louder?":                                       true,
		"what did the 2024 warranty cover that the 2026 terms no longer do":            false,
		"does the X200 or the kettle need descaling":                                   false, // one entity
		"my X200 shows E4, what do I do":                                               false,
	} {
		ents := assess.Entities(an, q, noVocabulary{})
		if got := g.choice(q, ents); got != want {
			t.Errorf("choice(%q) = %v (entities %v), want %v", q, got, ents, want)
		}
	}
}

// TestExtractiveV14Hollin asks comparisons whose answer is one price list
// (fresh11 u77 u80, fresh8 p79: the finance team's internal cost prices)
// of v14 and v13: v13's rule 2a looked for each compared part's price in
// a source of its own and cited beside the list a page naming one part in
// passing (the X200 jar recall, the blade manual); v14 answers from the
// list alone (see listing). And comparisons the listing rule must leave
// to rule 2a: one value beside both names ("Blender motors on the X200
// and X300 Pro are covered for 5 years", fresh2 g02, fresh4 h20) tells
// them apart no more than v13's specifications do, so each model's own
// specification answers, as before. And questions naming the archived
// 2024 warranty terms by their year (fresh8 p52, fresh11 u46, fresh7
// n04): v13 silenced the archived page whenever a current one said
// anything on the question, and quoted the 2026 terms (or the page on use
// abroad); v14 quotes the terms asked about (see namedStale) and silences
// the terms that superseded them (laterVersions), but not for a question
// naming both years (fresh2 g01) or asking twice (fresh6 m54: "does the
// current one?"), which still answer from the current terms. Each case
// fails without its rule (distinctNumbers checked by counting every
// expression found instead; g01 by dropping namedStale's current-year
// exemption, m54 laterVersions' one-clause condition).
func TestExtractiveV14Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	finance := []string{"finance"}
	f.againstPrevious(t, NewExtractive(an), NewExtractiveV13(an), []previousCase{
		{"u77", "How much more does a PMP-X300 pump cost us than an X200 jar?", finance, "int-parts-cost",
			[]string{"int-parts-cost"}, "£11.80", []string{"int-parts-cost", "ntc-x200-recall"}},
		{"u80", "Is the BLD-X200 cheaper for us than the HEPA filter?", finance, "int-parts-cost",
			[]string{"int-parts-cost"}, "£7.25", []string{"int-parts-cost", "man-x200-blades"}},
		{"p79", "which costs us more, the x300 pump or the x200 blade assembly, and by how much?", finance, "int-parts-cost",
			[]string{"int-parts-cost"}, "£3.40", []string{"int-parts-cost", "ntc-x200-recall"}},
		{"g02", "which has more speed settings, the X200 or the X300 Pro?", nil, "man-x300-specs",
			[]string{"man-x300-specs", "man-x200-specs"}, "three speeds", []string{"man-x300-specs", "man-x200-specs"}},
		{"h20", "Is the X300 Pro much more powerful than the X200, or is it mostly marketing?", nil, "pol-warranty-2026",
			[]string{"man-x300-specs", "man-x200-specs"}, "1,200 W", []string{"man-x300-specs", "man-x200-specs"}},
		// namedStale: the question names the archived terms by their year
		{"p52", "Under the old 2024 warranty terms, how long was the general warranty?", nil, "pol-warranty-2024",
			[]string{"pol-warranty-2024"}, "1-year", []string{"pol-warranty-2026"}},
		{"u46", "Under the 2024 terms, were blender motors covered for longer than the rest of the appliance?", nil, "pol-warranty-2024",
			[]string{"pol-warranty-2024"}, "2 years", []string{"faq-abroad"}},
		{"n04", "back under the 2024 warranty rules, was a cracked jug something you'd cover?", nil, "pol-warranty-2024",
			[]string{"pol-warranty-2024"}, "cracked jars", []string{"pol-warranty-2026"}},
		// ... not when it names the current terms' year too
		{"g01", "what did the 2024 warranty cover that the 2026 terms no longer do", nil, "",
			[]string{"pol-warranty-2026"}, "cracked jars", []string{"pol-warranty-2026"}},
		// ... and the current terms still speak when it asks twice
		{"m54", "did the old 2024 warranty pay out for a cracked jug? does the current one?", nil, "pol-warranty-2024",
			[]string{"pol-warranty-2026"}, "does not cover", []string{"pol-warranty-2026"}},
	})
}

// TestDistinctNumbers: a value found as two types ("5 years": a period
// and a count) is one number; a list's prices are one each.
func TestDistinctNumbers(t *testing.T) {
	for text, want := range map[string]int{
		"Blender motors on the X200 and X300 Pro are covered for 5 years.":                                          1,
		"Internal cost prices: X200 jar £6.10, BLD-X200 blade assembly £3.40, PMP-X300 pump £11.80.":                3,
		"The X300 Pro blender has a 1,500 W motor, a vacuum blending mode and ten speeds.":                          1,
		"Standard delivery takes 3 to 5 working days and costs £3.95.":                                              3,
		"Hollin pays Brook Street Repairs £42 per hour of warranty labour and £18 per home visit, and 42 is final.": 2,
	} {
		if got := distinctNumbers(text, decidingExpressions(text)); got != want {
			t.Errorf("distinctNumbers(%q) = %d (expressions %q), want %d", text, got, decidingExpressions(text), want)
		}
	}
}

// TestLaterVersions: a question naming the archived terms' year asks
// about them (namedStale), and the current terms titled alike are
// silenced (laterVersions), the repairs page not; not when the question
// also names the current year, asks twice, or compares (fresh4 h71:
// end to end, with the 2026 terms silenced, the repairs page the
// assessor accepted answered "what's changed ... compared with the 2024
// terms").
func TestLaterVersions(t *testing.T) {
	an := terms.New()
	g := NewExtractive(an)
	src := func(id, title string, status corpus.Status) Source {
		return Source{Chunk: corpus.Chunk{ID: id + "#0", DocID: id, Title: title, Status: status, Text: "Blender motors are covered."}}
	}
	req := Request{Sources: []Source{
		src("pol-warranty-2024", "Warranty terms (2024, archived)", corpus.Archived),
		src("pol-warranty-2026", "Warranty terms (2026)", corpus.Current),
		src("pol-repairs", "Repairs and servicing", corpus.Current),
	}}
	for q, want := range map[string][]int{
		"Under the old 2024 warranty terms, how long was the general warranty?":        {1},
		"back under the 2024 warranty rules, was a cracked jug something you'd cover?": {1},
		"what did the 2024 warranty cover that the 2026 terms no longer do":            nil,
		"did the old 2024 warranty pay out for a cracked jug? does the current one?":   nil,
		"What's changed in the warranty compared with the 2024 terms?":                 nil,
		"How long is the warranty on a kettle?":                                        nil,
	} {
		req.Question = q
		content := g.content(q, answertype.Classify(q))
		got := slices.Sorted(maps.Keys(g.laterVersions(req, g.namedStale(req, content))))
		if !slices.Equal(got, want) {
			t.Errorf("%q: later versions %v, want %v", q, got, want)
		}
	}
}

// TestNamedStaleSaysNothing: when the chunk of the named archived terms
// that was retrieved says nothing on the question, the current terms are
// not silenced for it and answer, as in v13.
func TestNamedStaleSaysNothing(t *testing.T) {
	g := NewExtractive(terms.New())
	req := Request{Question: "Under the 2024 terms, how long was the general warranty?", Sources: []Source{
		{Label: "1", Chunk: corpus.Chunk{ID: "a#1", DocID: "pol-warranty-2024", Title: "Warranty terms (2024, archived)", Status: corpus.Archived,
			Text: "Keep this page for your records."}},
		{Label: "2", Chunk: corpus.Chunk{ID: "b#0", DocID: "pol-warranty-2026", Title: "Warranty terms (2026)", Status: corpus.Current,
			Text: "Every Hollin appliance has a 2-year warranty from the date of purchase."}},
	}}
	if docs, ans := citedDocs(t, g, req); !slices.Equal(docs, []string{"pol-warranty-2026"}) {
		t.Errorf("%q cites %v; want the 2026 terms", ans.Text, docs)
	}
}

// TestLaterVersionsKeepsCodes: a code in the named superseded source's
// title ("X200") is no version: only the current source titled with it
// supersedes it, not one about another model ("X300 Pro blender manual")
// that shares the title's other words.
func TestLaterVersionsKeepsCodes(t *testing.T) {
	g := NewExtractive(terms.New())
	src := func(id, title string, status corpus.Status) Source {
		return Source{Chunk: corpus.Chunk{ID: id + "#0", DocID: id, Title: title, Status: status, Text: "Descale the blender base every month."}}
	}
	req := Request{Question: "Under the 2024 manual, how often should the blender be descaled?", Sources: []Source{
		src("man-x200-2024", "X200 blender manual (2024, archived)", corpus.Archived),
		src("man-x200-2026", "X200 blender manual (2026)", corpus.Current),
		src("man-x300", "X300 Pro blender manual", corpus.Current),
	}}
	named := g.namedStale(req, g.content(req.Question, answertype.Classify(req.Question)))
	if !named[0] {
		t.Fatalf("%q names no superseded source (%v): the test no longer reaches laterVersions", req.Question, named)
	}
	if got := slices.Sorted(maps.Keys(g.laterVersions(req, named))); !slices.Equal(got, []int{1}) {
		t.Errorf("later versions %v, want [1] (the X200's 2026 manual, not the X300's)", got)
	}
}
