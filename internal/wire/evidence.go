package wire

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/assay-rag/assay/internal/errs"
)

// Assessment is an assessor's verdict on one attempt's evidence: a score
// in 0..1 that ranks attempts, a sufficient flag that is the assessor's
// decision, an optional rewrite and a reason. The loop accepts evidence
// only when sufficient is true and the score reaches its threshold.
type Assessment struct {
	Score      float64 `json:"score" jsonschema:"minimum=0,maximum=1,description=How well the evidence answers the question from 0 (not at all) to 1 (completely)."`
	Sufficient bool    `json:"sufficient" jsonschema:"description=True only if the evidence alone answers the question."`
	Rewrite    string  `json:"rewrite" jsonschema:"maxLength=500,description=A better search query when the evidence is not sufficient; empty when no rewrite is worth trying."`
	Reason     string  `json:"reason" jsonschema:"maxLength=1000,description=One sentence on why."`
}

// Check applies the semantic rules a JSON schema cannot express.
func (a Assessment) Check() error {
	const op = "assess.Check"
	switch {
	case math.IsNaN(a.Score) || a.Score < 0 || a.Score > 1:
		return errs.E(op, errs.Schema, fmt.Errorf("score %v is outside 0..1", a.Score))
	case a.Sufficient && strings.TrimSpace(a.Rewrite) != "":
		return errs.E(op, errs.Schema, fmt.Errorf("a sufficient assessment must not propose a rewrite"))
	}
	return nil
}

// InjectionFlag is one suspected prompt injection, in a question or in a
// source. Flags change nothing; they are reported in the trace.
type InjectionFlag struct {
	// Rule is the id of the rule that matched.
	Rule string `json:"rule"`
	// Where names the text: "question" or a source ("source 2 (doc#0)").
	Where string `json:"where"`
	// Excerpt is the matched text, shortened.
	Excerpt string `json:"excerpt"`
}

// String renders a flag as a one-line warning.
func (f InjectionFlag) String() string {
	return fmt.Sprintf("possible prompt injection in %s (%s): %q", f.Where, f.Rule, f.Excerpt)
}

// Citation ties an answer to one source.
type Citation struct {
	Label   string `json:"label"`
	ChunkID string `json:"chunk_id"`
	DocID   string `json:"doc_id"`
	Title   string `json:"title"`
	URL     string `json:"url,omitempty"`
}

// Strip records one citation marker the sanitizer changed.
type Strip struct {
	// Marker is the marker as the model wrote it.
	Marker string `json:"marker"`
	// Unknown are the labels it named that were never issued.
	Unknown []string `json:"unknown"`
	// Kept is what replaced it: the marker with its issued labels only,
	// or "" when none was issued and the marker was removed.
	Kept string `json:"kept,omitempty"`
}

// GroundingKind names what a grounding flag reports (package citation
// declares the kinds).
type GroundingKind string

// GroundingFlag is one grounding finding, for the trace.
type GroundingFlag struct {
	Kind GroundingKind `json:"kind"`
	// Sentence is the 0-based index of the answer sentence.
	Sentence int `json:"sentence"`
	// Text is the sentence without markers, shortened to 160 characters.
	Text string `json:"text"`
	// Label is the cited source the flag is about.
	Label string `json:"label,omitempty"`
	// Prefer is a better source's label.
	Prefer string `json:"prefer,omitempty"`
	Detail string `json:"detail"`
}

// String renders a flag as a one-line warning.
func (f GroundingFlag) String() string {
	return fmt.Sprintf("grounding: %s in sentence %d (%q): %s", f.Kind, f.Sentence+1, f.Text, f.Detail)
}

// Dropped is a source the prompt's token budget left out.
type Dropped struct {
	Label   string `json:"label"`
	ChunkID string `json:"chunk_id"`
	Tokens  int    `json:"tokens"`
	Reason  string `json:"reason"`
}

// NotFoundModel names the answer given when there is no evidence.
const NotFoundModel = "builtin:not-found"

// Answer is what a generator returns, completed by the checks that run
// after every generator (sanitize, validate, ground).
type Answer struct {
	Text      string     `json:"text"`
	Citations []Citation `json:"citations"`
	Model     string     `json:"model"`
	Usage
	FinishReason string `json:"finish_reason,omitempty"`
	// PromptVersion names the prompt templates a model answered from.
	PromptVersion string `json:"prompt_version,omitempty"`
	// Dropped are the sources the prompt's token budget left out; their
	// labels were never issued to the model.
	Dropped []Dropped `json:"dropped,omitempty"`
	// Stripped are the citation markers the checks removed or rewrote
	// because they named labels that were never issued.
	Stripped []Strip `json:"stripped,omitempty"`
	// Grounding are the grounding check's findings.
	Grounding []GroundingFlag `json:"grounding,omitempty"`
	// Injections are suspected prompt injections found in the sources.
	// They changed nothing; they are reported.
	Injections []InjectionFlag `json:"injections,omitempty"`
	// Warnings say all of the above in words, for the trace.
	Warnings []string `json:"warnings,omitempty"`
}

// Spent is what producing the answer consumed.
func (a Answer) Spent() Spent { return Spent{Model: a.Model, Usage: a.Usage} }

// Proposal is one candidate next query and the rewrite strategy that made
// it (the builtin rewriter's strategy names, or "model").
type Proposal struct {
	Strategy string `json:"strategy"`
	Query    string `json:"query"`
	// K, when positive, is how many hits the search should return instead
	// of the run's top-k.
	K   int    `json:"k,omitempty"`
	Why string `json:"why,omitempty"`
	// Rejudge is true when the rewrite changes the words the evidence is
	// judged in (a translation: the assessor counts its substitutes for
	// the question's words), so evidence that fell short may now suffice:
	// the loop assesses it even when its results repeat an earlier
	// attempt's.
	Rejudge bool `json:"rejudge,omitempty"`
	// Model is the builtin rewriter that made the proposal
	// (builtin:strategies-v5, or v4, v3, v2): the
	// trace's rewrite route names it. Empty for a model's rewrite (the
	// assessor's usage names that model) and in histories recorded
	// before the field.
	Model string `json:"model,omitempty"`
}

// QueryKey identifies a query for repeat checks: its words folded in case
// and spacing, and the number of hits asked for when that is not the
// run's default (k 0).
func QueryKey(q string, k int) string {
	n := strings.Join(strings.Fields(strings.ToLower(q)), " ")
	if k > 0 {
		n += " [k=" + strconv.Itoa(k) + "]"
	}
	return n
}
