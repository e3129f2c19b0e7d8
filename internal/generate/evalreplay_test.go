package generate

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/internal/wire"
)

// TestEvalReplay gives the builtin extractive generators (v25, v26) what
// the loop gave its generator in recorded answer evaluations: for every
// question of a development set's report whose loop accepted evidence,
// the accepted attempt's documents in rank order (each document is one
// chunk of the Hollin corpus) and the chunk the accepting assessment
// names in its reason (its quoted title) as Request.Accepted. It prints
// right source, key facts, cited-document precision and refusals per
// version over the answerable questions, the no-answer questions each
// refuses, and every question whose answer differs.
//
//	GENERATEREPLAY=/work/scratch/ev/base19 go test ./internal/generate -run TestEvalReplay -v
//
// reads base19-SET.json for each development set but those named in
// GENERATEREPLAY_SKIP (comma-separated: a validation set kept unread).
// GENERATEREPLAY_SHOW=facts|extra|wrong|noanswer prints only the
// questions the newer version answers citing a relevant page without
// every key fact, citing a relevant page and one that is not, citing no
// relevant page, or answers though they have no answer.
// A reading aid: it asserts nothing.
func TestEvalReplay(t *testing.T) {
	prefix := os.Getenv("GENERATEREPLAY")
	if prefix == "" {
		t.Skip("GENERATEREPLAY=DIR/TAG replays recorded evaluations through the generators")
	}
	skip := strings.Split(os.Getenv("GENERATEREPLAY_SKIP"), ",")
	docs, chunks := hollinChunks(t)
	byDoc, byTitle := map[string]corpus.Chunk{}, map[string]string{}
	for _, c := range chunks {
		if _, dup := byDoc[c.DocID]; dup {
			t.Fatalf("%s has two chunks: the replay reads one per document", c.DocID)
		}
		byDoc[c.DocID] = c
	}
	for _, d := range docs {
		byTitle[d.Title] = d.ID
	}
	// the accepting reason's quoted title: at its start, after "of", or
	// (round 49) after a reading that precedes it ("retrieved by every
	// one of the run's 2 searches, "T" covers", "… takes something in, and
	// "T" covers")
	reTitle := regexp.MustCompile(`^"([^"]+)"|of "([^"]+)"|(?:, |and )"([^"]+)" covers`)
	an := terms.New()
	gens := []*Extractive{NewExtractiveV40(an), NewExtractiveV41(an)}
	// GENERATEREPLAY_THESAURUS=DIR: the generators read the thesaurus the
	// loop's assessor read (reports evaluated with WordNet)
	if dir := os.Getenv("GENERATEREPLAY_THESAURUS"); dir != "" {
		wn, err := thesaurus.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gens {
			g.UseThesaurus(wn)
		}
	}
	var why []string
	ruleOf := map[string]string{} // the newer version's chosen sentences: the rule that chose each first
	gens[1].explain = func(source int, text, rule string) {
		why = append(why, fmt.Sprintf("%d:%s:%.30q", source+1, rule, text))
		if _, ok := ruleOf[text]; !ok {
			ruleOf[text] = rule
		}
	}
	// GENERATEREPLAY_RULES=1: the newer version's answer sentences to
	// answerable questions with key facts, by the rule that chose them:
	// how many, and how many hold a key fact.
	byRule := map[string][2]int{}
	// GENERATEREPLAY_DUMP=FILE: every answerable question with key facts
	// the newer version answers, one JSON line each: its sentences with
	// the rule that chose each, the document it cites and whether it
	// holds a key fact, for reading the sentences without one by class.
	var dump *json.Encoder
	if f := os.Getenv("GENERATEREPLAY_DUMP"); f != "" {
		out, err := os.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		dump = json.NewEncoder(out)
	}
	var openOut *json.Encoder
	if f := os.Getenv("GENERATEREPLAY_OPEN"); f != "" {
		out, err := os.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		openOut = json.NewEncoder(out)
	}
	chk := NewChecker(an)
	total := make([]answerTally, len(gens))
	for _, name := range devsets.Names() {
		label := strings.TrimSuffix(filepath.Base(devsets.Questions(name)), ".jsonl")
		set := strings.TrimPrefix(label, "hollin-")
		if slices.Contains(skip, set) {
			continue
		}
		raw, err := os.ReadFile(prefix + "-" + set + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Questions []struct {
				ID, Question string
				Relevant     []string
				Loop         struct {
					Trajectory struct {
						Steps []struct {
							Docs     []string
							Accepted bool
							Reason   string
						}
					}
				}
			}
		}
		if err := json.Unmarshal(raw, &rep); err != nil {
			t.Fatal(err)
		}
		facts := devFacts(t, name)
		tallies := make([]answerTally, len(gens))
		for _, q := range rep.Questions {
			steps := q.Loop.Trajectory.Steps
			at := slices.IndexFunc(steps, func(s struct {
				Docs     []string
				Accepted bool
				Reason   string
			}) bool {
				return s.Accepted
			})
			if at < 0 {
				continue
			}
			step := steps[at]
			req := Request{Question: q.Question}
			for i, d := range step.Docs {
				req.Sources = append(req.Sources, Source{Label: wire.Label(i), Chunk: byDoc[d]})
			}
			if m := reTitle.FindStringSubmatch(step.Reason); m != nil {
				title := m[1] + m[2] + m[3]
				if id, ok := byTitle[title]; ok && os.Getenv("GENERATEREPLAY_NOACC") == "" {
					req.Accepted = []string{byDoc[id].ID}
				}
			}
			if openOut != nil {
				typ, infos := openings(gens[len(gens)-1], req)
				_ = openOut.Encode(map[string]any{"set": set, "id": q.ID, "type": typ, "question": q.Question, "relevant": q.Relevant, "accepted": req.Accepted, "open": infos})
			}
			if os.Getenv("GENERATEREPLAY_DEBUG") == set+":"+q.ID {
				debugSentences(t, gens[len(gens)-1], req)
			}
			why = why[:0]
			clear(ruleOf)
			var texts []string
			var marks []string // the newer version's answer: what it lacks
			for gi, g := range gens {
				ans, refused, err := generateChecked(g, chk, req)
				if err != nil {
					// counted as a refusal, as the loop's answer would be,
					// and said
					t.Logf("%s %s v%d: %v", label, q.ID, g.Version, err)
				}
				text, m := tallies[gi].count(q.Relevant, facts[q.ID], ans, refused || err != nil)
				if gi == len(gens)-1 && !refused && err == nil && len(q.Relevant) > 0 && len(facts[q.ID]) > 0 {
					type dumped struct {
						Text, Rule, Doc string
						On              bool
					}
					var sents []dumped
					for _, s := range citation.Split(ans.Text) {
						r := "?"
						for txt, rule := range ruleOf {
							if strings.HasPrefix(s.Text, txt) {
								r = rule
							}
						}
						c := byRule[r]
						c[0]++
						on := len(missingFacts(s.Text, facts[q.ID])) < len(facts[q.ID])
						if on {
							c[1]++
						}
						byRule[r] = c
						if os.Getenv("GENERATEREPLAY_RULES") == r || os.Getenv("GENERATEREPLAY_RULES") == "off" && !on {
							t.Logf("%s %s %s %q %v: %q", label, q.ID, r, q.Question, on, s.Text)
						}
						d := dumped{Text: s.Text, Rule: r, On: on}
						for _, l := range s.Labels {
							for _, src := range req.Sources {
								if src.Label == l {
									d.Doc = src.DocID
								}
							}
						}
						sents = append(sents, d)
					}
					if dump != nil {
						var docs, acc, titles []string
						for _, src := range req.Sources {
							docs = append(docs, src.DocID)
							titles = append(titles, src.Title)
							if slices.Contains(req.Accepted, src.ID) {
								acc = append(acc, src.DocID)
							}
						}
						if err := dump.Encode(map[string]any{"set": set, "id": q.ID, "question": q.Question, "type": string(g.classify(q.Question).Type), "asksMore": g.asksMore(q.Question), "relevant": q.Relevant, "facts": facts[q.ID], "sources": docs, "accepted": acc, "titles": titles, "sentences": sents, "previous": texts}); err != nil {
							t.Fatal(err)
						}
					}
				}
				texts = append(texts, text)
				if gi == len(gens)-1 && !refused && err == nil {
					switch {
					case len(q.Relevant) == 0:
						marks = append(marks, "noanswer")
					case !m.right:
						marks = append(marks, "wrong")
					default:
						if !m.facts {
							marks = append(marks, "facts")
						}
						if m.extra {
							marks = append(marks, "extra")
						}
					}
				}
			}
			show := texts[0] != texts[1] || os.Getenv("GENERATEREPLAY_ALL") != ""
			if want := os.Getenv("GENERATEREPLAY_SHOW"); want != "" {
				show = slices.Contains(marks, want)
			}
			if show {
				t.Logf("%s %s %q (facts %q)\n\tsources %s\n\tv%d: %s\n\tv%d: %s\n\t\twhy %s", label, q.ID, q.Question, facts[q.ID], sourceMarks(req, q.Relevant), gens[0].Version, texts[0], gens[1].Version, texts[1], strings.Join(why, " "))
			}
		}
		for gi, g := range gens {
			tl := tallies[gi]
			t.Logf("%s v%d: right %d/%d, key facts %d, cited relevant %d/%d, refused %d, no-answer refused %d/%d, on-question sentences %d/%d", label, g.Version, tl.right, tl.n, tl.facts, tl.relevant, tl.cited, tl.refused, tl.noAnswerRefused, tl.noAnswer, tl.onQuestion, tl.sents)
			total[gi].add(tl)
		}
	}
	if os.Getenv("GENERATEREPLAY_RULES") != "" {
		for _, r := range slices.Sorted(maps.Keys(byRule)) {
			t.Logf("rule %s: %d sentences, %d holding a key fact", r, byRule[r][0], byRule[r][1])
		}
	}
	for gi, g := range gens {
		tl := total[gi]
		t.Logf("all v%d: right %d/%d, key facts %d, cited relevant %d/%d, refused %d, no-answer refused %d/%d, on-question sentences %d/%d", g.Version, tl.right, tl.n, tl.facts, tl.relevant, tl.cited, tl.refused, tl.noAnswerRefused, tl.noAnswer, tl.onQuestion, tl.sents)
	}
}

// debugSentences logs what g reads of req (GENERATEREPLAY_DEBUG=SET:ID):
// the expected type, the content and asking words, and each source
// sentence's score, content words and whether it holds the type.
func debugSentences(t *testing.T, g *Extractive, req Request) {
	asked, content, all := readSentences(g, req)
	g.score(req, all, content, asked)
	t.Logf("debug %q: type %q, content %v, asking %v, asksMore %v", req.Question, asked.Type, content, slices.Sorted(maps.Keys(g.askingTerms(req.Question, content))), g.asksMore(req.Question))
	for _, s := range all {
		t.Logf("debug  %d.%d %.3f (%.3f) typed=%v own=%v (%v) title=%q: %s", s.source+1, s.pos, s.score, s.kscore, s.typed, slices.Sorted(maps.Keys(s.own)), slices.Sorted(maps.Keys(s.kown)), req.Sources[s.source].Title, s.text)
	}
}

// readSentences is what g reads of req before scoring: the expected type,
// the content words and every source sentence in order (no sentence
// merged with an equal one, unlike Generate), for the replay's readers.
func readSentences(g *Extractive, req Request) (asked answertype.Question, content []string, all []*sentence) {
	asked = g.classify(req.Question)
	content = g.content(req.Question, asked)
	for si, src := range req.Sources {
		for pi, text := range citation.Sentences(src.Text) {
			s := &sentence{source: si, pos: pi, text: text}
			s.first = s
			all = append(all, s)
		}
	}
	return asked, content, all
}
