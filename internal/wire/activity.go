package wire

import "github.com/assay-rag/assay/router"

// The names the worker registers the activities under (the method names
// of activities.Activities) and the workflows call them by. They are in
// every recorded history: do not change them.
const (
	GuardActivity         = "Guard"
	RoutingPolicyActivity = "RoutingPolicy"
	SearchActivity        = "Search"
	AssessActivity        = "Assess"
	GenerateActivity      = "Generate"
	VerifyActivity        = "VerifyPrincipal"
)

// VerifyInput is the input of VerifyPrincipal: a run's principal and
// signature, and what the workflow knows of itself to check it against.
type VerifyInput struct {
	Principal Principal  `json:"principal"`
	Signature *Signature `json:"signature,omitempty"`
	// Run is the workflow's id; Parent its parent's (a batch's), or "".
	Run    string `json:"run"`
	Parent string `json:"parent,omitempty"`
	// Digest is what the run asks (the question's digest, or the batch's).
	Digest string `json:"digest"`
}

// VerifyOutput is VerifyPrincipal's verdict.
type VerifyOutput struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"`
}

// Local names the stages a worker runs in process, with no network call,
// and so may run as local activities: inside the workflow task that
// schedules them, with their result recorded as a marker in the history,
// instead of as activity tasks dispatched through the server. Both false
// runs every stage as an activity.
type Local struct {
	// Search: the searcher is in process (bleve, a builtin embedder, the
	// builtin reranker).
	Search bool `json:"search,omitempty"`
	// Builtin: assessments and answers on the builtin route.
	Builtin bool `json:"builtin,omitempty"`
}

// WorkerPolicy is the output of RoutingPolicy, what a run learns from its
// worker once, at its start: the routing policy and which stages may run
// as local activities. Its JSON is a router.Policy's with a "local" field
// added, so the result recorded by runs that predate the field reads as
// no local stages and their histories replay as they ran.
type WorkerPolicy struct {
	router.Policy
	Local Local `json:"local,omitzero"`
}

// GuardInput is the input of Guard.
type GuardInput struct {
	Question string `json:"question"`
}

// GuardOutput is the verdict on a question: refused with a reason, or
// accepted with any injection flags found in it.
type GuardOutput struct {
	Refused bool            `json:"refused"`
	Reason  string          `json:"reason,omitempty"`
	Detail  string          `json:"detail,omitempty"`
	Flags   []InjectionFlag `json:"flags,omitempty"`
}

// SearchInput is the input of Search.
type SearchInput struct {
	Query   string   `json:"query"`
	Groups  []string `json:"groups"`
	Filters Filters  `json:"filters,omitzero"`
	K       int      `json:"k"`
	// Release is the release the run is pinned to (package release);
	// empty in runs recorded before releases: what the worker serves.
	Release string `json:"release,omitempty"`
}

// SearchOutput is the output of Search: ranked ids and scores, no text.
type SearchOutput struct {
	// Query is the query searched. A local activity's input is not in the
	// history; this is how the gateway's event stream names it.
	Query    string   `json:"query,omitempty"`
	Hits     []Hit    `json:"hits"`
	Stages   []Stage  `json:"stages"`
	Warnings []string `json:"warnings,omitempty"`
}

// AssessInput is the input of Assess: the attempt's chunk ids and their
// retrieval scores, in rank order.
type AssessInput struct {
	Question string `json:"question"`
	Query    string `json:"query"`
	// Previous are the queries tried before this one, oldest first, as
	// searched (not QueryKey's keys: an LLM assessor reads them).
	Previous []string `json:"previous,omitempty"`
	// PreviousK is, for each of Previous, the k it asked for when not the
	// run's default (0), so repeat checks can tell a wider-k attempt apart.
	PreviousK []int `json:"previous_k,omitempty"`
	// PreviousChunks are, for each of Previous, the chunk ids its search
	// returned in rank order (the builtin assessor's Agree reads them;
	// empty in runs recorded before the field existed).
	PreviousChunks [][]string `json:"previous_chunks,omitempty"`
	// K is how many hits the attempt asked for.
	K int `json:"k,omitempty"`
	// Strategies are the rewrite strategies the run used so far.
	Strategies []string  `json:"strategies,omitempty"`
	ChunkIDs   []string  `json:"chunk_ids"`
	Scores     []float64 `json:"scores"`
	// Groups re-check access: an activity never reads a chunk its
	// principal may not see, whatever ids it is given.
	Groups []string `json:"groups"`
	// Filters are the run's search filters: what the assessor counts as
	// findable is what a search could return.
	Filters Filters         `json:"filters,omitzero"`
	Route   router.Decision `json:"route"`
	// Release is the release the run is pinned to (package release);
	// empty in runs recorded before releases: what the worker serves.
	Release string `json:"release,omitempty"`
}

// AssessOutput is the output of Assess.
type AssessOutput struct {
	Assessment Assessment `json:"assessment"`
	Usage      Spent      `json:"usage"`
	// Proposals are the candidate next queries in the order to try them,
	// each named by its strategy; a model's one rewrite is "model".
	Proposals []Proposal `json:"proposals,omitempty"`
	// Flags are suspected prompt injections in the evidence. They change
	// nothing; they are there for the trace.
	Flags []InjectionFlag `json:"flags,omitempty"`
	// Accepted are the chunks a sufficient assessment rests on, among
	// ChunkIDs: the one that answers first, then any judged with it. Empty
	// when the assessor does not say (a model), refused, or the history
	// was recorded before the field existed.
	Accepted []string `json:"accepted,omitempty"`
}

// GenerateInput is the input of Generate: the accepted chunk ids in rank
// order.
type GenerateInput struct {
	Question string          `json:"question"`
	ChunkIDs []string        `json:"chunk_ids"`
	Groups   []string        `json:"groups"`
	Route    router.Decision `json:"route"`
	// Release is the release the run is pinned to (package release);
	// empty in runs recorded before releases: what the worker serves.
	Release string `json:"release,omitempty"`
	// Accepted are the chunks, among ChunkIDs, the accepting assessment
	// rests on (AssessOutput.Accepted), the one that answers first. Empty
	// (runs recorded before the field, or an assessor that does not say)
	// leaves the generator to judge all of ChunkIDs alone.
	Accepted []string `json:"accepted,omitempty"`
}

// GenerateOutput is the output of Generate.
type GenerateOutput struct {
	Answer Answer `json:"answer"`
}
