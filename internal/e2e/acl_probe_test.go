package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
	"golang.org/x/sync/errgroup"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/cli"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// canaryCorpus is the Hollin corpus plus generated restricted documents,
// each holding a unique canary word (in its id, title and text) that no
// other document has. A canary in anything shown to a principal who may
// not see its document is a leak.
type canaryCorpus struct {
	path    string
	canary  map[string][]string // canary → its document's ACL
	words   map[string]bool     // every analyzed term of the corpus
	rng     *rand.Rand
	an      *terms.Analyzer
	ordered []string // canaries in generation order
}

// canaryACLs are the restricted documents' ACLs, in rotation.
var canaryACLs = [][]string{
	{"staff"}, {"finance"}, {"partners", "staff"}, {"partner:brook-street", "staff"},
	{"partner:calder-fix", "staff"}, {"finance", "staff"},
}

// probePrincipals are the principals the probes ask as.
var probePrincipals = [][]string{
	{"public"},
	{"public", "partners", "partner:brook-street"},
	{"public", "partners", "partner:calder-fix"},
	{"public", "finance"},
	{"staff"},
}

// newCanaryCorpus writes the corpus with n canary documents into dir. Its
// restricted documents reuse sentences of the Hollin corpus, so they
// compete with the public ones for ordinary questions.
func newCanaryCorpus(t *testing.T, dir string, n int, seed uint64) *canaryCorpus {
	t.Helper()
	docs, err := corpus.LoadJSONL("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cc := &canaryCorpus{
		path: filepath.Join(dir, "canary.jsonl"), canary: map[string][]string{}, words: map[string]bool{},
		rng: rand.New(rand.NewPCG(seed, 1)), an: terms.New(),
	}
	var sentences []string
	for _, d := range docs {
		for w := range cc.an.Set(d.Title + "\n" + d.Text) {
			cc.words[w] = true
		}
		for s := range strings.SplitSeq(d.Text, ". ") {
			sentences = append(sentences, strings.TrimSuffix(s, ".")+".")
		}
	}
	f, err := os.Create(cc.path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		c := cc.fresh()
		acl := canaryACLs[i%len(canaryACLs)]
		cc.canary[c] = acl
		cc.ordered = append(cc.ordered, c)
		cc.words[c] = true
		var text []string
		for range 3 {
			text = append(text, sentences[cc.rng.IntN(len(sentences))])
		}
		text = slices.Insert(text, cc.rng.IntN(len(text)+1), fmt.Sprintf("The %s programme sets the warranty repair rate for the X300 Pro motor.", c))
		d := corpus.Document{
			ID: "note-" + c, Type: "note", Title: "Internal note on " + c, Text: strings.Join(text, " "),
			ACL: acl, Status: corpus.Current, Authority: 0.9, Updated: "2026-05-01",
		}
		if err := enc.Encode(d); err != nil {
			t.Fatal(err)
		}
	}
	return cc
}

// fresh returns a new word-like string that the analyzer leaves as it is
// and the corpus does not contain.
func (cc *canaryCorpus) fresh() string {
	const cons, vows = "bcdfgklmnprstvz", "aeiou"
	for {
		b := make([]byte, 0, 9)
		for i := range 9 {
			if i%2 == 0 {
				b = append(b, cons[cc.rng.IntN(len(cons))])
			} else {
				b = append(b, vows[cc.rng.IntN(len(vows))])
			}
		}
		w := string(b)
		if ts := cc.an.Terms(w); len(ts) == 1 && ts[0] == w && !cc.words[w] {
			cc.words[w] = true
			return w
		}
	}
}

// hidden lists the canaries groups may not see.
func (cc *canaryCorpus) hidden(groups []string) []string {
	var out []string
	for _, c := range cc.ordered {
		if !corpus.Visible(cc.canary[c], groups) {
			out = append(out, c)
		}
	}
	return out
}

// leaks returns the canaries hidden from groups that appear in text but
// not in the question (a question may name a canary; echoing it is not a
// leak).
func (cc *canaryCorpus) leaks(groups []string, question, text string) []string {
	q, text := strings.ToLower(question), strings.ToLower(text)
	var out []string
	for _, c := range cc.hidden(groups) {
		if strings.Contains(text, c) && !strings.Contains(q, c) {
			out = append(out, c)
		}
	}
	return out
}

// nearMiss changes one inner letter of w: the spelling rewriter must not
// "correct" it into a canary the principal cannot see.
func (cc *canaryCorpus) nearMiss(w string) string {
	b := []byte(w)
	i := 1 + cc.rng.IntN(len(b)-2)
	b[i] = "aeioubcdfgklmnprstvz"[cc.rng.IntN(20)]
	return string(b)
}

// probeQuestions are the questions asked about one canary.
func (cc *canaryCorpus) probeQuestions(c string) []string {
	return []string{
		"what is " + c,
		c + " warranty repair rate X300 Pro motor",
		"what does the warranty say about " + cc.nearMiss(c),
		"how much does the " + cc.nearMiss(c) + " programme pay for repairs",
	}
}

// probeEnv runs AnswerWorkflow in Temporal's test environment with the
// real activities over a real index: the loop, the builtin models, the
// trace and the not-found text exactly as a worker runs them.
type probeEnv struct {
	acts *activities.Activities
	cfg  config.Config
}

func newProbeEnv(t *testing.T, corpusPath string, redisAddr ...string) *probeEnv {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Index.Corpus = corpusPath
	if len(redisAddr) > 0 { // the redisearch backend, on that server
		cfg.Index.Backend = config.BackendRediSearch
		cfg.Redis.Addr = redisAddr[0]
		cfg.Index.Name = redistest.Name("probe")
	}
	root := cli.NewRoot(cfg, slog.New(slog.DiscardHandler))
	root.BuildIndex = true
	t.Cleanup(root.Close)
	acts, err := root.Activities(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &probeEnv{acts: acts, cfg: cfg}
}

// ask runs one question as groups and returns the result as JSON.
func (p *probeEnv) ask(t *testing.T, n int, question string, groups []string) (wire.AnswerResult, []byte) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	s.SetLogger(tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(p.acts)
	env.RegisterWorkflowWithOptions(workflows.AnswerWorkflow, workflow.RegisterOptions{Name: "AnswerWorkflow"})
	in := wire.AnswerInput{
		RequestID: fmt.Sprintf("probe-%d", n), Question: question,
		Principal: auth.Principal{ID: "prober", Groups: groups},
		Budget:    wire.Budget{MaxAttempts: p.cfg.Loop.MaxAttempts, Deadline: time.Minute},
		Threshold: p.cfg.Loop.Threshold, TopK: p.cfg.Loop.TopK,
	}
	env.ExecuteWorkflow("AnswerWorkflow", in)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("probe %q as %v: workflow did not complete: %v", question, groups, env.GetWorkflowError())
	}
	var res wire.AnswerResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// TestACLProbes asks thousands of (principal, question) probes over a
// corpus of canary documents through the whole loop (workflow, activities,
// builtin assessor, rewriter and generator) and checks that no canary of
// a document the principal may not see appears in any answer, citation,
// trace, warning, error, not-found text or rewrite. The gateway sample is
// TestEndToEndACLProbes.
func TestACLProbes(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP ACL probes: -short")
	}
	aclProbes(t)
}

// TestACLProbesRediSearch is TestACLProbes on the redisearch backend.
func TestACLProbesRediSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP ACL probes: -short")
	}
	aclProbes(t, redistest.Start(t).Addr)
}

func aclProbes(t *testing.T, redisAddr ...string) {
	cc := newCanaryCorpus(t, t.TempDir(), 100, 12)
	p := newProbeEnv(t, cc.path, redisAddr...)
	var questions []string
	for _, c := range cc.ordered {
		questions = append(questions, cc.probeQuestions(c)...)
	}
	questions = append(questions, stacktest.Questions(t, "../../testdata/hollin/questions.jsonl")...)
	tried, leaked, seen := 0, 0, 0
	stops := map[wire.StopReason]int{}
	start := time.Now()
	for _, groups := range probePrincipals {
		for _, q := range questions {
			res, b := p.ask(t, tried, q, groups)
			tried++
			stops[res.StopReason]++
			// The detector's own check: a canary the principal may see
			// does show, so a hidden one would be caught.
			if len(cc.leaks(nil, q, string(b))) > len(cc.leaks(groups, q, string(b))) {
				seen++
			}
			if l := cc.leaks(groups, q, string(b)); len(l) > 0 {
				leaked++
				if leaked <= 5 {
					t.Errorf("probe %q as %v leaks %v:\n%.2000s", q, groups, l, b)
				}
			}
		}
	}
	t.Logf("ACL probes: %d tried, %d leaked, in %s; %d showed a canary the principal may see; stops %v",
		tried, leaked, time.Since(start).Round(time.Millisecond), seen, stops)
	if seen == 0 {
		t.Errorf("no probe showed a canary even to a principal who may see it: the detector cannot fail")
	}
	if leaked > 0 {
		t.Errorf("%d of %d probes leaked a canary", leaked, tried)
	}
	if stops[wire.Answered] == 0 || stops[wire.InsufficientContext]+stops[wire.RepeatedQuery] == 0 {
		t.Errorf("stops %v: the probes should both answer and not find", stops)
	}
}

// normalized is a JSON document with what legitimately differs between two
// runs removed: timings (keys "ms" or ending in "_ms") and the run's ids,
// and the note of the trace's "index" stage, which names the index build
// (its time): two builds differ there whatever they hold.
// from → to replaces a question's word, so two runs that differ only in
// that word compare equal.
func normalized(t *testing.T, b []byte, from, to string) string {
	t.Helper()
	if from != "" {
		b = []byte(strings.ReplaceAll(string(b), from, to))
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v: %.300s", err, b)
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			if x["name"] == "index" {
				delete(x, "note")
			}
			for k, e := range x {
				if k == "ms" || strings.HasSuffix(k, "_ms") || k == "id" || k == "request_id" || k == "run_id" ||
					strings.HasSuffix(k, "_at") || k == "latency" {
					delete(x, k)
					continue
				}
				x[k] = walk(e)
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	out, _ := json.MarshalIndent(walk(v), "", " ")
	return string(out)
}

// hiddenWordPairs draws n pairs of (a canary hidden from the public, a
// word no document has).
func hiddenWordPairs(cc *canaryCorpus, n int) [][2]string {
	hidden := cc.hidden([]string{"public"})
	var out [][2]string
	for i := range n {
		out = append(out, [2]string{hidden[(i*7)%len(hidden)], cc.fresh()})
	}
	return out
}

// swapped writes a copy of the corpus in which each pair's hidden word is
// replaced by its absent partner: there the first word occurs nowhere.
func (cc *canaryCorpus) swapped(t *testing.T, dir string, pairs [][2]string) string {
	t.Helper()
	b, err := os.ReadFile(cc.path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, p := range pairs {
		s = strings.ReplaceAll(s, p[0], p[1])
	}
	path := filepath.Join(dir, "swapped.jsonl")
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// pairQuestions are the questions asked with each hidden word.
var pairQuestions = []string{
	"what does the warranty say about %s",
	"%s X300 Pro motor repair rate",
	"how do I descale the kettle %s",
	"%s",
}

// TestHiddenWordsChangeNothing: for random pairs of (a word only a hidden
// document has, a word no document has), a public principal's results —
// answer, stop, citations, trace with hits, scores, coverage, warnings,
// assessments, rewrites and errors — are identical apart from timings.
// The same question is asked of two indexes: one where the word is in a
// document the principal cannot see, one where that document holds the
// pair's other word instead, so the word is in no document (asking the
// same question of both keeps everything that depends on the question's
// own spelling, like its vector, the same). Before statistics were
// computed per visible set, coverage percentages and hit scores differed.
func TestHiddenWordsChangeNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP hidden-word pairs: -short")
	}
	hiddenWordsChangeNothing(t)
}

// TestHiddenWordsChangeNothingRediSearch is TestHiddenWordsChangeNothing
// on the redisearch backend, whose visible statistics the engine counts.
func TestHiddenWordsChangeNothingRediSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP hidden-word pairs: -short")
	}
	hiddenWordsChangeNothing(t, redistest.Start(t).Addr)
}

func hiddenWordsChangeNothing(t *testing.T, redisAddr ...string) {
	dir := t.TempDir()
	cc := newCanaryCorpus(t, dir, 30, 7)
	pairs := hiddenWordPairs(cc, 20)
	withWord := newProbeEnv(t, cc.path, redisAddr...)
	without := newProbeEnv(t, cc.swapped(t, dir, pairs), redisAddr...)
	public := []string{"public"}
	tried, differ := 0, 0
	for _, pair := range pairs {
		for _, tmpl := range pairQuestions {
			q := fmt.Sprintf(tmpl, pair[0])
			_, a := withWord.ask(t, 0, q, public)
			_, b := without.ask(t, 0, q, public)
			tried++
			if na, nb := normalized(t, a, "", ""), normalized(t, b, "", ""); na != nb {
				differ++
				if differ <= 3 {
					t.Errorf("%q: results differ when %s is in a hidden document and when it is in none:\n%s", q, pair[0], lineDiff(na, nb))
				}
			}
		}
	}
	t.Logf("hidden-word pairs: %d questions compared, %d differ", tried, differ)
	if differ > 0 {
		t.Errorf("%d of %d questions told a public principal whether a hidden document holds a word", differ, tried)
	}
}

// lineDiff shows the lines where two texts differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("line %d:\n  hidden: %s\n  absent: %s", i+1, x, y))
		}
		if len(out) >= 8 {
			break
		}
	}
	return strings.Join(out, "\n")
}

// gatewayProbe is one question asked through a running gateway: the
// response, the trace and the event stream, as the client received them.
type gatewayProbe struct {
	response, trace, events []byte
}

func (g gatewayProbe) all() string {
	return string(g.response) + "\n" + string(g.trace) + "\n" + string(g.events)
}

// askGateway asks question with key through the gateway at base and reads
// everything a client can read about the run. Safe to call from several
// goroutines.
func askGateway(ctx context.Context, base, key, question string) (gatewayProbe, error) {
	get := func(method, url string, body io.Reader) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, method, url, body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s %s = %d %s", method, url, resp.StatusCode, b)
		}
		return b, err
	}
	body, _ := json.Marshal(map[string]string{"question": question})
	resp, err := get(http.MethodPost, base+"/v1/questions?wait=60s", bytes.NewReader(body))
	if err != nil {
		return gatewayProbe{}, err
	}
	var q struct{ ID string }
	if err := json.Unmarshal(resp, &q); err != nil || q.ID == "" {
		return gatewayProbe{}, fmt.Errorf("POST %q: %s", question, resp)
	}
	tr, err := get(http.MethodGet, base+"/v1/questions/"+q.ID+"/trace", nil)
	if err != nil {
		return gatewayProbe{}, err
	}
	ev, err := rawEvents(ctx, base, key, q.ID, "")
	return gatewayProbe{response: resp, trace: tr, events: []byte(ev)}, err
}

// normalizedEvents is an SSE stream with ids dropped and each data line
// normalized.
func normalizedEvents(t *testing.T, raw []byte) string {
	t.Helper()
	var out []string
	for line := range strings.SplitSeq(string(raw), "\n") {
		switch {
		case strings.HasPrefix(line, "id:"):
		case strings.HasPrefix(line, "data:"):
			out = append(out, "data: "+normalized(t, []byte(strings.TrimPrefix(line, "data:")), "", ""))
		default:
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// probeKeys are API keys for probePrincipals, in order.
func probeConfig(t *testing.T, dir string) (path string, keys []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("auth:\n  keys:\n")
	for i, groups := range probePrincipals {
		key := fmt.Sprintf("probe-key-%d", i)
		keys = append(keys, key)
		quoted := make([]string, len(groups))
		for j, g := range groups {
			quoted[j] = strconv.Quote(g)
		}
		fmt.Fprintf(&b, "    - name: prober-%d\n      sha256: %s\n      groups: [%s]\n", i, auth.Hash(key), strings.Join(quoted, ", "))
	}
	b.WriteString("batch:\n  concurrency: 8\n")
	path = filepath.Join(dir, "assay.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, keys
}

// TestEndToEndACLProbes is the gateway sample of the probe suite, on a
// real local Temporal: (principal, question) probes over the canary
// corpus through the HTTP API, checking the response, the trace and the
// event stream; then, on two stacks whose corpora differ only in whether
// a hidden document holds a word, the same public questions give
// byte-identical responses, traces and events apart from ids and timings.
func TestEndToEndACLProbes(t *testing.T) {
	dir := t.TempDir()
	full := os.Getenv("ASSAY_PROBES_FULL") == "1"
	canaries := 40
	if full {
		canaries = 100
	}
	cc := newCanaryCorpus(t, dir, canaries, 21)
	cfg, keys := probeConfig(t, dir)
	s := startDev(t, filepath.Join(dir, "data"), "--config", cfg, "--corpus", cc.path)
	type probe struct {
		q      string
		p      int
		groups []string
	}
	// The sample asks one question per canary and principal; with
	// ASSAY_PROBES_FULL=1, every probe TestACLProbes asks.
	var probes []probe
	for i, c := range cc.ordered {
		for p, groups := range probePrincipals {
			if !full {
				probes = append(probes, probe{cc.probeQuestions(c)[(i+p)%4], p, groups})
				continue
			}
			for _, q := range cc.probeQuestions(c) {
				probes = append(probes, probe{q, p, groups})
			}
		}
	}
	if full {
		for _, q := range stacktest.Questions(t, "../../testdata/hollin/questions.jsonl") {
			for p, groups := range probePrincipals {
				probes = append(probes, probe{q, p, groups})
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	var mu sync.Mutex
	tried, leaked := 0, 0
	probeStart := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(6)
	for _, pr := range probes {
		g.Go(func() error {
			got, err := askGateway(gctx, s.URL, keys[pr.p], pr.q)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			tried++
			if l := cc.leaks(pr.groups, pr.q, got.all()); len(l) > 0 {
				leaked++
				t.Errorf("gateway probe %q as %v leaks %v:\n%.1500s", pr.q, pr.groups, l, got.all())
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	t.Logf("gateway ACL probes: %d tried, %d leaked, in %s", tried, leaked, time.Since(probeStart).Round(time.Millisecond))
	s.stop(t)

	pairs := hiddenWordPairs(cc, 8)
	with := startDev(t, filepath.Join(dir, "with"), "--config", cfg, "--corpus", cc.path)
	without := startDev(t, filepath.Join(dir, "without"), "--config", cfg, "--corpus", cc.swapped(t, dir, pairs))
	public := keys[0]
	compared := 0
	for _, pair := range pairs {
		for _, tmpl := range pairQuestions[:2] {
			q := fmt.Sprintf(tmpl, pair[0])
			a, err := askGateway(ctx, with.URL, public, q)
			if err != nil {
				t.Fatal(err)
			}
			b, err := askGateway(ctx, without.URL, public, q)
			if err != nil {
				t.Fatal(err)
			}
			compared++
			for _, part := range []struct{ name, a, b string }{
				{"response", normalized(t, a.response, "", ""), normalized(t, b.response, "", "")},
				{"trace", normalized(t, a.trace, "", ""), normalized(t, b.trace, "", "")},
				{"events", normalizedEvents(t, a.events), normalizedEvents(t, b.events)},
			} {
				if part.a != part.b {
					t.Errorf("%q: the %s differs when %s is in a hidden document and when it is in none:\n%s", q, part.name, pair[0], lineDiff(part.a, part.b))
				}
			}
		}
	}
	t.Logf("gateway hidden-word pairs: %d questions compared", compared)
}
