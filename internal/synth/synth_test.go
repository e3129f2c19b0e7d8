package synth

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
)

// sourceDataset writes a small BEIR dataset: docs abstracts of sentences
// sentences each (one of them long enough to need several chunks), and three
// judged queries.
func sourceDataset(t *testing.T, docs int) *eval.Dataset {
	t.Helper()
	dir := t.TempDir()
	var c, q bytes.Buffer
	for i := range docs {
		var sents []string
		n := 6
		if i == 0 {
			n = 60 // about 640 words: several chunks under the default window
		}
		for j := range n {
			sents = append(sents, fmt.Sprintf("Finding %d of study %d concerns protein k%d and cell type c%d.", j, i, i*7+j, j))
		}
		fmt.Fprintf(&c, `{"_id": "%d", "title": "Study %d", "text": %q, "metadata": {}}`+"\n", 1000+i, i, strings.Join(sents, " "))
	}
	for i := range 3 {
		fmt.Fprintf(&q, `{"_id": "q%d", "text": "what does study %d find"}`+"\n", i, i)
	}
	must(t, os.WriteFile(filepath.Join(dir, "corpus.jsonl"), c.Bytes(), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "queries.jsonl"), q.Bytes(), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "qrels.tsv"), []byte("query-id\tcorpus-id\tscore\nq0\t1000\t1\nq1\t1001\t1\nq2\t1002\t1\nq2\t1003\t1\n"), 0o644))
	ds, err := eval.LoadBEIR(dir, eval.SplitTest)
	must(t, err)
	return ds
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range []string{CorpusFile, QueriesFile, QrelsFile, QuestionsFile, StatsFile} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		must(t, err)
		out[f] = b
	}
	return out
}

func TestSameSeedSameBytes(t *testing.T) {
	src := sourceDataset(t, 40)
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	_, err := WriteDataset(a, src, Options{Chunks: 500, Seed: 7})
	must(t, err)
	_, err = WriteDataset(b, src, Options{Chunks: 500, Seed: 7})
	must(t, err)
	_, err = WriteDataset(c, src, Options{Chunks: 500, Seed: 8})
	must(t, err)
	fa, fb, fc := readAll(t, a), readAll(t, b), readAll(t, c)
	for name := range fa {
		if !bytes.Equal(fa[name], fb[name]) {
			t.Errorf("%s differs between two runs with seed 7", name)
		}
	}
	if bytes.Equal(fa[CorpusFile], fc[CorpusFile]) {
		t.Errorf("seeds 7 and 8 wrote the same corpus")
	}
}

func TestSizeInChunks(t *testing.T) {
	src := sourceDataset(t, 40)
	ch, err := chunk.New(chunk.Default())
	must(t, err)
	orig := mustLoad(t, src.CorpusPath)
	origChunks := 0
	for i := range orig {
		origChunks += len(ch.Split(&orig[i]))
	}
	if origChunks <= len(orig) {
		t.Fatalf("the source's long abstract is one chunk; the test needs it longer")
	}
	for _, n := range []int{0, origChunks, 300, 2000} {
		dir := t.TempDir()
		st, err := WriteDataset(dir, src, Options{Chunks: n})
		must(t, err)
		docs, err := corpus.LoadJSONL(filepath.Join(dir, CorpusFile))
		must(t, err)
		must(t, corpus.RequireACL(docs)) // every record names its groups
		chunks := 0
		for i := range docs {
			k := len(ch.Split(&docs[i]))
			if strings.HasPrefix(docs[i].ID, GeneratedPrefix) && k != 1 {
				t.Errorf("N=%d: generated %s is %d chunks, want 1", n, docs[i].ID, k)
			}
			chunks += k
		}
		want := max(n, origChunks)
		if chunks != want || st.Chunks != want || st.Documents != len(docs) {
			t.Errorf("N=%d: %d chunks (stats %d, %d documents of %d), want %d", n, chunks, st.Chunks, st.Documents, len(docs), want)
		}
		if st.OriginalChunks != origChunks || st.Original != 40 || st.Generated != len(docs)-40 {
			t.Errorf("N=%d: stats %+v", n, st)
		}
	}
}

func TestJudgedDocumentsKept(t *testing.T) {
	src := sourceDataset(t, 40)
	dir := t.TempDir()
	_, err := WriteDataset(dir, src, Options{Chunks: 1000})
	must(t, err)
	orig, err := corpus.LoadJSONL(src.CorpusPath)
	must(t, err)
	docs, err := corpus.LoadJSONL(filepath.Join(dir, CorpusFile))
	must(t, err)
	byID := map[string]corpus.Document{}
	for _, d := range docs {
		byID[d.ID] = d
	}
	for _, o := range orig {
		d, ok := byID[o.ID]
		if !ok || d.Title != o.Title || d.Text != o.Text {
			t.Errorf("source document %s missing or changed", o.ID)
		}
	}
	out, err := eval.LoadBEIR(dir, eval.SplitTest)
	must(t, err)
	if len(out.Queries) != len(src.Queries) {
		t.Errorf("%d judged queries written, want %d", len(out.Queries), len(src.Queries))
	}
	if unknown := eval.UnknownDocs(out.Qrels, func(id string) bool { _, ok := byID[id]; return ok }); len(unknown) > 0 {
		t.Errorf("judged documents missing from the corpus: %v", unknown)
	}
	if fmt.Sprint(out.Qrels) != fmt.Sprint(src.Qrels) {
		t.Errorf("qrels changed: %v, want %v", out.Qrels, src.Qrels)
	}
	// Generated text is not a copy of any abstract, and mixes abstracts.
	sentenceDoc := map[string]string{}
	for _, o := range orig {
		for _, s := range Sentences(o.Text) {
			sentenceDoc[s] = o.ID
		}
	}
	single := 0
	for _, d := range docs {
		if !strings.HasPrefix(d.ID, GeneratedPrefix) {
			continue
		}
		from := map[string]bool{}
		for _, s := range Sentences(d.Text) {
			id, ok := sentenceDoc[s]
			if !ok {
				t.Fatalf("%s has a sentence no abstract has: %q", d.ID, s)
			}
			from[id] = true
		}
		if len(from) == 1 {
			single++
		}
	}
	if single > 10 { // about 1 in 1,600 expected from 40 abstracts
		t.Errorf("%d generated documents draw every sentence from one abstract", single)
	}
}

func TestACLShares(t *testing.T) {
	src := sourceDataset(t, 40)
	var docs []corpus.Document
	st, err := Generate(mustLoad(t, src.CorpusPath), Options{Chunks: 20000}, func(d corpus.Document) error {
		docs = append(docs, d)
		return nil
	})
	must(t, err)
	n := float64(len(docs))
	share := func(g string) float64 { return float64(st.GroupDocs[g]) / n }
	if s := share(corpus.PublicGroup); s < 0.47 || s > 0.53 {
		t.Errorf("public on %.3f of documents, want about 0.5", s)
	}
	if s := share(StaffGroup); s < 0.22 || s > 0.28 {
		t.Errorf("staff on %.3f of documents, want about 0.25", s)
	}
	for i := range DefaultTeams {
		// Each team is on 2/100 of documents on average.
		if s := share(TeamGroup(i)); s < 0.012 || s > 0.028 {
			t.Errorf("%s on %.4f of documents, want about 0.02", TeamGroup(i), s)
		}
	}
	if _, ok := st.GroupDocs[TeamGroup(DefaultTeams)]; ok || len(st.GroupDocs) != DefaultTeams+2 {
		t.Errorf("groups used: %d, want public, staff and %d teams", len(st.GroupDocs), DefaultTeams)
	}
	for _, d := range docs {
		teams := 0
		for _, g := range d.ACL {
			if strings.HasPrefix(g, "team-") {
				teams++
			}
		}
		if teams < 1 || teams > 3 {
			t.Fatalf("%s is visible to %d teams (%v), want 1..3", d.ID, teams, d.ACL)
		}
	}
}

func mustLoad(t *testing.T, path string) []corpus.Document {
	t.Helper()
	docs, err := corpus.LoadJSONL(path)
	must(t, err)
	return docs
}

func TestSentences(t *testing.T) {
	got := Sentences("Cells grew 2.5 fold. In vivo, e.g. mice, it did not. 3 of 4 died! What now?  Unfinished")
	want := []string{"Cells grew 2.5 fold.", "In vivo, e.g. mice, it did not.", "3 of 4 died!", "What now?", "Unfinished"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Sentences = %q, want %q", got, want)
	}
}

func TestBadOptions(t *testing.T) {
	src := []corpus.Document{{ID: "a", Text: "x"}}
	for _, o := range []Options{{Chunks: -1}, {Teams: 2}, {Chunking: chunk.Settings{MaxTokens: 4}}} {
		if _, err := Generate(src, o, func(corpus.Document) error { return nil }); err == nil {
			t.Errorf("Generate(%+v) = nil error", o)
		}
	}
	if _, err := Generate(src, Options{Chunks: 10}, func(corpus.Document) error { return nil }); err == nil || !strings.Contains(err.Error(), "sentences") {
		t.Errorf("Generate from one short document = %v, want an error about too few sentences", err)
	}
}
