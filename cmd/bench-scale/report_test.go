package main

import (
	"context"
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"testing"
)

func sampleReport() Report {
	nd := 0.68
	run := func(backend string, scale float64) Run {
		return Run{Backend: backend, BuildS: 10, IndexBytes: 64 << 20, WorkerRSS: 300 << 20, WorkerHWM: 400 << 20,
			Search: []Search{
				{Mode: "bm25", Caller: callerAll, P50MS: 2 * scale, P99MS: 9, NDCG10: &nd},
				{Mode: "bm25", Caller: "team-07", P50MS: 3 * scale, P99MS: 9},
				{Mode: "hybrid+rerank", Caller: callerAll, P50MS: 5 * scale, P99MS: 20, NDCG10: &nd},
			},
			E2E: []E2E{{Concurrency: 1, PerSecond: 30, P50MS: 25}, {Concurrency: 8, PerSecond: 60, P50MS: 120, Errors: 2}},
		}
	}
	return Report{Schema: Schema, Callers: []string{callerAll, "team-07"}, K: 100, Sizes: []Size{
		{Chunks: 6250, Documents: 5183, Visible: map[string]int{"team-07": 102}, Lucene: &Lucene{P50MS: 1, P99MS: 3, NDCG10: 0.67},
			Backends: []Run{run(Bleve, 1), withVectors(run(RediSearch, 2), "HNSW (hnsw+small-flat: 3 ACL groups with an index of their own, 1 of them FLAT)")}},
		{Chunks: 51000, Documents: 50000, Visible: map[string]int{"team-07": 1000}, Lucene: &Lucene{P50MS: 2, P99MS: 5},
			Backends: []Run{run(Bleve, 8), {Backend: RediSearch, Errors: []string{"build: boom"}}}},
	}}
}

func withVectors(r Run, v string) Run {
	r.Vectors = v
	return r
}

func TestMarkdownTable(t *testing.T) {
	var b strings.Builder
	sampleReport().markdown(&b)
	md := b.String()
	var rows []string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	for _, r := range rows {
		if n := strings.Count(r, "|"); n != 6 { // measure + 4 columns
			t.Errorf("row with %d cells, want 5: %s", n-1, r)
		}
	}
	tableHas(t, md,
		"| measure | 6,250 chunks, bleve | 6,250 chunks, redisearch | 51,000 chunks, bleve | 51,000 chunks, redisearch |",
		"| bm25 p50, restricted ÷ full (team-07) | ×1.50 | ×1.50 | ×1.50 | — |",
		"| bm25 p50 ÷ Lucene p50 (full access) | ×2.0 | ×4.0 | ×8.0 | — |",
		"| end to end, anonymous, 8 in flight: q/s (p50 ms) | 60.0 (120), 2 errors |",
		"| build, s (chunks/s) | 10.0 (625) |",
		"| vectors, as the build reported them | — | HNSW (hnsw+small-flat: 3 ACL groups with an index of their own, 1 of them FLAT) | — | — |",
		"- 51000 chunks, redisearch: build: boom",
	)
}

// tableHas fails t for each of wants that md does not contain.
func tableHas(t *testing.T, md string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
}

func TestScalingSVG(t *testing.T) {
	var b strings.Builder
	sampleReport().svg(&b)
	svg := b.String()
	dec := xml.NewDecoder(strings.NewReader(svg))
	lines := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	// Lucene, then bleve and redisearch × (bm25 all, bm25 team, hybrid+rerank all).
	if lines != 7 {
		t.Errorf("%d lines, want 7", lines)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 51641: "51,641", 500000: "500,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestBackendsFlag(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{"-backends lucene", `-backends: "lucene" is not a backend`},
		{"-backends redisearch", "nothing to measure (redisearch needs -redisearch)"},
	} {
		err := run(context.Background(), strings.Fields(c.args), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.args, err, c.want)
		}
	}
}

// TestReadCPUInfo reads the model, family and vector features of the
// first processor only, and says when AVX-512 VPOPCNTDQ is missing.
func TestReadCPUInfo(t *testing.T) {
	const info = `processor	: 0
vendor_id	: AuthenticAMD
cpu family	: 23
model		: 1
model name	: AMD EPYC
flags		: fpu sse2 popcnt avx avx2 bmi2
processor	: 1
cpu family	: 25
model		: 17
flags		: popcnt avx2 avx512f avx512bw avx512_vpopcntdq
`
	var m Machine
	m.readCPUInfo(strings.NewReader(info))
	if m.CPUModel != "AMD EPYC" || m.CPUFamily != "family 23 model 1" || !slices.Equal(m.CPUFeatures, []string{"popcnt", "avx2"}) {
		t.Fatalf("got %q, %q, %q", m.CPUModel, m.CPUFamily, m.CPUFeatures)
	}
	if got, want := m.cpuWords(), "AMD EPYC, family 23 model 1; popcnt avx2; no AVX-512 VPOPCNTDQ"; got != want {
		t.Fatalf("cpuWords %q, want %q", got, want)
	}
	var z Machine
	z.readCPUInfo(strings.NewReader("processor : 0\ncpu family : 25\nmodel : 17\nmodel name : AMD EPYC\nflags : popcnt avx2 avx512f avx512bw avx512_vpopcntdq\n"))
	if got, want := z.cpuWords(), "AMD EPYC, family 25 model 17; popcnt avx2 avx512f avx512bw avx512_vpopcntdq"; got != want {
		t.Fatalf("cpuWords %q, want %q", got, want)
	}
	if got := (Machine{CPUModel: "AMD EPYC"}).cpuWords(); got != "AMD EPYC" {
		t.Fatalf("an older report's machine: %q", got)
	}
}

// TestCPUWordsNoVectorFlags: a CPU whose flags name none of vectorFlags
// is said so, not as an empty list (round 27's review: "; ; no AVX-512
// VPOPCNTDQ").
func TestCPUWordsNoVectorFlags(t *testing.T) {
	var m Machine
	m.readCPUInfo(strings.NewReader("processor : 0\ncpu family : 6\nmodel : 15\nmodel name : Old\nflags : fpu sse2\n"))
	if got, want := m.cpuWords(), "Old, family 6 model 15; none of popcnt avx2 avx512f avx512bw avx512_vpopcntdq"; got != want {
		t.Fatalf("cpuWords %q, want %q", got, want)
	}
}

// TestBuiltVectors: the vector layout is read off `assay index`'s summary
// line (the last "; vectors " of its output, to the line's end), an older
// binary's bare algorithm too, and nothing from an output that names none
// (a bleve build).
func TestBuiltVectors(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"documents by ACL: public 3; ...\nbuilt RediSearch index \"scale\" version 1\n  6 documents, 6 chunks (schema 6); vectors HNSW (hnsw+small-flat: 2 ACL groups with an index of their own, 1 of them FLAT)\n", "HNSW (hnsw+small-flat: 2 ACL groups with an index of their own, 1 of them FLAT)"},
		{"  6 documents, 6 chunks; vectors HNSW\n", "HNSW"},
		{"  6 documents, 6 chunks; vectors FLAT", "FLAT"},
		{"built bleve index in /tmp/x\n", ""},
	} {
		if got := builtVectors(c.out); got != c.want {
			t.Errorf("builtVectors(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}
