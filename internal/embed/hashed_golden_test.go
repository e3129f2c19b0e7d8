package embed

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// embedV2Reference is the builtin embedder as it was when
// builtin:hashed-ngrams-v2 was defined (a map per text, bleve's whole
// English analyzer, a string per token), kept as the reference the
// faster embed must match. ordered says how the features are summed into
// the vector: true, in the order they first occur, as embed does; false,
// in the map's iteration order, as the old code did — a random order, so
// the old code's vectors varied in their last bits from call to call.
func embedV2Reference(tb testing.TB, h *Hashed, text string, ordered bool) []float32 {
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		tb.Fatal(err)
	}
	feats := map[uint64]float64{}
	var order []uint64
	add := func(k uint64, w float64) {
		if _, ok := feats[k]; !ok {
			order = append(order, k)
		}
		feats[k] += w
	}
	toks := an.Analyze([]byte(text))
	var prev []byte
	prevIDF := 0.0
	var bounds []int
	for _, tok := range toks {
		t := tok.Term
		w, err := h.idf(string(t))
		if err != nil {
			tb.Fatal(err)
		}
		add(fnvAdd(fnvAdd(fnvKind('w'), t), nil), w)
		if prev != nil {
			k := fnvAdd(fnvAdd(fnvAdd(fnvKind('b'), prev), []byte{' '}), t)
			add(k, h.bigram*(w+prevIDF)/2)
		}
		prev, prevIDF = t, w
		raw := []byte("<" + strings.ToLower(text[tok.Start:tok.End]) + ">")
		if utf8.RuneCount(raw) < 6 || h.isStop(string(raw[1:len(raw)-1])) {
			continue
		}
		bounds = bounds[:0]
		for i := range string(raw) {
			bounds = append(bounds, i)
		}
		bounds = append(bounds, len(raw))
		runes := len(bounds) - 1
		grams := 0
		for n := 3; n <= 5; n++ {
			grams += max(0, runes-n+1)
		}
		gw := h.chars * w / float64(grams)
		for n := 3; n <= 5; n++ {
			for i := 0; i+n <= runes; i++ {
				add(fnvAdd(fnvKind('c'), raw[bounds[i]:bounds[i+n]]), gw)
			}
		}
	}
	if !ordered {
		order = order[:0]
		for x := range feats {
			order = append(order, x)
		}
	}
	v := make([]float64, h.dim)
	for _, x := range order {
		c := feats[x]
		w := c
		if c > 1 {
			w = 1 + math.Log(c)
		}
		if x>>63 == 1 {
			w = -w
		}
		v[x%uint64(h.dim)] += w
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, h.dim)
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// goldenTexts exercise the embedder's paths: ASCII and not (the rune
// path, a lowercase that changes length, Greek final sigma), stop words
// and possessives, words too short for n-grams, digits, invalid UTF-8,
// repeated words (sublinear weights), and empty input.
var goldenTexts = []string{
	"how do I descale the kettle",
	"Descaling kettles: remove limescale with citric acid",
	"The repair centre is moving from Cleckheaton to Wakefield",
	"Müller's Straße-Café served crème brûlée; ΟΔΥΣΣΕΥΣ and İstanbul's ȺȾ",
	"the THE The and of to in it is a an",
	"Blender X200 X300 Pro 2-year warranty, 5 years for motors (2026-03-01).",
	"bad utf-8: \xff\xfe caf\xc3 and \xe2\x82 done",
	"relational conditional rational national nationalization organization organizations",
	"word word word word word word word word word word word word",
	"",
}

// goldenV2 are the sha256 of each goldenTexts vector's float32 bits
// (little-endian) at dimension 768, summed in first-occurrence order:
// computed with embedV2Reference(ordered) on the v2 code (2026-12-01).
var goldenV2 = []string{
	"1afa107be2d2c1b72158df11266c626f25840c9e3fbbcab33de7c068009e371b",
	"688a93241ab3003f63cd7719643e7c938e512df4eb2303572df9b03c88cdce23",
	"af5911a081a48672308a5821887edfd9375d9570fb95a1e5b0b5b2e1b6c413ef",
	"e3b20fd6210d7c4d07bdaecd824a22a9a3a3642277e16464684c9049bf11be20",
	"e80232b4d18d0bb7e794be263ba937626f383f9917d4b8a737ba893a8f752293",
	"9796a926a4572dbfcf96ef7d042e6b47b1548504090c7c621a67df045716bed4",
	"826efef4a3c79c8b8d3b6a46334e2bb85240e426b60da915cd93482c0b462edc",
	"ae01e2d8602b21b42ee565230fb3b233b16254f11a9dd96446dc81e95c6f8acc",
	"ce0a92db4ed124b5978542de149f8e0e0051e377e78d54cfb28bc90d5fadb817",
	"e80232b4d18d0bb7e794be263ba937626f383f9917d4b8a737ba893a8f752293",
}

func vecHash(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestHashedMatchesV2 holds embed to builtin:hashed-ngrams-v2: every bit
// of the reference's vector (summed in the same order) on the golden
// texts and the test corpora, frozen hashes of the golden texts' vectors,
// and within float rounding of the old code's randomly ordered sums.
func TestHashedMatchesV2(t *testing.T) {
	texts := append(append([]string{}, goldenTexts...), benchTexts(t)...)
	for _, dim := range []int{DefaultHashedDim, 256} {
		h, err := NewHashed(dim)
		if err != nil {
			t.Fatal(err)
		}
		maxDiff := 0.0
		for i, text := range texts {
			got, _ := h.Embed(t.Context(), []string{text})
			want := embedV2Reference(t, h, text, true)
			for j := range want {
				if math.Float32bits(got[0][j]) != math.Float32bits(want[j]) {
					t.Fatalf("dim %d, text %d %.40q: component %d = %v, want %v (reference)", dim, i, text, j, got[0][j], want[j])
				}
			}
			if dim == DefaultHashedDim && i < len(goldenV2) {
				if g := vecHash(got[0]); g != goldenV2[i] {
					t.Errorf("text %d %.40q: vector hash %s, want %s (golden)", i, text, g, goldenV2[i])
				}
			}
			old := embedV2Reference(t, h, text, false)
			for j := range old {
				maxDiff = max(maxDiff, math.Abs(float64(old[j])-float64(got[0][j])))
			}
		}
		if maxDiff > 1e-6 {
			t.Errorf("dim %d: a component differs from the old code's by %g, want rounding only (≤ 1e-6)", dim, maxDiff)
		}
		t.Logf("dim %d: %d texts bit-identical to the reference; largest difference from the old code's random-order sums %g", dim, len(texts), maxDiff)
	}
	if len(goldenV2) != len(goldenTexts) {
		h, _ := NewHashed(DefaultHashedDim)
		for _, text := range goldenTexts {
			t.Logf("%q,", vecHash(embedV2Reference(t, h, text, true)))
		}
		t.Errorf("goldenV2 has %d hashes for %d texts", len(goldenV2), len(goldenTexts))
	}
}

// TestHashedIDFMatchesV2 is TestHashedMatchesV2 for the IDF-weighted
// embedder (weights from a vocabulary rather than 1).
func TestHashedIDFMatchesV2(t *testing.T) {
	h, err := NewHashedIDF(DefaultHashedDim, tinyVocab{}, "abc")
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range append(append([]string{}, goldenTexts...), benchTexts(t)...) {
		got, _ := h.Embed(t.Context(), []string{text})
		want := embedV2Reference(t, h, text, true)
		for j := range want {
			if math.Float32bits(got[0][j]) != math.Float32bits(want[j]) {
				t.Fatalf("text %d %.40q: component %d = %v, want %v (reference)", i, text, j, got[0][j], want[j])
			}
		}
	}
}

// TestHashedBitDeterministic embeds the test corpus repeatedly, several
// texts at once, and wants the same bits every time (the old code's map
// order changed the last bits of 1,169 of SciFact's 5,183 abstracts
// between two calls).
func TestHashedBitDeterministic(t *testing.T) {
	texts := benchTexts(t)
	h, err := NewHashed(DefaultHashedDim)
	if err != nil {
		t.Fatal(err)
	}
	first, err := h.Embed(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, _ := h.Embed(t.Context(), texts)
		for i := range first {
			for j := range first[i] {
				if math.Float32bits(first[i][j]) != math.Float32bits(again[i][j]) {
					t.Fatalf("text %d %.40q: component %d is %v, then %v", i, texts[i], j, first[i][j], again[i][j])
				}
			}
		}
	}
}
