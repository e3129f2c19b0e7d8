package live

import (
	"context"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// synonymer is a thesaurus that also tells a word's synonyms alone, without
// the attribute and derivation links Related follows (thesaurus.WordNet).
type synonymer interface {
	Synonyms(word string) []string
}

// maxExpansions bounds the synonyms one query word adds.
const maxExpansions = 2

// expand adds to query, for each of its words no chunk the asker may see
// holds, up to maxExpansions one-word synonyms the thesaurus knows and
// those chunks do hold, most used first ("guarantee" → "warranty"): a word
// no visible chunk has matches nothing, so only its visible synonyms can
// find the passage that answers. The query's own words are all kept, in
// order. Never expanded: codes (a word with a digit), question words and
// the words that only frame what the question asks (answertype: "how fast
// ... spin" asks for a speed; the frame is not its topic). With a
// thesaurus that cannot tell synonyms alone, its related words are used.
// It returns the expanded query and the substitutions made
// ("guarantee→warranty"), none when nothing was added. Everything comes
// from vocab, the asker's visible vocabulary.
func expand(an *terms.Analyzer, th assess.Thesaurus, vocab backend.TermCounts, query string) (string, []string) {
	if th == nil {
		return query, nil
	}
	related := th.Related
	if sy, ok := th.(synonymer); ok {
		related = sy.Synonyms
	}
	frame := map[string]bool{}
	for _, w := range answertype.Classify(query).Frame {
		frame[w] = true
	}
	inQuery := an.Set(query)
	var extra, why []string
	done := map[string]bool{}
	for _, raw := range strings.Fields(query) {
		w := strings.ToLower(strings.TrimFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		ts := an.Terms(w)
		if len(ts) != 1 || done[ts[0]] || frame[w] || strings.IndexFunc(w, unicode.IsDigit) >= 0 || terms.IsQuestionWord(ts[0]) || vocab.DocFreq(ts[0]) > 0 {
			continue
		}
		done[ts[0]] = true
		type cand struct {
			word string
			df   int
		}
		var cands []cand
		seen := map[string]bool{}
		for _, r := range related(w) {
			rt := an.Terms(r)
			if strings.ContainsAny(r, " _-") || len(rt) != 1 || inQuery[rt[0]] || seen[rt[0]] {
				continue // a phrase, several terms, or a word the query already has
			}
			if df := vocab.DocFreq(rt[0]); df > 0 {
				seen[rt[0]] = true
				cands = append(cands, cand{r, df})
			}
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].df > cands[j].df })
		var words []string
		for i := 0; i < len(cands) && i < maxExpansions; i++ {
			words = append(words, cands[i].word)
			inQuery[an.Terms(cands[i].word)[0]] = true
		}
		if len(words) > 0 {
			extra = append(extra, words...)
			why = append(why, w+"→"+strings.Join(words, "/"))
		}
	}
	if len(extra) == 0 {
		return query, nil
	}
	return query + " " + strings.Join(extra, " "), why
}

// withExpansion runs req and, when its query has words no chunk the asker
// may see holds and the thesaurus knows visible synonyms of them (expand),
// also the expanded query, and gives the expanded search's best hit the
// question's own words did not rank above the last place that place: the
// hits before it keep their order, so a passage only the documents' words
// find reaches the assessor without reordering what the question's words
// found. The trace's "expand" stage says which words were searched for
// which and which hit took the last place. A failed expanded search
// leaves the result as the question's words made it.
func withExpansion(ctx context.Context, s *retrieval.Retriever, an *terms.Analyzer, th assess.Thesaurus, vocab backend.TermCounts, req retrieval.Request) (retrieval.Result, error) {
	res, err := s.Search(ctx, req)
	if err != nil || th == nil || an == nil || req.K < 2 {
		return res, err
	}
	start := time.Now()
	q, why := expand(an, th, vocab, req.Query)
	if len(why) == 0 {
		return res, nil
	}
	note := "words no document you can see uses, searched also with their synonyms that they do use: " + strings.Join(why, ", ")
	xreq := req
	xreq.Query = q
	xres, xerr := s.Search(ctx, xreq)
	switch {
	case xerr != nil:
		note += "; that search failed, the results are the question's own"
	case len(res.Hits) >= req.K-1:
		kept := map[string]bool{}
		for _, h := range res.Hits[:req.K-1] {
			kept[h.ChunkID] = true
		}
		for _, h := range xres.Hits {
			if kept[h.ChunkID] {
				continue
			}
			if len(res.Hits) >= req.K && res.Hits[req.K-1].ChunkID == h.ChunkID {
				note += "; the last place is already its best new hit"
			} else {
				res.Hits = append(res.Hits[:req.K-1:req.K-1], h)
				note += "; the last place goes to its best new hit: " + h.ChunkID
			}
			break
		}
	}
	res.Stages = append([]retrieval.Stage{{Name: "expand", Millis: float64(time.Since(start).Microseconds()) / 1000, Note: note}}, res.Stages...)
	return res, nil
}
