package eval

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/corpus"
)

// Question is one labelled question for the answer evaluation.
type Question struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	// Relevant are the ids of the documents that answer the question;
	// empty means the corpus has no answer and the right outcome is an
	// explicit "not found".
	Relevant []string `json:"relevant"`
	// Answer is the reference answer text; empty only when Relevant is.
	Answer string `json:"answer"`
	// Type is the question's class (paraphrase, stale, code, ...).
	Type string `json:"type"`
	// Groups are the ACL groups of the principal who asks; default
	// [public].
	Groups []string `json:"groups,omitempty"`
	// Forbidden are document ids that must never be retrieved, cited or
	// shown to this principal.
	Forbidden []string `json:"forbidden,omitempty"`
}

// BEIRType is the type of the questions BEIRQuestions makes.
const BEIRType = "beir"

// BEIRQuestions turns a BEIR split into answer-evaluation questions: each
// judged query asked as it is written, its relevant documents those judged
// 1 or more (a query with none is left out). BEIR has no reference answers, so Answer is empty and the
// key-facts metric cannot be measured; every question has an answer, so
// refusal cannot be either.
func BEIRQuestions(d *Dataset) []Question {
	out := make([]Question, 0, len(d.Queries))
	for _, q := range d.Queries {
		if len(d.Qrels.Relevant(q.ID, 1)) == 0 {
			continue // judged, but nothing relevant: not a question with an answer
		}
		out = append(out, Question{ID: q.ID, Question: q.Text, Relevant: d.Qrels.Relevant(q.ID, 1), Type: BEIRType, Groups: []string{corpus.PublicGroup}})
	}
	return out
}

// questionRecord distinguishes a missing field from an empty one.
type questionRecord struct {
	ID        *string   `json:"id"`
	Question  *string   `json:"question"`
	Relevant  *[]string `json:"relevant"`
	Answer    *string   `json:"answer"`
	Type      *string   `json:"type"`
	Groups    []string  `json:"groups"`
	Forbidden []string  `json:"forbidden"`
}

// LoadQuestions reads a labelled question file; see ReadQuestions.
func LoadQuestions(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQuestions(f, path)
}

// ReadQuestions reads labelled questions, one JSON object per line:
// id, question, relevant (may be empty, not absent), answer (empty only
// when relevant is) and type are required; groups (default [public]) and forbidden are optional. Unknown
// fields are errors — a misspelt "forbidden" must not silently disable a
// leak check — as are repeated ids, and a document both relevant and
// forbidden. Errors name file:line and the field.
func ReadQuestions(r io.Reader, name string) ([]Question, error) {
	var out []Question
	seen := map[string]int{}
	err := scanLines(r, name, func(n int, line string) error {
		var rec questionRecord
		if err := decodeStrict([]byte(line), &rec); err != nil {
			return lineErr(name, n, jsonField(err), jsonReason(err))
		}
		q, field, reason := rec.question()
		if field != "" {
			return lineErr(name, n, field, reason)
		}
		if first, dup := seen[q.ID]; dup {
			return lineErr(name, n, "id", fmt.Sprintf("duplicate id %q (first at line %d)", q.ID, first))
		}
		seen[q.ID] = n
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, lineErr(name, 0, "", "no questions")
	}
	return out, nil
}

// question validates a record; on failure it returns the field and why.
func (rec questionRecord) question() (q Question, field, reason string) {
	text := func(p *string) string {
		if p == nil {
			return ""
		}
		return strings.TrimSpace(*p)
	}
	q = Question{ID: text(rec.ID), Question: text(rec.Question), Answer: text(rec.Answer), Type: text(rec.Type)}
	switch {
	case q.ID == "":
		return q, "id", "missing or empty"
	case q.Question == "":
		return q, "question", "missing or empty"
	case rec.Relevant == nil:
		return q, "relevant", "missing (use [] for a question the corpus cannot answer)"
	case rec.Answer == nil:
		return q, "answer", "missing"
	case q.Answer == "" && len(*rec.Relevant) > 0:
		return q, "answer", "empty, but the question has relevant documents"
	case q.Type == "":
		return q, "type", "missing or empty"
	}
	var ok bool
	if q.Relevant, ok = cleanIDs(*rec.Relevant); !ok {
		return q, "relevant", "contains an empty or repeated id"
	}
	if q.Forbidden, ok = cleanIDs(rec.Forbidden); !ok {
		return q, "forbidden", "contains an empty or repeated id"
	}
	if q.Groups, ok = cleanIDs(rec.Groups); !ok {
		return q, "groups", "contains an empty or repeated group"
	}
	if len(q.Groups) == 0 {
		q.Groups = []string{corpus.PublicGroup}
	}
	for _, id := range q.Forbidden {
		if slices.Contains(q.Relevant, id) {
			return q, "forbidden", fmt.Sprintf("%q is also relevant", id)
		}
	}
	return q, "", ""
}

// cleanIDs trims ids and reports false for an empty or repeated one.
func cleanIDs(ids []string) ([]string, bool) {
	if len(ids) == 0 {
		return []string{}, true
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || slices.Contains(out, id) {
			return nil, false
		}
		out = append(out, id)
	}
	return out, true
}

// Leaked returns the ids in shown that q forbids, in the order shown.
func (q Question) Leaked(shown []string) []string {
	var out []string
	for _, id := range shown {
		if slices.Contains(q.Forbidden, id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// QuestionQrels turns questions into binary judgements (grade 1 for each
// relevant document) so the retrieval metrics apply to them. Questions the
// corpus cannot answer have no relevant documents and are left out: no
// retrieval metric is defined for them.
func QuestionQrels(qs []Question) Qrels {
	out := Qrels{}
	for _, q := range qs {
		if len(q.Relevant) == 0 {
			continue
		}
		out[q.ID] = map[string]int{}
		for _, id := range q.Relevant {
			out[q.ID][id] = 1
		}
	}
	return out
}

// CheckQuestionDocs reports relevant or forbidden ids that known says are
// not in the corpus, one error per question, joined; nil if all are known.
func CheckQuestionDocs(qs []Question, known func(docID string) bool) error {
	var problems []error
	for _, q := range qs {
		var unknown []string
		for _, id := range slices.Concat(q.Relevant, q.Forbidden) {
			if !known(id) {
				unknown = append(unknown, id)
			}
		}
		if len(unknown) > 0 {
			problems = append(problems, fmt.Errorf("question %s: unknown document ids %s", q.ID, strings.Join(unknown, ", ")))
		}
	}
	return errors.Join(problems...)
}
