// Package chunk splits documents into chunks, the units of retrieval.
//
// Short documents stay whole. A document longer than the window is split on
// its structure: sections (the "#" heading lines that the corpus loaders
// produce for Markdown and HTML) first, then paragraphs (blank lines), then
// sentences; a sentence longer than the window is cut by words. Windows
// that were cut for size, not at a section, overlap by whole sentences.
// Every chunk keeps its document's metadata, and chunk ids are the document
// id plus the chunk's ordinal, so they are stable while the document is.
//
// Tokens here are whitespace-separated words, a documented estimate: a BPE
// tokenizer counts about 1.3 tokens per English word, more for scientific
// text. The window bounds retrieval units, not a model's context, so the
// estimate only needs to be stable.
package chunk

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// Settings bound chunk sizes, in words.
type Settings struct {
	// MaxTokens is the window: a document of at most this many words is
	// one chunk.
	MaxTokens int `json:"max_tokens"`
	// Overlap is how many words of trailing whole sentences a window cut
	// for size repeats from the one before it.
	Overlap int `json:"overlap"`
}

// Default is the measured default (see docs/retrieval.md):
// on SciFact train, 256/32 scored nDCG@10 0.6899 for BM25 against 0.6858
// for 400/40, 0.6850 for whole documents and 0.6883 for 128/16.
func Default() Settings { return Settings{MaxTokens: 256, Overlap: 32} }

// Version names the algorithm; it goes into index manifests with the
// settings, so an index chunked differently is detected as stale.
const Version = "structure-words-v1"

// Validate checks the settings; errors name the field.
func (s Settings) Validate() error {
	const op = "chunk.Settings"
	switch {
	case s.MaxTokens < 16 || s.MaxTokens > 8192:
		return errs.FieldError(op, "max_tokens", fmt.Sprintf("want 16..8192, got %d", s.MaxTokens))
	case s.Overlap < 0 || s.Overlap >= s.MaxTokens/2:
		return errs.FieldError(op, "overlap", fmt.Sprintf("want 0..max_tokens/2 (%d), got %d", s.MaxTokens/2-1, s.Overlap))
	}
	return nil
}

// String is the settings' manifest form.
func (s Settings) String() string {
	return fmt.Sprintf("%s max=%d overlap=%d", Version, s.MaxTokens, s.Overlap)
}

// Chunker splits documents. It is safe for concurrent use.
type Chunker struct {
	s Settings
}

// New returns a chunker, or an Invalid error naming the bad setting.
func New(s Settings) (*Chunker, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &Chunker{s: s}, nil
}

// Settings returns the chunker's settings.
func (c *Chunker) Settings() Settings { return c.s }

// Split returns d's chunks in order. It never returns an empty chunk list:
// a document with no text is one chunk with no text (its title still
// matches), which retrieval reports as a warning when it is retrieved.
func (c *Chunker) Split(d *corpus.Document) []corpus.Chunk {
	if countWords(d.Text) <= c.s.MaxTokens {
		return []corpus.Chunk{corpus.NewChunk(d, 0, d.Text)}
	}
	texts := c.windows(units(d.Text))
	out := make([]corpus.Chunk, len(texts))
	for i, t := range texts {
		out[i] = corpus.NewChunk(d, i, t)
	}
	return out
}

// SplitAll chunks every document, in order.
func (c *Chunker) SplitAll(docs []corpus.Document) []corpus.Chunk {
	out := make([]corpus.Chunk, 0, len(docs))
	for i := range docs {
		out = append(out, c.Split(&docs[i])...)
	}
	return out
}

// unit is a sentence (or a cut piece of a long one) with its place in the
// document's structure.
type unit struct {
	text    string
	words   int
	section int    // index of the section; a heading starts a new one
	block   int    // index of the paragraph, document-wide
	heading string // the section's heading line, "" before the first
}

// units splits text into sections, paragraphs and sentences.
func units(text string) []unit {
	var out []unit
	section, block := 0, -1
	heading := ""
	for _, para := range paragraphs(text) {
		block++
		if isHeading(para) {
			section++
			heading = para
			out = append(out, unit{text: para, words: countWords(para), section: section, block: block, heading: heading})
			continue
		}
		for _, s := range sentences(para) {
			out = append(out, unit{text: s, words: countWords(s), section: section, block: block, heading: heading})
		}
	}
	return out
}

// windows packs units into chunks of at most MaxTokens words.
func (c *Chunker) windows(us []unit) []string {
	var out []string
	var cur []unit
	words := 0
	for _, u := range c.cutLong(us) {
		if len(cur) > 0 {
			atSection := u.section != cur[len(cur)-1].section
			switch {
			case atSection && words >= c.s.MaxTokens/4:
				// a section boundary is the best place to cut; tiny
				// sections are packed with their neighbours instead
				out = append(out, join(cur))
				cur = c.start(nil, u)
			case words+u.words > c.s.MaxTokens:
				out = append(out, join(cur))
				cur = c.start(c.overlap(cur, u.section), u)
			}
			words = 0
			for _, x := range cur {
				words += x.words
			}
		}
		cur = append(cur, u)
		words += u.words
	}
	if len(cur) > 0 {
		out = append(out, join(cur))
	}
	return out
}

// start begins a window with the overlap seed; a window that starts inside
// a section carries the section's heading line, when it fits, so the chunk
// says what it is about.
func (c *Chunker) start(seed []unit, next unit) []unit {
	seedWords := 0
	for _, x := range seed {
		seedWords += x.words
	}
	if seedWords+next.words > c.s.MaxTokens {
		seed = nil // the overlap would push the window past its size
	}
	first := next
	if len(seed) > 0 {
		first = seed[0]
	}
	if first.heading == "" || first.text == first.heading {
		return seed
	}
	h := unit{text: first.heading, words: countWords(first.heading), section: first.section, block: -1, heading: first.heading}
	total := h.words + next.words
	for _, x := range seed {
		total += x.words
	}
	if total > c.s.MaxTokens {
		return seed
	}
	return append([]unit{h}, seed...)
}

// overlap returns the trailing whole sentences of prev, from the given
// section, that fit in the overlap budget; headings are not repeated.
func (c *Chunker) overlap(prev []unit, section int) []unit {
	n, words := 0, 0
	for i := len(prev) - 1; i >= 0; i-- {
		if prev[i].section != section || prev[i].text == prev[i].heading || words+prev[i].words > c.s.Overlap {
			break
		}
		words += prev[i].words
		n++
	}
	return append([]unit(nil), prev[len(prev)-n:]...)
}

// cutLong splits units longer than the window into window-sized pieces
// that overlap by Overlap words.
func (c *Chunker) cutLong(us []unit) []unit {
	limit := c.s.MaxTokens - 8 // room for a carried heading
	var out []unit
	for _, u := range us {
		if u.words <= limit {
			out = append(out, u)
			continue
		}
		f := strings.Fields(u.text)
		step := limit - c.s.Overlap
		for start := 0; start < len(f); start += step {
			end := min(start+limit, len(f))
			p := u
			p.text, p.words = strings.Join(f[start:end], " "), end-start
			out = append(out, p)
			if end == len(f) {
				break
			}
		}
	}
	return out
}

// join renders units: sentences of one paragraph with a space, paragraphs
// with a blank line.
func join(us []unit) string {
	var b strings.Builder
	for i, u := range us {
		if i > 0 {
			if u.block == us[i-1].block {
				b.WriteByte(' ')
			} else {
				b.WriteString("\n\n")
			}
		}
		b.WriteString(u.text)
	}
	return b.String()
}

// paragraphs splits on blank lines; a heading line is a paragraph of its
// own even without blank lines around it.
func paragraphs(text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \t\r")
		switch {
		case strings.TrimSpace(line) == "":
			flush()
		case isHeading(line):
			flush()
			out = append(out, line)
		default:
			cur = append(cur, line)
		}
	}
	flush()
	return out
}

func isHeading(s string) bool {
	if strings.Contains(s, "\n") {
		return false
	}
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && n < len(s) && s[n] == ' '
}

// abbreviations end with a period but do not end a sentence.
var abbreviations = map[string]bool{
	"e.g.": true, "i.e.": true, "etc.": true, "vs.": true, "al.": true, "fig.": true, "figs.": true,
	"dr.": true, "mr.": true, "mrs.": true, "ms.": true, "no.": true, "approx.": true, "ca.": true,
	"cf.": true, "eq.": true, "ref.": true, "st.": true, "inc.": true, "ltd.": true, "co.": true,
}

// sentences splits a paragraph after '.', '!' or '?' (and any closing
// quotes or brackets) when whitespace and an upper-case letter, a digit or
// an opening quote or bracket follow, except after a known abbreviation or
// a single initial.
func sentences(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		i += size
		if r != '.' && r != '!' && r != '?' {
			continue
		}
		end := i
		for end < len(p) && strings.ContainsRune(`"')]”’`, rune(p[end])) {
			end++
		}
		j := end
		for j < len(p) && (p[j] == ' ' || p[j] == '\t' || p[j] == '\n') {
			j++
		}
		if j == end || j >= len(p) {
			continue
		}
		next, _ := utf8.DecodeRuneInString(p[j:])
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune(`"'([“‘`, next) {
			continue
		}
		if r == '.' && isAbbreviation(p[start:i]) {
			continue
		}
		out = append(out, strings.TrimSpace(p[start:end]))
		start = j
		i = j
	}
	if rest := strings.TrimSpace(p[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

func isAbbreviation(s string) bool {
	k := strings.LastIndexAny(s, " \t\n")
	w := strings.ToLower(s[k+1:])
	if abbreviations[w] {
		return true
	}
	// a single initial such as "J." in "J. Smith"
	r, n := utf8.DecodeRuneInString(w)
	return n > 0 && len(w) == n+1 && unicode.IsLetter(r)
}

func countWords(s string) int { return len(strings.Fields(s)) }
