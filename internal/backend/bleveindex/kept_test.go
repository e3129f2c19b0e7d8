package bleveindex

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
)

// keptChunks are Hollin's chunks as the default chunker splits them, the
// first 1,500 of SciFact's abstracts when SciFact is there, and a few
// edge cases: no title, no text, only stop words, a non-English script,
// invalid UTF-8 (not kept: the chunk store's JSON would change it).
func keptChunks(t *testing.T) []corpus.Chunk {
	t.Helper()
	docs, err := corpus.LoadJSONL(hollinCorpus)
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "data", "scifact")
	}
	if sf, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl")); err == nil {
		docs = append(docs, sf[:min(len(sf), 1500)]...)
	} else {
		t.Logf("SciFact not available (set ASSAY_SCIFACT_DIR): Hollin only: %v", err)
	}
	ch, err := chunk.New(chunk.Default())
	if err != nil {
		t.Fatal(err)
	}
	chunks := ch.SplitAll(docs)
	for i, text := range []string{"", "the of and", "Ärger über 12,5 % — 東京 タワー", "bad \xff byte", "x"} {
		d := corpus.Document{ID: "edge-" + string(rune('a'+i)), Title: []string{"", "Edge case", "", "t", ""}[i], Text: text}
		chunks = append(chunks, corpus.NewChunk(&d, 0, text))
	}
	return chunks
}

// TestKeptTermsEqualAnalysis: every chunk's kept terms are what the
// reranker's analysis of its title and text (read back from the index)
// gives, with the en analyzer and with the standard one (whose postings
// are not the kept terms); a chunk whose text is not valid UTF-8 has
// none.
func TestKeptTermsEqualAnalysis(t *testing.T) {
	chunks := keptChunks(t)
	an := terms.NewUncached()
	for _, analyzer := range []string{"en", "standard"} {
		t.Run(analyzer, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ix")
			if _, _, err := Build(context.Background(), dir, chunks, backend.BuildOptions{Checksum: "x", Chunking: "default", Analyzer: analyzer}); err != nil {
				t.Fatal(err)
			}
			ix := open(t, dir)
			ids := make([]string, len(chunks))
			for i := range chunks {
				ids[i] = chunks[i].ID
			}
			back, err := ix.Chunks(context.Background(), ids)
			if err != nil {
				t.Fatal(err)
			}
			var kept, none int
			for _, c := range back {
				got := ix.Terms(c.ID)
				if strings.Contains(c.Text, "\ufffd") {
					if got != nil {
						t.Errorf("%s (invalid UTF-8 at build): kept terms %q, want none", c.ID, got)
					}
					none++
					continue
				}
				want := an.Terms(c.Title + "\n" + c.Text)
				if got == nil || !slices.Equal(got, want) {
					t.Errorf("%s: kept terms\n%q\nwant\n%q", c.ID, got, want)
				}
				kept++
			}
			if none != 1 || kept != len(chunks)-1 {
				t.Errorf("kept %d, none %d of %d chunks; want all but the invalid one", kept, none, len(chunks))
			}
			if got := ix.Terms("no-such-chunk"); got != nil {
				t.Errorf("Terms(unknown) = %q, want nil", got)
			}
			var _ backend.TermSource = ix
		})
	}
}

// builtKept builds Hollin's chunks into an index and returns them, its
// directory and its chunks.terms as written.
func builtKept(t *testing.T) ([]corpus.Chunk, string, []byte) {
	t.Helper()
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	whole, err := os.ReadFile(filepath.Join(dir, keptFile))
	if err != nil {
		t.Fatal(err)
	}
	return chunks, dir, whole
}

// TestKeptTermsOldIndex: an index without chunks.terms (built before
// round 29) opens and keeps no terms (the reranker analyses its
// candidates, as before); a damaged file is an error that says to
// rebuild.
func TestKeptTermsOldIndex(t *testing.T) {
	chunks, dir, whole := builtKept(t)
	path := filepath.Join(dir, keptFile)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	ix := open(t, dir)
	if got := ix.Terms(chunks[0].ID); got != nil {
		t.Errorf("without %s: Terms = %q, want nil", keptFile, got)
	}
	ix.Close()
	for name, b := range map[string][]byte{
		"truncated": whole[:len(whole)-1],
		"short":     whole[:10],
		"magic":     append([]byte("xxxxxxxx"), whole[8:]...),
	} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir)
		if !errs.Is(errs.Invalid, err) || !strings.Contains(err.Error(), "rebuild it") {
			t.Errorf("%s %s: Open error = %v, want Invalid saying rebuild it", name, keptFile, err)
		}
	}
}

// addKeptTerms writes chunks.terms into an index built before round 29,
// from its chunk store, as a rebuild would write it
// (TestAddKeptTermsEqualsBuild): for measuring an old index with and
// without the file without rebuilding it (the round 29 500k sitting).
func addKeptTerms(dir string) error {
	m, err := readManifest(dir)
	if err != nil {
		return err
	}
	s, err := openStore(dir, m.Chunks)
	if err != nil {
		return err
	}
	defer s.close()
	kw, err := newKeptWriter(dir, m.Chunks)
	if err != nil {
		return err
	}
	defer kw.abort()
	an := terms.NewUncached()
	for i := range m.Chunks {
		c, err := s.chunk(i)
		if err != nil {
			return err
		}
		if err := kw.add(&c, an.Terms(c.Title+"\n"+c.Text)); err != nil {
			return err
		}
	}
	return kw.finish()
}

// TestAddKeptTermsEqualsBuild: addKeptTerms on an index without the file
// writes the file the build wrote, byte for byte.
func TestAddKeptTermsEqualsBuild(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	path := filepath.Join(dir, keptFile)
	built, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := addKeptTerms(dir); err != nil {
		t.Fatal(err)
	}
	added, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(added, built) {
		t.Errorf("addKeptTerms wrote %d bytes, the build %d: not the same file", len(added), len(built))
	}
}

// TestAddKeptTermsTo adds chunks.terms to the index named by
// ASSAY_ADD_KEPT_TERMS (a measuring tool, skipped without it).
func TestAddKeptTermsTo(t *testing.T) {
	dir := os.Getenv("ASSAY_ADD_KEPT_TERMS")
	if dir == "" {
		t.Skip("set ASSAY_ADD_KEPT_TERMS to an index directory")
	}
	start := time.Now()
	if err := addKeptTerms(dir); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s written in %v", filepath.Join(dir, keptFile), time.Since(start))
}

// TestKeptTermsDamaged: a chunks.terms damaged in place (one bit of a
// record or of an offset flipped, the length unchanged) never gives a
// chunk wrong terms: a damaged record gives none (the reranker analyses
// the chunk), the others still theirs. Without the records' checksums, one
// flipped bit gave wrong terms, read without an error, in most trials
// (rv29); the reranker records kept terms in the analysis cache, so the
// assessor and the generator would have read them too.
func TestKeptTermsDamaged(t *testing.T) {
	chunks, dir, whole := builtKept(t)
	path := filepath.Join(dir, keptFile)
	ix := open(t, dir)
	want := make(map[string][]string, len(chunks))
	for _, c := range chunks {
		if want[c.ID] = ix.Terms(c.ID); want[c.ID] == nil {
			t.Fatalf("%s: no kept terms in the undamaged file", c.ID)
		}
	}
	ix.Close()
	head := len(keptMagic) + 8*(len(chunks)+1)
	r := rand.New(rand.NewPCG(29, 29))
	var none int
	for trial := range 200 {
		b := slices.Clone(whole)
		at := head + r.IntN(len(b)-head) // a record's byte
		if trial%2 == 1 {
			at = len(keptMagic) + r.IntN(8*len(chunks)) // an offset's (not the last)
		}
		b[at] ^= 1 << r.IntN(8)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ix, err := Open(dir)
		if err != nil {
			t.Fatalf("trial %d (byte %d): %v", trial, at, err)
		}
		refused := 0
		for _, c := range chunks {
			switch got := ix.Terms(c.ID); {
			case got == nil:
				refused++
			case !slices.Equal(got, want[c.ID]):
				t.Errorf("trial %d (byte %d flipped): %s's kept terms\n%q\nwant\n%q", trial, at, c.ID, got, want[c.ID])
			}
		}
		if got := ix.kept.damaged.Load(); got != int64(refused) {
			t.Errorf("trial %d (byte %d flipped): %d records refused, %d counted damaged", trial, at, refused, got)
		}
		none += refused
		ix.Close()
	}
	if none == 0 {
		t.Error("no damaged record was refused: the test damages nothing")
	}
}

// TestKeptTermsDamagedLogged: a damaged record is logged once, naming
// the file, however often it is read.
func TestKeptTermsDamagedLogged(t *testing.T) {
	chunks, dir, whole := builtKept(t)
	path := filepath.Join(dir, keptFile)
	b := slices.Clone(whole)
	b[len(b)-1] ^= 1 // the last record's checksum
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	was := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(was)
	ix := open(t, dir)
	var refused []string
	for _, c := range chunks {
		if ix.Terms(c.ID) == nil {
			refused = append(refused, c.ID)
		}
	}
	if len(refused) != 1 {
		t.Fatalf("refused %q, want the one record whose checksum is wrong", refused)
	}
	for range 2 {
		if got := ix.Terms(refused[0]); got != nil {
			t.Fatalf("%s: kept terms %q from a record whose checksum is wrong", refused[0], got)
		}
	}
	if got := ix.kept.damaged.Load(); got != 3 {
		t.Errorf("damaged = %d, want 3", got)
	}
	if n := strings.Count(buf.String(), "damaged kept-terms record"); n != 1 || !strings.Contains(buf.String(), path) {
		t.Errorf("logged %d times (want once, naming %s):\n%s", n, path, buf.String())
	}
}

// TestKeptTermsV1: a chunks.terms of round 29's first format (records
// without checksums) opens as none kept, as an index built before round
// 29 does; rebuilding writes the current format.
func TestKeptTermsV1(t *testing.T) {
	chunks, dir, whole := builtKept(t)
	path := filepath.Join(dir, keptFile)
	if string(whole[:len(keptMagic)]) != keptMagic {
		t.Fatalf("a build wrote magic %q, want %q", whole[:len(keptMagic)], keptMagic)
	}
	if err := os.WriteFile(path, append([]byte(keptMagicV1), whole[len(keptMagicV1):]...), 0o644); err != nil {
		t.Fatal(err)
	}
	ix := open(t, dir)
	if got := ix.Terms(chunks[0].ID); got != nil {
		t.Errorf("with a %s file: Terms = %q, want nil", keptMagicV1, got)
	}
}
