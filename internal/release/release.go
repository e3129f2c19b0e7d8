// Package release is assay's unit of change: a release is one immutable,
// named manifest of everything that shapes an answer (the index version
// of either backend with its analyzer, chunker and embedder; the
// reranker; the assessor and generator models and their prompt digests;
// the routing policy; the loop defaults; the thesaurus), its lifecycle
// state (Status), and which releases serve traffic now (Active: the
// stable one and, during a canary, a candidate for a share of runs).
//
// A Store keeps all three where every worker and gateway reads them: the
// data dir in embedded mode (FileStore), Redis in RediSearch mode
// (RedisStore). Pick chooses a run's release from its workflow id, so a
// run and every retry of it land on the same release.
package release

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"regexp"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// Manifest is one release: what it is called, when it was made, and
// everything that shapes an answer. It never changes once stored.
type Manifest struct {
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	// Note says why the release exists ("corpus without warranty pages").
	Note string `json:"note,omitempty"`
	// Digest is ContentDigest of the manifest: two releases with the
	// same digest shape answers the same way.
	Digest    string   `json:"digest"`
	Index     IndexRef `json:"index"`
	Reranker  string   `json:"reranker"`
	Assessor  ModelRef `json:"assessor"`
	Generator ModelRef `json:"generator"`
	Router    string   `json:"router_digest"`
	Loop      Loop     `json:"loop"`
	Thesaurus string   `json:"thesaurus,omitempty"`
}

// IndexRef names one index version and how it was built.
type IndexRef struct {
	Backend string `json:"backend"` // bleve or redisearch
	// Dir is the bleve index directory of this version (kept while the
	// release is one of the last K).
	Dir string `json:"dir,omitempty"`
	// Name is the RediSearch index name of this version.
	Name string `json:"name,omitempty"`
	// Served marks the index the configuration serves (index.dir or
	// index.name) rather than a version of the release's own: rebuilds of
	// it (`assay index`) change what the release serves, as they did
	// before releases. `assay dev`'s "initial" release is one.
	Served bool `json:"served,omitempty"`
	// Version is the backend's name for the version (its build time).
	Version  string           `json:"version"`
	Manifest backend.Manifest `json:"manifest"`
}

// ModelRef is a model and the digest of the prompt it is called with.
type ModelRef struct {
	Model  string `json:"model"`
	Prompt string `json:"prompt_digest"`
}

// Loop is the loop defaults a release answers with.
type Loop struct {
	MaxAttempts int           `json:"max_attempts"`
	Threshold   float64       `json:"threshold"`
	MaxTokens   int           `json:"max_tokens"`
	MaxCostUSD  float64       `json:"max_cost_usd"`
	Deadline    time.Duration `json:"deadline"`
	TopK        int           `json:"top_k"`
}

// Template is the AnswerInput a run pinned to a release with these loop
// defaults starts from: its budget, threshold and top-k (a request may
// lower the budget). ok is false when l records no defaults (no attempts):
// runs then start from the gateway's configured ones.
func (l Loop) Template() (in wire.AnswerInput, ok bool) {
	if l.MaxAttempts <= 0 {
		return wire.AnswerInput{}, false
	}
	return wire.AnswerInput{
		Budget:    wire.Budget{MaxAttempts: l.MaxAttempts, MaxTokens: l.MaxTokens, MaxCostUSD: l.MaxCostUSD, Deadline: l.Deadline},
		Threshold: l.Threshold,
		TopK:      l.TopK,
	}, true
}

// ContentDigest is the SHA-256 of everything in m that shapes an answer:
// not its name, note, time or stored digest, nor where its index lives
// or when it was built (the index's manifest says what it holds).
func ContentDigest(m Manifest) string {
	m.Name, m.Note, m.Digest, m.CreatedAt = "", "", "", time.Time{}
	m.Index.Dir, m.Index.Name, m.Index.Served, m.Index.Version = "", "", false, ""
	m.Index.Manifest.BuiltAt = time.Time{}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // a Manifest always marshals
	}
	return Digest(b)
}

// Digest is the hex SHA-256 of b, shortened to 16 digits: the form every
// digest in a manifest takes.
func Digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

// DigestJSON is Digest of v as JSON (a routing policy, say).
func DigestJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return Digest(b), nil
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)

// CheckName reports whether name may name a release: lower-case letters,
// digits, dot, dash and underscore, at most 63, starting with a letter or
// digit (it names a directory and a Redis key).
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return errs.FieldError("release", "name", fmt.Sprintf("%q: use 1-63 of a-z 0-9 . _ -, starting with a letter or digit", name))
	}
	return nil
}

// State is where a release is in its lifecycle.
type State string

// The states of a release. Created is a release nobody started yet.
const (
	Created    State = "created"
	Gating     State = "gating"
	Canary     State = "canary"
	Promoted   State = "promoted"
	RolledBack State = "rolled_back"
	Rejected   State = "rejected"
)

// Status is a release's lifecycle state as `assay release status` shows
// it.
type Status struct {
	Name  string `json:"name"`
	State State  `json:"state"`
	// Share is the percentage of new runs it takes (100 when stable).
	Share int `json:"share"`
	// Reason says why it is in State: the threshold that tripped and its
	// numbers for a rejection or rollback.
	Reason    string    `json:"reason,omitempty"`
	Workflow  string    `json:"workflow,omitempty"` // the ReleaseWorkflow driving it
	UpdatedAt time.Time `json:"updated_at"`
}

// Active is which releases take new runs: Stable, and Candidate for Share
// percent of them during a canary. Previous are the stables before, the
// newest first: what rollback returns to.
type Active struct {
	Stable    string   `json:"stable"`
	Candidate string   `json:"candidate,omitempty"`
	Share     int      `json:"share,omitempty"`
	Previous  []string `json:"previous,omitempty"`
}

// Names are the releases a worker must serve now.
func (a Active) Names() []string {
	var out []string
	if a.Stable != "" {
		out = append(out, a.Stable)
	}
	if a.Candidate != "" && a.Candidate != a.Stable {
		out = append(out, a.Candidate)
	}
	return out
}

// Bucket is the run's place in 0..99, from its workflow id: the same id
// always lands in the same bucket, so a restarted or retried start picks
// the same release.
func Bucket(workflowID string) int {
	h := fnv.New32a()
	h.Write([]byte(workflowID))
	return int(h.Sum32() % 100)
}

// Pick is the release a new run with workflowID is pinned to: the
// candidate when its bucket is below the canary share, otherwise stable
// (empty when there are no releases: the run uses what the worker
// serves).
func (a Active) Pick(workflowID string) string {
	if a.Candidate != "" && a.Share > 0 && Bucket(workflowID) < a.Share {
		return a.Candidate
	}
	return a.Stable
}
