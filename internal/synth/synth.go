// Package synth makes deterministic synthetic corpora of any size from a
// BEIR dataset, for scale benchmarks. The dataset's documents are kept as
// they are (same ids, same text), so its judged queries keep their
// answers; the rest of the corpus is distractor documents built from the
// dataset's own sentences, shuffled across documents, each short enough to
// be one chunk. Every document gets a realistic ACL: a few large groups
// and many small teams.
package synth

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
)

// The ACL groups: PublicGroup (corpus.PublicGroup) on about half of the
// documents, StaffGroup on about a quarter, and every document visible to
// one to three teams, TeamGroup(0) .. TeamGroup(Teams-1).
const (
	StaffGroup = "staff"
	// DefaultTeams is how many small teams the ACLs name.
	DefaultTeams = 100
	// DefaultSeed seeds the generator when Options.Seed is zero.
	DefaultSeed = 20
	// GeneratedPrefix starts every generated document's id.
	GeneratedPrefix = "synth-"
)

// Shares of documents that carry the large groups.
const (
	publicShare = 0.5
	staffShare  = 0.25
	maxTeams    = 3
)

// Sentences per generated document: at least minSentences, at most
// maxSentences, and never more words than the chunk window allows.
const (
	minSentences = 3
	maxSentences = 8
)

// TeamGroup names team i: team-00 .. team-99.
func TeamGroup(i int) string { return fmt.Sprintf("team-%02d", i) }

// Options say how big a corpus to make and how.
type Options struct {
	// Chunks is the target size N in chunks under Chunking. The corpus
	// has max(N, chunks of the source documents) chunks: the source
	// documents are always all kept.
	Chunks int
	// Seed makes the corpus; the same source, seed and options give the
	// same corpus, byte for byte. Zero means DefaultSeed.
	Seed uint64
	// Teams is how many small teams the ACLs draw from; zero means
	// DefaultTeams.
	Teams int
	// Chunking is the chunker the size is counted with; the zero value
	// means chunk.Default(), the project's default.
	Chunking chunk.Settings
}

func (o Options) normalized() (Options, error) {
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Teams == 0 {
		o.Teams = DefaultTeams
	}
	if o.Chunking == (chunk.Settings{}) {
		o.Chunking = chunk.Default()
	}
	switch {
	case o.Chunks < 0:
		return o, fmt.Errorf("synth: chunks: want >= 0, got %d", o.Chunks)
	case o.Teams < maxTeams || o.Teams > 1000:
		return o, fmt.Errorf("synth: teams: want %d..1000, got %d", maxTeams, o.Teams)
	}
	return o, o.Chunking.Validate()
}

// Stats describe a generated corpus.
type Stats struct {
	Seed      uint64 `json:"seed"`
	Target    int    `json:"target_chunks"`
	Documents int    `json:"documents"`
	Chunks    int    `json:"chunks"`
	// Original is how many documents came from the source unchanged, and
	// OriginalChunks how many chunks they make.
	Original       int `json:"original_documents"`
	OriginalChunks int `json:"original_chunks"`
	Generated      int `json:"generated_documents"`
	// GroupDocs counts the documents each group may see.
	GroupDocs map[string]int `json:"group_documents"`
}

// Generate emits the source documents (each with an ACL added) and then
// generated documents until the corpus holds opts.Chunks chunks, in a
// fixed order. emit may keep the document; an error from emit stops
// generation and is returned.
func Generate(src []corpus.Document, opts Options, emit func(corpus.Document) error) (Stats, error) {
	opts, err := opts.normalized()
	if err != nil {
		return Stats{}, err
	}
	if len(src) == 0 {
		return Stats{}, errors.New("synth: the source corpus has no documents")
	}
	ch, err := chunk.New(opts.Chunking)
	if err != nil {
		return Stats{}, err
	}
	// Two streams from one seed: ACLs and text do not disturb each other,
	// so changing how text is drawn leaves every ACL where it was.
	aclRNG := rand.New(rand.NewPCG(opts.Seed, 1))
	textRNG := rand.New(rand.NewPCG(opts.Seed, 2))
	st := Stats{Seed: opts.Seed, Target: opts.Chunks, GroupDocs: map[string]int{}}
	out := func(d corpus.Document, chunks int) error {
		d.ACL = drawACL(aclRNG, opts.Teams)
		for _, g := range d.ACL {
			st.GroupDocs[g]++
		}
		st.Documents++
		st.Chunks += chunks
		return emit(d)
	}

	var pool []string // every source sentence short enough to use
	var titles []string
	maxWords := opts.Chunking.MaxTokens
	for i := range src {
		d := src[i]
		d.ACL = nil
		n := len(ch.Split(&d))
		st.Original++
		st.OriginalChunks += n
		if err := out(d, n); err != nil {
			return st, err
		}
		if d.Title != "" {
			titles = append(titles, d.Title)
		}
		for _, s := range Sentences(d.Text) {
			if w := len(strings.Fields(s)); w > 0 && w <= maxWords/minSentences {
				pool = append(pool, s)
			}
		}
	}
	if st.Chunks >= opts.Chunks {
		return st, nil
	}
	if len(pool) < maxSentences {
		return st, fmt.Errorf("synth: the source corpus has only %d usable sentences, want at least %d", len(pool), maxSentences)
	}
	for i := 0; st.Chunks < opts.Chunks; i++ {
		d := corpus.Document{
			ID:        fmt.Sprintf("%s%07d", GeneratedPrefix, i),
			Text:      drawText(textRNG, pool, maxWords),
			Status:    corpus.Current,
			Authority: 1,
		}
		if len(titles) > 0 {
			d.Title = titles[textRNG.IntN(len(titles))]
		}
		st.Generated++
		if err := out(d, 1); err != nil {
			return st, err
		}
	}
	return st, nil
}

// drawACL gives a document its groups: public with probability
// publicShare, staff with staffShare, and one to three distinct teams.
func drawACL(r *rand.Rand, teams int) []string {
	var acl []string
	if r.Float64() < publicShare {
		acl = append(acl, corpus.PublicGroup)
	}
	if r.Float64() < staffShare {
		acl = append(acl, StaffGroup)
	}
	n := 1 + r.IntN(maxTeams)
	picked := make(map[int]bool, n)
	for len(picked) < n {
		picked[r.IntN(teams)] = true
	}
	// In team order, so the map's iteration order does not leak into
	// the output.
	for t := range teams {
		if picked[t] {
			acl = append(acl, TeamGroup(t))
		}
	}
	return acl
}

// drawText joins minSentences..maxSentences sentences drawn at random from
// the whole pool, stopping before the text would pass maxWords words (so
// the chunker keeps it whole).
func drawText(r *rand.Rand, pool []string, maxWords int) string {
	want := minSentences + r.IntN(maxSentences-minSentences+1)
	var b strings.Builder
	words := 0
	for n := 0; n < want; n++ {
		s := pool[r.IntN(len(pool))]
		w := len(strings.Fields(s))
		if words+w > maxWords {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
		words += w
	}
	return b.String()
}

// Sentences splits text after '.', '!' or '?' when the next word starts
// with a capital letter or a digit: good enough for abstracts, which is
// all it is used for.
func Sentences(text string) []string {
	fields := strings.Fields(text)
	var out []string
	start := 0
	for i, f := range fields {
		last, _ := utf8.DecodeLastRuneInString(f)
		if last != '.' && last != '!' && last != '?' {
			continue
		}
		if i+1 < len(fields) {
			next, _ := utf8.DecodeRuneInString(fields[i+1])
			if !unicode.IsUpper(next) && !unicode.IsDigit(next) {
				continue
			}
		}
		out = append(out, strings.Join(fields[start:i+1], " "))
		start = i + 1
	}
	if start < len(fields) {
		out = append(out, strings.Join(fields[start:], " "))
	}
	return out
}
