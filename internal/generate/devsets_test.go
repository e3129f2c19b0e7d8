package generate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/internal/wire"
)

// TestDevSets compares the builtin extractive generators (v18, v19) on
// every development set's questions, each given the top wire.DefaultTopK
// chunks the retriever finds for a principal of the question's groups (no
// assessor: every question reaches the generator), and prints key facts,
// cited-document precision and the answerable questions refused per set,
// the no-answer questions refused (v10 says when the sources hold no answer
// of the asked kind), and each question whose answer differs, with the
// rule that chose each of v10's sentences (GENERATEDEV=1 go test
// ./internal/generate -run TestDevSets -v; GENERATEDEV=every prints every
// answerable question). A reading aid: it asserts nothing.
func TestDevSets(t *testing.T) {
	if os.Getenv("GENERATEDEV") == "" {
		t.Skip("GENERATEDEV=1 compares the generators on the development sets")
	}
	f := newHollinFixture(t)
	an := terms.New()
	gens := []*Extractive{NewExtractiveV18(an), NewExtractiveV19(an)}
	// GENERATEDEV_ASSESS=1: only the questions the builtin assessor
	// accepts on their first attempt reach the generators, each with the
	// chunks it accepted (Request.Accepted), as the one-pass baseline
	// runs them (no thesaurus). The assessor is the fixture's index's,
	// wired as a worker wires it (live.Direct.Assessor: its visible-chunk
	// check, spelling lookups and rewriter).
	var judge *assess.Builtin
	if os.Getenv("GENERATEDEV_ASSESS") != "" {
		// GENERATEDEV_THESAURUS=/usr/share/wordnet: the assessor with
		// WordNet, as make eval runs it.
		var th assess.Thesaurus // nil unless opened: a nil *WordNet is not a nil Thesaurus
		if dir := os.Getenv("GENERATEDEV_THESAURUS"); dir != "" {
			wn, err := thesaurus.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			th = wn
		}
		var err error
		if judge, err = (&live.Direct{Index: f.ix}).Assessor(th); err != nil {
			t.Fatal(err)
		}
	}
	var why, whyOld []string
	gens[0].explain = func(source int, text, rule string) {
		whyOld = append(whyOld, fmt.Sprintf("%d:%s:%.30q", source+1, rule, text))
	}
	gens[1].explain = func(source int, text, rule string) {
		why = append(why, fmt.Sprintf("%d:%s:%.30q", source+1, rule, text))
	}
	if v := os.Getenv("GENERATEDEV_SHARE"); v != "" {
		fmt.Sscan(v, &gens[1].AnswerShare)
	}
	chk := NewChecker(an)
	for _, name := range devsets.Names() {
		qs := readDevSet(t, name)
		// the log names a set as its file does ("hollin-fresh")
		label := strings.TrimSuffix(filepath.Base(devsets.Questions(name)), ".jsonl")
		facts := devFacts(t, name)
		tallies := make([]answerTally, len(gens))
		for _, qq := range qs {
			req := f.requestAs(t, qq.hollinQuestion, qq.Groups, wire.DefaultTopK)
			if len(req.Sources) == 0 {
				continue // nothing visible: the loop never reaches the generator
			}
			if judge != nil {
				res, err := judge.Assess(context.Background(), assessRequest(qq, req))
				if err != nil {
					t.Fatal(err)
				}
				if !res.Assessment.Sufficient {
					for gi := range gens {
						tallies[gi].rejected++
					}
					continue
				}
				req.Accepted = res.Accepted
				if os.Getenv("GENERATEDEV_REASON") != "" {
					t.Logf("%s %s accepted %v: %s", label, qq.ID, res.Accepted, res.Assessment.Reason)
				}
			}
			why, whyOld = why[:0], whyOld[:0]
			var texts []string
			for gi, g := range gens {
				ans, refused, err := generateChecked(g, chk, req)
				if err != nil {
					t.Errorf("%s %s: %v", label, qq.ID, err)
					continue
				}
				text, _ := tallies[gi].count(qq.Relevant, facts[qq.ID], ans, refused)
				if len(qq.Relevant) > 0 && !refused {
					var bear []string
					b := g.Bearing(req)
					for i, src := range req.Sources {
						bear = append(bear, fmt.Sprintf("%s=%.2f", src.DocID, b[i]))
					}
					text += "\n\t\tbearing " + strings.Join(bear, " ")
				}
				texts = append(texts, text)
			}
			// GENERATEDEV=all: also every question whose newer answer
			// cites a document not labelled relevant.
			if len(texts) == 2 && (texts[0] != texts[1] || os.Getenv("GENERATEDEV") == "every" || os.Getenv("GENERATEDEV") == "all" && (strings.Contains(texts[1], " -") || strings.HasPrefix(texts[1], "-"))) {
				t.Logf("%s %s %q (relevant %v, facts %q)\n\tsources %s\n\tv%d: %s\n\t\twhy %s\n\tv%d: %s\n\t\twhy %s", label, qq.ID, qq.Question, qq.Relevant, facts[qq.ID], sourceMarks(req, qq.Relevant), gens[0].Version, texts[0], strings.Join(whyOld, " "), gens[1].Version, texts[1], strings.Join(why, " "))
			}
		}
		for gi, g := range gens {
			tl := tallies[gi]
			t.Logf("%s v%d: key facts %d/%d, cited relevant %d/%d, answerable refused %d, no-answer refused %d/%d (assessor refused %d)", label, g.Version, tl.facts, tl.n, tl.relevant, tl.cited, tl.refused, tl.noAnswerRefused, tl.noAnswer, tl.rejected)
		}
	}
}

// TestSameChoiceEveryRun generates each answerable question of two
// development sets several times and requires the same sentences chosen
// by the same rules every time: sums of word weights taken in a map's
// order differed in their last bit from run to run, and two equally
// scored sentences then took turns opening the answer.
func TestSameChoiceEveryRun(t *testing.T) {
	f := newHollinFixture(t)
	g := NewExtractiveV12(terms.New())
	var why []string
	g.explain = func(source int, text, rule string) {
		why = append(why, fmt.Sprintf("%d:%s:%.30q", source+1, rule, text))
	}
	for _, set := range []string{"fresh4", "fresh8"} {
		for _, qq := range readDevSet(t, set) {
			req := f.requestAs(t, qq.hollinQuestion, qq.Groups, wire.DefaultTopK)
			if len(req.Sources) == 0 {
				continue
			}
			var first []string
			for run := range 8 {
				why = why[:0]
				if _, err := g.Generate(context.Background(), req); err != nil {
					t.Fatalf("%s %s: %v", set, qq.ID, err)
				}
				if run == 0 {
					first = slices.Clone(why)
				} else if !slices.Equal(why, first) {
					t.Fatalf("%s %s: run %d chose %v, run 0 %v", set, qq.ID, run, why, first)
				}
			}
		}
	}
}

// assessRequest is the assessment of req's sources for qq, as the loop's
// first attempt asks it (the asker's groups, public among them).
func assessRequest(qq devQuestion, req Request) assess.Request {
	ar := assess.Request{Question: qq.Question, Query: qq.Question, Groups: qq.Groups, K: wire.DefaultTopK}
	if !slices.Contains(ar.Groups, corpus.PublicGroup) {
		ar.Groups = append([]string{corpus.PublicGroup}, ar.Groups...)
	}
	for _, src := range req.Sources {
		ar.Evidence = append(ar.Evidence, assess.Evidence{ChunkID: src.ID, Title: src.Title, Text: src.Text})
	}
	return ar
}

// devQuestion is a development set's question with its asker's groups.
type devQuestion struct {
	hollinQuestion
	Groups []string `json:"groups"`
}

// readDevSet reads development set name's questions (devsets.Questions).
func readDevSet(t *testing.T, name string) []devQuestion {
	return readJSONL[devQuestion](t, devsets.Questions(name))
}

// devFacts reads a development set's key facts by question id.
func devFacts(t *testing.T, name string) map[string][]string {
	t.Helper()
	facts := map[string][]string{}
	for _, kf := range readJSONL[struct {
		ID    string   `json:"id"`
		Facts []string `json:"facts"`
	}](t, devsets.KeyFacts(name)) {
		facts[kf.ID] = kf.Facts
	}
	return facts
}

// answerTally counts a generator's answers over development questions
// (TestDevSets, TestEvalReplay): n answerable questions, right of them
// citing a relevant document, facts holding every key fact, refused;
// cited citations, relevant of them; noAnswer questions, noAnswerRefused
// of them; rejected, questions the assessor refused before generation;
// sents, the sentences (citation.Split, as the judge's on-question
// measure splits) of the answers to answerable questions with key facts,
// onQuestion of them holding a key fact of their question.
type answerTally struct {
	n, right, facts, refused, cited, relevant, noAnswer, noAnswerRefused, rejected int
	sents, onQuestion                                                              int
}

// add adds o's counts to tl.
func (tl *answerTally) add(o answerTally) {
	tl.n += o.n
	tl.right += o.right
	tl.facts += o.facts
	tl.refused += o.refused
	tl.cited += o.cited
	tl.relevant += o.relevant
	tl.noAnswer += o.noAnswer
	tl.noAnswerRefused += o.noAnswerRefused
	tl.rejected += o.rejected
	tl.sents += o.sents
	tl.onQuestion += o.onQuestion
}

// answerMarks is what count read of one answer to an answerable
// question: it cites a relevant document (right), holds every key fact
// (facts), cites a document not labelled relevant (extra).
type answerMarks struct{ right, facts, extra bool }

// count tallies ans, the answer to a question whose relevant documents
// and key facts are given (refused: the generator gave
// prompt.NotFoundReply, or failed), and returns it as the log shows it:
// "refused"; "-answered | TEXT" for a question with no answer; else the
// cited documents, each marked + (relevant) or -, "| TEXT".
func (tl *answerTally) count(relevant, facts []string, ans Answer, refused bool) (string, answerMarks) {
	var m answerMarks
	if len(relevant) == 0 {
		tl.noAnswer++
		if refused {
			tl.noAnswerRefused++
			return "refused", m
		}
		return "-answered | " + ans.Text, m
	}
	tl.n++
	if refused {
		tl.refused++
		return "refused", m
	}
	if len(missingFacts(ans.Text, facts)) == 0 {
		tl.facts++
		m.facts = true
	}
	if len(facts) > 0 {
		for _, s := range citation.Split(ans.Text) {
			tl.sents++
			if len(missingFacts(s.Text, facts)) < len(facts) {
				tl.onQuestion++
			}
		}
	}
	var cited []string
	for _, c := range ans.Citations {
		tl.cited++
		mark := "-"
		if slices.Contains(relevant, c.DocID) {
			tl.relevant++
			mark = "+"
			m.right = true
		} else {
			m.extra = true
		}
		cited = append(cited, mark+c.DocID)
	}
	if m.right {
		tl.right++
	}
	return strings.Join(cited, " ") + " | " + ans.Text, m
}

// sourceMarks lists req's sources for the log: each its label's number
// and document, marked + (relevant) or -, and * when accepted.
func sourceMarks(req Request, relevant []string) string {
	var srcs []string
	for i, src := range req.Sources {
		mark := "-"
		if slices.Contains(relevant, src.DocID) {
			mark = "+"
		}
		if slices.Contains(req.Accepted, src.ID) {
			mark += "*"
		}
		srcs = append(srcs, fmt.Sprintf("%d%s%s", i+1, mark, src.DocID))
	}
	return strings.Join(srcs, " ")
}

// generateChecked is g's answer to req as the loop delivers it, checked
// (Checker.Check), and whether g refused: v10 on says when the sources
// hold no answer of the asked kind (prompt.NotFoundReply), which Check
// would refuse.
func generateChecked(g *Extractive, chk *Checker, req Request) (Answer, bool, error) {
	ans, err := g.Generate(context.Background(), req)
	if err != nil {
		return Answer{}, false, err
	}
	if ans.Text == prompt.NotFoundReply {
		return ans, true, nil
	}
	ans, err = chk.Check(req, ans)
	return ans, false, err
}
