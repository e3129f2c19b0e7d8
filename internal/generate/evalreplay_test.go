package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// TestEvalReplay gives the builtin extractive generators (v20, v21) what
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
	docs, err := corpus.LoadJSONL(filepath.Join(hollinDir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := chunk.New(chunk.Default())
	if err != nil {
		t.Fatal(err)
	}
	byDoc, byTitle := map[string]corpus.Chunk{}, map[string]string{}
	for _, c := range ch.SplitAll(docs) {
		if _, dup := byDoc[c.DocID]; dup {
			t.Fatalf("%s has two chunks: the replay reads one per document", c.DocID)
		}
		byDoc[c.DocID] = c
	}
	for _, d := range docs {
		byTitle[d.Title] = d.ID
	}
	reTitle := regexp.MustCompile(`^"([^"]+)"|of "([^"]+)"`)
	an := terms.New()
	gens := []*Extractive{NewExtractiveV20(an), NewExtractiveV21(an)}
	var why []string
	gens[1].explain = func(source int, text, rule string) {
		why = append(why, fmt.Sprintf("%d:%s:%.30q", source+1, rule, text))
	}
	chk := NewChecker(an)
	type tally struct{ n, right, facts, cited, relevant, refused, noAnswer, noAnswerRefused int }
	total := make([]tally, len(gens))
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
		tallies := make([]tally, len(gens))
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
				title := m[1] + m[2]
				if id, ok := byTitle[title]; ok {
					req.Accepted = []string{byDoc[id].ID}
				}
			}
			why = why[:0]
			var texts []string
			var marks []string // the newer version's answer: what it lacks
			for gi, g := range gens {
				tl := &tallies[gi]
				ans, err := g.Generate(context.Background(), req)
				refused := err == nil && ans.Text == prompt.NotFoundReply
				if err == nil && !refused {
					ans, err = chk.Check(req, ans)
				}
				if err != nil {
					refused = true
				}
				if len(q.Relevant) == 0 {
					tl.noAnswer++
					if refused {
						tl.noAnswerRefused++
						texts = append(texts, "refused")
					} else {
						texts = append(texts, "-answered | "+ans.Text)
						if gi == len(gens)-1 {
							marks = append(marks, "noanswer")
						}
					}
					continue
				}
				tl.n++
				if refused {
					tl.refused++
					texts = append(texts, "refused")
					continue
				}
				hasFacts := len(missingFacts(ans.Text, facts[q.ID])) == 0
				if hasFacts {
					tl.facts++
				}
				var cited []string
				right := false
				for _, c := range ans.Citations {
					tl.cited++
					mark := "-"
					if slices.Contains(q.Relevant, c.DocID) {
						tl.relevant++
						mark = "+"
						right = true
					}
					cited = append(cited, mark+c.DocID)
				}
				if right {
					tl.right++
				}
				if gi == len(gens)-1 {
					if right && !hasFacts {
						marks = append(marks, "facts")
					}
					if right && slices.ContainsFunc(cited, func(c string) bool { return c[0] == '-' }) {
						marks = append(marks, "extra")
					}
					if !right {
						marks = append(marks, "wrong")
					}
				}
				texts = append(texts, strings.Join(cited, " ")+" | "+ans.Text)
			}
			show := texts[0] != texts[1] || os.Getenv("GENERATEREPLAY_ALL") != ""
			if want := os.Getenv("GENERATEREPLAY_SHOW"); want != "" {
				show = slices.Contains(marks, want)
			}
			if show {
				var srcs []string
				for i, src := range req.Sources {
					mark := "-"
					if slices.Contains(q.Relevant, src.DocID) {
						mark = "+"
					}
					if slices.Contains(req.Accepted, src.ID) {
						mark += "*"
					}
					srcs = append(srcs, fmt.Sprintf("%d%s%s", i+1, mark, src.DocID))
				}
				t.Logf("%s %s %q (facts %q)\n\tsources %s\n\tv%d: %s\n\tv%d: %s\n\t\twhy %s", label, q.ID, q.Question, facts[q.ID], strings.Join(srcs, " "), gens[0].Version, texts[0], gens[1].Version, texts[1], strings.Join(why, " "))
			}
		}
		for gi, g := range gens {
			tl := tallies[gi]
			t.Logf("%s v%d: right %d/%d, key facts %d, cited relevant %d/%d, refused %d, no-answer refused %d/%d", label, g.Version, tl.right, tl.n, tl.facts, tl.relevant, tl.cited, tl.refused, tl.noAnswerRefused, tl.noAnswer)
			tot := &total[gi]
			tot.n += tl.n
			tot.right += tl.right
			tot.facts += tl.facts
			tot.cited += tl.cited
			tot.relevant += tl.relevant
			tot.refused += tl.refused
			tot.noAnswer += tl.noAnswer
			tot.noAnswerRefused += tl.noAnswerRefused
		}
	}
	for gi, g := range gens {
		tl := total[gi]
		t.Logf("all v%d: right %d/%d, key facts %d, cited relevant %d/%d, refused %d, no-answer refused %d/%d", g.Version, tl.right, tl.n, tl.facts, tl.relevant, tl.cited, tl.refused, tl.noAnswerRefused, tl.noAnswer)
	}
}
