package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/assay-rag/assay/router"
)

// StopReason is why an answer run ended. Every run ends with exactly one.
type StopReason string

// The stop reasons. The strings are part of the API and of search
// attributes: do not change them.
const (
	Answered            StopReason = "answered"
	InsufficientContext StopReason = "insufficient_context" // evidence too weak and no rewrite offered
	RepeatedQuery       StopReason = "repeated_query"       // a query or result set seen before
	BudgetExhausted     StopReason = "budget_exhausted"     // attempts, tokens, cost or deadline spent
	Refused             StopReason = "refused"              // an input guardrail declined the question
	InvalidRequest      StopReason = "invalid_request"      // the input itself is malformed
	SearchError         StopReason = "search_error"
	AssessmentError     StopReason = "assessment_error"
	GenerationError     StopReason = "generation_error"
	Cancelled           StopReason = "cancelled"
	Unauthorized        StopReason = "unauthorized" // the input's principal is not signed by the gateway
)

// StopReasons lists every stop reason.
var StopReasons = []StopReason{Answered, InsufficientContext, RepeatedQuery, BudgetExhausted,
	Refused, InvalidRequest, SearchError, AssessmentError, GenerationError, Cancelled, Unauthorized}

// Budget bounds one run. Zero MaxTokens or MaxCostUSD means unlimited.
type Budget struct {
	MaxAttempts int           `json:"max_attempts"`
	MaxTokens   int           `json:"max_tokens,omitempty"`
	MaxCostUSD  float64       `json:"max_cost_usd,omitempty"`
	Deadline    time.Duration `json:"deadline"`
}

// AnswerInput is the input of AnswerWorkflow.
type AnswerInput struct {
	RequestID string `json:"request_id"`
	Question  string `json:"question"`
	// Principal comes from the authenticated caller, never from a request
	// body.
	Principal Principal `json:"principal"`
	Filters   Filters   `json:"filters,omitzero"`
	Budget    Budget    `json:"budget"`
	// Threshold is the assessment score evidence needs, with sufficient,
	// to be accepted.
	Threshold float64 `json:"threshold"`
	// TopK is how many hits each search passes to assessment.
	TopK int `json:"top_k"`
	// History is the conversation before Question (the chat endpoint),
	// oldest first: a run with history first condenses Question into a
	// standalone question (the Condense activity). Absent for /v1/questions.
	History []Turn `json:"history,omitempty"`
	// Signature is the gateway's signature of Principal for this run;
	// a worker with principal keys refuses a run without a valid one
	// (stop unauthorized). Absent in runs recorded before it existed.
	Signature *Signature `json:"signature,omitempty"`
	// Release is the release the run is pinned to, chosen at start
	// (release.Active.Pick) and kept for every attempt; empty in runs
	// recorded before releases existed, and when none was ever promoted.
	Release string `json:"release,omitempty"`
	// Revision is the revision of AnswerWorkflow the starter wrote this
	// input for (workflows.AnswerRevision). From revision 1 on, a run
	// checks its principal without recording a version marker
	// (workflows/principal.go). Zero in runs started before revisions
	// existed, and by starters that do not set it: those decide by
	// workflow.GetVersion, as before.
	Revision int `json:"revision,omitempty"`
}

// Signature binds a principal to the run it was issued for, so whoever
// can start workflows on Temporal cannot claim groups: an HMAC-SHA256,
// under the key named KeyID, of the run, what it asks and the principal
// (package auth makes and checks it).
type Signature struct {
	KeyID string `json:"key_id"`
	// Run is the workflow id it was issued for: the question's own, or,
	// for a batch and its questions, the batch's.
	Run string `json:"run"`
	// Digest is what the run asks: auth.QuestionDigest of the question
	// (auth.ConversationDigest, with the history of a chat run), or the
	// batch's BatchDigest.
	Digest string `json:"digest"`
	// MAC is the base64url HMAC-SHA256.
	MAC string `json:"mac"`
}

// Attempt records one search → assess round. It holds ids and scores,
// never chunk texts.
type Attempt struct {
	N     int    `json:"n"`
	Query string `json:"query"`
	// Strategy names how the query was made: empty for the question
	// itself, else the rewrite strategy (spelling, ..., "model" for a model's rewrite).
	Strategy string `json:"strategy,omitempty"`
	// K is how many hits the search asked for, when not the run's top-k.
	K int `json:"k,omitempty"`
	// RepeatedResults marks an attempt whose search returned the same
	// results as an earlier one: it was not assessed, and the loop went on
	// to the next proposal.
	RepeatedResults bool `json:"repeated_results,omitempty"`
	// Proposals are the next queries this attempt's assessment proposed,
	// in the order the loop tries them.
	Proposals  []Proposal  `json:"proposals,omitempty"`
	Hits       []Hit       `json:"hits"`
	Stages     []Stage     `json:"stages,omitempty"`
	SearchMS   float64     `json:"search_ms"`
	AssessMS   float64     `json:"assess_ms,omitempty"`
	Assessment *Assessment `json:"assessment,omitempty"`
	Accepted   bool        `json:"accepted"`
	// Usage is what this attempt's assessment cost.
	Usage    Usage    `json:"usage"`
	Warnings []string `json:"warnings,omitempty"`
}

// RouteRecord is one routing decision and how the call it routed ended.
type RouteRecord struct {
	Attempt  int             `json:"attempt"` // 0 for generation
	Decision router.Decision `json:"decision"`
	// Outcome is "ok", or the error type of the failed call.
	Outcome string `json:"outcome"`
}

// Generation records how the answer was made: which chunk each label
// stood for, what the prompt budget dropped, what the checks found. It
// holds ids and findings, never source text.
type Generation struct {
	Model         string `json:"model"`
	PromptVersion string `json:"prompt_version,omitempty"`
	FinishReason  string `json:"finish_reason,omitempty"`
	// Sources maps each issued label to its chunk, in prompt order.
	Sources   []LabelledChunk `json:"sources"`
	Dropped   []Dropped       `json:"dropped,omitempty"`
	Stripped  []Strip         `json:"stripped,omitempty"`
	Grounding []GroundingFlag `json:"grounding,omitempty"`
	Cited     []Citation      `json:"cited,omitempty"`
}

// LabelledChunk is one label → chunk mapping of a prompt.
type LabelledChunk struct {
	Label   string `json:"label"`
	ChunkID string `json:"chunk_id"`
}

// Trace is what an operator needs to see why a run ended as it did.
type Trace struct {
	RequestID   string `json:"request_id"`
	PrincipalID string `json:"principal_id"`
	Question    string `json:"question"`
	// Condensed is set when Question was a follow-up in a conversation:
	// the standalone question the run answered instead, and who wrote it.
	Condensed *Condensed `json:"condensed,omitempty"`
	// Release is the release the run used (AnswerInput.Release).
	Release     string        `json:"release,omitempty"`
	Attempts    []Attempt     `json:"attempts"`
	BestAttempt int           `json:"best_attempt,omitempty"` // 1-based; 0 when none scored
	GenerateMS  float64       `json:"generate_ms,omitempty"`
	Generation  *Generation   `json:"generation,omitempty"`
	Routes      []RouteRecord `json:"routes,omitempty"`
	Models      []string      `json:"models,omitempty"`
	Usage       Usage         `json:"usage"`
	Errors      []string      `json:"errors,omitempty"`
	Warnings    []string      `json:"warnings,omitempty"`
	StopReason  StopReason    `json:"stop_reason,omitempty"`
	StopDetail  string        `json:"stop_detail,omitempty"`
	StartedAt   time.Time     `json:"started_at"`
	TotalMS     float64       `json:"total_ms"`
}

// AnswerResult is the output of AnswerWorkflow.
type AnswerResult struct {
	RequestID  string     `json:"request_id"`
	StopReason StopReason `json:"stop_reason"`
	Answer     string     `json:"answer,omitempty"`
	Citations  []Citation `json:"citations,omitempty"`
	Model      string     `json:"model,omitempty"`
	Trace      Trace      `json:"trace"`
}

// Progress is the short state a query returns while a run is going.
type Progress struct {
	Stage   string     `json:"stage"` // search, assess, generate, done
	Attempt int        `json:"attempt"`
	Stop    StopReason `json:"stop_reason,omitempty"`
}

// TemplateDigest identifies how a run answers: its budget, filters,
// threshold and top k, but not its question or principal. Runs keep it in
// their memo, so a replayed idempotency key with other options can be
// told from a retry (409, not the old run). Workflow code calls it (child
// runs' memos), so it uses no fmt: length-prefixed fields into SHA-256.
func TemplateDigest(in AnswerInput) string {
	h := sha256.New()
	field := func(s string) {
		h.Write([]byte(strconv.Itoa(len(s)) + ":" + s))
	}
	list := func(xs []string) {
		field(strconv.Itoa(len(xs)))
		for _, x := range xs {
			field(x)
		}
	}
	num := func(f float64) { field(strconv.FormatFloat(f, 'g', -1, 64)) }
	b, f := in.Budget, in.Filters
	field(strconv.Itoa(b.MaxAttempts))
	field(strconv.Itoa(b.MaxTokens))
	num(b.MaxCostUSD)
	field(strconv.FormatInt(int64(b.Deadline), 10))
	list(f.Types)
	list(f.Products)
	statuses := make([]string, len(f.Statuses))
	for i, st := range f.Statuses {
		statuses[i] = string(st)
	}
	list(statuses)
	num(f.MinAuthority)
	field(f.UpdatedFrom)
	field(f.UpdatedTo)
	num(in.Threshold)
	field(strconv.Itoa(in.TopK))
	return hex.EncodeToString(h.Sum(nil))
}
