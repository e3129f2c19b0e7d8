package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/workflows"
)

// releaseVerbs are `assay release`'s subcommands.
var releaseVerbs = []struct{ name, args, summary string }{
	{"create", "NAME", "make a release: an index version built from --corpus (or a copy of the served index) and the current models, prompts, policy and loop settings"},
	{"list", "", "list the releases, oldest first, with their states"},
	{"status", "NAME", "show a release's state, canary share and reason (--json)"},
	{"start", "NAME", "start the ReleaseWorkflow: gate on --gate QUESTIONS.jsonl, canary steps, then promote or roll back"},
	{"promote", "NAME", "make NAME the stable release now (ends any canary)"},
	{"rollback", "", "take the canary's candidate out of traffic, or return to the previous stable release"},
	{"approve", "NAME", "let NAME's ReleaseWorkflow go on (past a wait for approval, or a pause)"},
	{"pause", "NAME", "hold NAME's ReleaseWorkflow at its current canary share"},
	{"abort", "NAME", "roll NAME back now through its ReleaseWorkflow"},
}

// runRelease is `assay release SUBCOMMAND`.
func runRelease(ctx context.Context, e env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(e.stderr, "usage: assay release SUBCOMMAND [flags]\n\nsubcommands:")
		for _, v := range releaseVerbs {
			fmt.Fprintf(e.stderr, "  %-9s %-5s %s\n", v.name, v.args, v.summary)
		}
		if len(args) == 0 {
			return usageError("release: no subcommand given")
		}
		return nil
	}
	sub, rest := args[0], args[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		// NAME first, flags after (assay release create NAME --corpus F):
		// the flag package stops at the first argument that is not a flag.
		rest = append(rest[1:], rest[0])
	}
	f := newFlags("release "+sub, e.stderr)
	f.setting("temporal-address", "temporal.address", "Temporal frontend `host:port`")
	f.setting("data-dir", "data_dir", "`dir` holding the release store (embedded mode: <data_dir>/releases)")
	indexSettings(f)
	jsonOut := f.Bool("json", false, "status, list: print JSON")
	corpusPath := f.String("corpus", "", "create: build the release's index version from this corpus `file`")
	note := f.String("note", "", "create: why the release exists")
	gate := f.String("gate", "", "start: labelled questions `file` (JSONL, as eval answers reads) asked on the candidate and on stable")
	gateCorpus := f.String("gate-corpus", "", "start: the corpus `file` the gate questions are labelled against (default index.corpus)")
	canary := f.String("canary", "5,25,50,100", "start: canary `shares` in percent, ascending, ending at 100")
	stepRuns := f.Int("step-runs", 20, "start: candidate runs each canary step waits for")
	stepTimeout := f.Duration("step-timeout", 30*time.Minute, "start: how long a step waits for its runs at most")
	poll := f.Duration("poll", 2*time.Second, "start: how often a step counts runs")
	approve := f.Bool("approve", false, "start: wait for `assay release approve` before the canary and before promotion")
	wait := f.Bool("wait", false, "start: wait for the ReleaseWorkflow to end and print its status")
	thresholds := f.String("thresholds", "", `start: thresholds as JSON over the defaults, e.g. '{"insufficient_context_rise":0.2}'`)
	wantArgs := 1
	if sub == "list" || sub == "rollback" {
		wantArgs = 0
	}
	if err := f.parse(rest, wantArgs); err != nil {
		return err
	}
	name := f.Arg(0)
	if wantArgs == 1 && name == "" {
		return usageError(fmt.Sprintf("release %s: give the release's NAME", sub))
	}
	r, err := newRoot(e, f)
	if err != nil {
		return err
	}
	defer r.Close()
	store, err := releaseStore(ctx, r.Config)
	if err != nil {
		return err
	}
	defer store.Close()
	switch sub {
	case "create":
		return releaseCreate(ctx, e, r, store, name, *corpusPath, *note)
	case "list":
		return releaseList(ctx, e.stdout, store, *jsonOut)
	case "status":
		return releaseStatus(ctx, e.stdout, store, name, *jsonOut)
	case "promote":
		a, err := release.Promote(ctx, store, name, "promoted by hand", release.DefaultKeep)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is the stable release (previous: %s)\n", a.Stable, strings.Join(a.Previous, ", "))
		return pruneReleases(ctx, e, store, a)
	case "rollback":
		a, from, err := release.Rollback(ctx, store, release.RolledBack, "rolled back by hand")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s rolled back; new runs use %s\n", from, a.Stable)
		return pruneReleases(ctx, e, store, a)
	case "start":
		in := workflows.ReleaseInput{Release: name, StepRuns: *stepRuns, StepTimeout: *stepTimeout, Poll: *poll,
			Thresholds: workflows.DefaultReleaseThresholds(), Approve: *approve, Corpus: *gateCorpus}
		if in.Corpus == "" {
			in.Corpus = r.Config.Index.Corpus
		}
		if in.Steps, err = parseSteps(*canary); err != nil {
			return err
		}
		if *thresholds != "" {
			dec := json.NewDecoder(strings.NewReader(*thresholds))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&in.Thresholds); err != nil {
				return usageError(fmt.Sprintf("release start: --thresholds: %v", err))
			}
		}
		if *gate != "" {
			if in.Corpus == "" {
				return usageError("release start: --gate needs --gate-corpus (or index.corpus): the corpus its questions are labelled against")
			}
			if in.Questions, err = gateLines(*gate); err != nil {
				return fmt.Errorf("release start: --gate: %w", err)
			}
		}
		return releaseStart(ctx, e, r, store, in, *wait)
	case "approve", "pause", "abort":
		return releaseSignal(ctx, e, r, store, name, sub)
	}
	return usageError(fmt.Sprintf("release: unknown subcommand %q", sub))
}

func releaseCreate(ctx context.Context, e env, r *Root, store release.Store, name, corpusPath, note string) error {
	_, routing, err := endpointModels(r.Config, r.Log)
	if err != nil {
		return err
	}
	rt, err := release.Runtime(r.Config, routing)
	if err != nil {
		return err
	}
	m, err := release.Create(ctx, store, r.Config, rt, name, release.Source{Corpus: corpusPath}, note, r.Log)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "release %s created (digest %s): %s, %s\n", m.Name, m.Digest, m.Index.Version, m.Index.Manifest)
	return nil
}

// statusView is `release status --json`: the status and the manifest.
type statusView struct {
	release.Status
	Stable   bool             `json:"stable"`
	Manifest release.Manifest `json:"manifest"`
}

func releaseStatus(ctx context.Context, w io.Writer, store release.Store, name string, asJSON bool) error {
	m, err := store.Get(ctx, name)
	if err != nil {
		return err
	}
	st, err := store.Status(ctx, name)
	if err != nil {
		return err
	}
	a, err := store.Active(ctx)
	if err != nil {
		return err
	}
	v := statusView{Status: st, Stable: a.Stable == name, Manifest: m}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	fmt.Fprintf(w, "release %s: %s, share %d%%\n", name, st.State, st.Share)
	if st.Reason != "" {
		fmt.Fprintf(w, "  reason     %s\n", st.Reason)
	}
	if st.Workflow != "" {
		fmt.Fprintf(w, "  workflow   %s\n", st.Workflow)
	}
	fmt.Fprintf(w, "  digest     %s\n  index      %s (%s)\n  assessor   %s %s\n  generator  %s %s\n  router     %s\n",
		m.Digest, m.Index.Version, m.Index.Manifest, m.Assessor.Model, m.Assessor.Prompt, m.Generator.Model, m.Generator.Prompt, m.Router)
	return nil
}

func releaseList(ctx context.Context, w io.Writer, store release.Store, asJSON bool) error {
	ms, err := store.List(ctx)
	if err != nil {
		return err
	}
	a, err := store.Active(ctx)
	if err != nil {
		return err
	}
	var views []statusView
	for _, m := range ms {
		st, err := store.Status(ctx, m.Name)
		if err != nil && !errs.Is(errs.NotFound, err) {
			return err
		}
		st.Name = m.Name
		views = append(views, statusView{Status: st, Stable: a.Stable == m.Name, Manifest: m})
	}
	if asJSON {
		return json.NewEncoder(w).Encode(views)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tSHARE\tCREATED\tINDEX\tREASON")
	for _, v := range views {
		mark := ""
		if v.Stable {
			mark = " (stable)"
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%d%%\t%s\t%s\t%s\n", v.Name, mark, v.State, v.Share, v.Manifest.CreatedAt.Format(time.RFC3339), v.Manifest.Index.Version, v.Reason)
	}
	return tw.Flush()
}

// releaseWorkflowID is the id of the ReleaseWorkflow driving release name.
func releaseWorkflowID(name string) string { return "release-" + name }

func releaseStart(ctx context.Context, e env, r *Root, store release.Store, in workflows.ReleaseInput, wait bool) error {
	if _, err := store.Get(ctx, in.Release); err != nil {
		return err
	}
	a, err := store.Active(ctx)
	if err != nil {
		return err
	}
	switch {
	case a.Stable == "":
		return errs.Errorf("release start", errs.Invalid, "no stable release to compare %s with: promote one first", in.Release)
	case a.Stable == in.Release:
		return errs.Errorf("release start", errs.Conflict, "%s is the stable release already", in.Release)
	case a.Candidate != "":
		return errs.Errorf("release start", errs.Conflict, "release %s is in its canary: wait for it, or `assay release rollback` first", a.Candidate)
	}
	in.Stable = a.Stable
	c, err := r.Client(ctx)
	if err != nil {
		return err
	}
	if err := workflows.RegisterSearchAttributes(ctx, c, r.Config.Temporal.Namespace); err != nil {
		return err
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: releaseWorkflowID(in.Release), TaskQueue: r.Config.Temporal.TaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		StaticSummary:         fmt.Sprintf("release %s against %s: canary %v", in.Release, in.Stable, in.Steps),
	}, workflows.ReleaseWorkflowName, in)
	if err != nil {
		return fmt.Errorf("release start: %w", err)
	}
	fmt.Fprintf(e.stdout, "release %s: ReleaseWorkflow %s started against %s (gate: %d questions; canary %v, %d runs a step)\n",
		in.Release, run.GetID(), in.Stable, len(in.Questions), in.Steps, in.StepRuns)
	if !wait {
		return nil
	}
	var p workflows.ReleaseProgress
	if err := run.Get(ctx, &p); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "release %s: %s: %s\n", p.Release, p.State, p.Reason)
	for _, g := range p.Gate {
		fmt.Fprintf(e.stdout, "  gate on %-12s right source %.2f, refusal %.2f, citation validity %.2f, leaks %d, p95 %.0f ms (%d questions)\n",
			g.Release, g.RightSourceCited, g.Refusal, g.CitationValidity, g.Leaks, g.P95MS, g.Questions)
	}
	for _, s := range p.Steps {
		c, st := s.Window.Candidate, s.Window.Stable
		fmt.Fprintf(e.stdout, "  canary %3d%%: candidate %d runs (%d errors, %d refused, %d insufficient, p95 %.0f ms, $%.5f a run); stable %d runs (%d, %d, %d, p95 %.0f ms, $%.5f a run); passed %v\n",
			s.Share, c.Runs, c.Errors, c.Refused, c.Insufficient, c.P95MS, c.CostPerRun(), st.Runs, st.Errors, st.Refused, st.Insufficient, st.P95MS, st.CostPerRun(), s.Passed)
	}
	if p.State != "promoted" {
		return fmt.Errorf("release %s was not promoted: %s", p.Release, p.Reason)
	}
	return nil
}

func releaseSignal(ctx context.Context, e env, r *Root, store release.Store, name, signal string) error {
	st, err := store.Status(ctx, name)
	if err != nil {
		return err
	}
	if st.Workflow == "" {
		return errs.Errorf("release "+signal, errs.Invalid, "release %s has no ReleaseWorkflow: `assay release start %s` first", name, name)
	}
	c, err := r.Client(ctx)
	if err != nil {
		return err
	}
	if err := c.SignalWorkflow(ctx, st.Workflow, "", signal, nil); err != nil {
		return fmt.Errorf("release %s: %w", signal, err)
	}
	fmt.Fprintf(e.stdout, "release %s: %s sent to %s\n", name, signal, st.Workflow)
	return nil
}

// parseSteps reads --canary: ascending shares in 1..100 ending at 100.
func parseSteps(s string) ([]int, error) {
	var steps []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 100 || (len(steps) > 0 && n <= steps[len(steps)-1]) {
			return nil, usageError(fmt.Sprintf("release start: --canary %q: want ascending percentages in 1..100, like 5,25,50,100", s))
		}
		steps = append(steps, n)
	}
	if len(steps) == 0 || steps[len(steps)-1] != 100 {
		return nil, usageError(fmt.Sprintf("release start: --canary %q must end at 100", s))
	}
	return steps, nil
}

// pruneReleases removes the bleve index versions of releases no longer
// kept: the active ones and release.DefaultKeep previous stables stay.
func pruneReleases(ctx context.Context, e env, store release.Store, a release.Active) error {
	fs, ok := store.(*release.FileStore)
	if !ok {
		return nil // RediSearch: a release's own index stays until dropped by hand
	}
	kept, err := release.Kept(ctx, store, a, release.DefaultKeep)
	if err != nil {
		return err
	}
	gone, err := fs.Prune(kept)
	if len(gone) > 0 {
		fmt.Fprintf(e.stderr, "removed the index versions of %s (not among the last %d releases)\n", strings.Join(gone, ", "), release.DefaultKeep)
	}
	return err
}

// gateLines reads a labelled question file (checked as eval answers
// checks it) as its JSON lines, which the ReleaseWorkflow's input holds.
func gateLines(path string) ([]string, error) {
	qs, err := eval.LoadQuestions(path)
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(qs))
	for i, q := range qs {
		b, err := json.Marshal(q)
		if err != nil {
			return nil, err
		}
		lines[i] = string(b)
	}
	return lines, nil
}
