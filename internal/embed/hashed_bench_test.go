package embed

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// benchTexts are realistic chunk texts (title, newline, text, as
// backend.EmbedText joins them): SciFact's abstracts when ASSAY_SCIFACT=1
// (ASSAY_SCIFACT_DIR, default ../../../shared/data/scifact), otherwise
// the Hollin test corpus in the repository.
func benchTexts(tb testing.TB) []string {
	tb.Helper()
	path := filepath.Join("..", "..", "testdata", "hollin", "corpus.jsonl")
	if os.Getenv("ASSAY_SCIFACT") == "1" {
		dir := os.Getenv("ASSAY_SCIFACT_DIR")
		if dir == "" {
			dir = filepath.Join("..", "..", "..", "shared", "data", "scifact")
		}
		path = filepath.Join(dir, "corpus.jsonl")
	}
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r struct{ Title, Text string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatal(err)
		}
		texts = append(texts, r.Title+"\n"+r.Text)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return texts
}

// BenchmarkHashedEmbed is the builtin embedder's cost per text (one
// goroutine, so ns/op is CPU per chunk).
func BenchmarkHashedEmbed(b *testing.B) {
	texts := benchTexts(b)
	h, err := NewHashed(DefaultHashedDim)
	if err != nil {
		b.Fatal(err)
	}
	var bytes int64
	for _, t := range texts {
		bytes += int64(len(t))
	}
	b.SetBytes(bytes / int64(len(texts)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.embed(texts[i%len(texts)])
	}
}
