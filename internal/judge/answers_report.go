package judge

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/assay-rag/assay/internal/wire"
)

// WriteJSON writes the report's stable JSON form (schema AnswersSchema),
// indented.
func (r AnswersReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// reportView is the report as both renderers show it: every number
// formatted once, so the Markdown and the HTML cannot disagree.
type reportView struct {
	Title     string
	Intro     string
	Metrics   []metricRow
	Outcomes  []countRow
	Stops     []countRow
	ByType    []groupRow
	ByRoute   []groupRow
	Questions []questionRow
	Failures  []failureRow
}

type metricRow struct{ Name, Loop, OnePass string }

type countRow struct {
	Name          string
	Loop, OnePass int
}

// groupRow holds "loop / one-pass" pairs.
type groupRow struct {
	Key, Runs, OK, RightSource, KeyFacts, Refusal, LatencyP50 string
}

type questionRow struct {
	ID, Type, Groups                                   string
	LoopOutcome, LoopStop, OnePassOutcome, OnePassStop string
	Cited, Leaks                                       string
	LoopOK, OnePassOK                                  bool
}

type failureRow struct {
	ID, Type, Question, Loop, OnePass string
}

func pct(r Ratio) string {
	if r.Of == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%d/%d (%.1f%%)", r.N, r.Of, 100*r.Rate)
}

func shortPct(r Ratio) string {
	if r.Of == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*r.Rate)
}

func pair(a, b string) string { return a + " / " + b }

func (r AnswersReport) view() reportView {
	o := r.Overall
	l, p := o.Loop, o.OnePass
	v := reportView{
		Title: "Answer evaluation: " + filepath.Base(r.QuestionsFile),
		Intro: fmt.Sprintf("%d questions (%d answerable, %d no-answer) · loop: up to %d attempts · one-pass: %d attempt · top-k %d · threshold %.2f · corpus %s (%d documents)",
			l.Questions, l.Answerable, l.NoAnswer, r.Settings.LoopMaxAttempts, r.Settings.OnePassMaxAttempts,
			r.Settings.TopK, r.Settings.Threshold, r.Corpus, r.Documents),
	}
	traj := func(s Summary) string {
		return fmt.Sprintf("%.2f → %.2f (%+.2f)", s.Trajectory.MeanFirstScore, s.Trajectory.MeanFinalScore, s.Trajectory.MeanImprovement)
	}
	v.Metrics = []metricRow{
		{"right source cited", pct(l.RightSourceCited), pct(p.RightSourceCited)},
		{"answer has the key facts", pct(l.KeyFacts), pct(p.KeyFacts)},
		{"cited documents relevant (precision)", pct(l.CitedPrecision), pct(p.CitedPrecision)},
		{"answer sentences holding a key fact", pct(l.OnQuestion), pct(p.OnQuestion)},
		{"no-answer refusal", pct(l.NoAnswerRefusal), pct(p.NoAnswerRefusal)},
		{"citation validity", pct(l.CitationValidity), pct(p.CitationValidity)},
		{"answers citing a stale source", pct(l.StaleCitations), pct(p.StaleCitations)},
		{"answers citing a weak source", pct(l.WeakCitations), pct(p.WeakCitations)},
		{"answers whose sources miss an asked entity", pct(l.OtherEntity), pct(p.OtherEntity)},
		{"forbidden leaks (must be 0)", fmt.Sprint(l.ForbiddenLeaks), fmt.Sprint(p.ForbiddenLeaks)},
		{"ok (all questions)", pct(l.OK), pct(p.OK)},
		{"latency p50 / p95 / p99", latencies(l), latencies(p)},
		{"tokens in / out", fmt.Sprintf("%d / %d", l.TokensIn, l.TokensOut), fmt.Sprintf("%d / %d", p.TokensIn, p.TokensOut)},
		{"cost", fmt.Sprintf("$%.4f", l.CostUSD), fmt.Sprintf("$%.4f", p.CostUSD)},
		{"search calls (mean)", fmt.Sprintf("%d (%.2f)", l.Trajectory.SearchCalls, l.Trajectory.MeanSearchCalls), fmt.Sprintf("%d (%.2f)", p.Trajectory.SearchCalls, p.Trajectory.MeanSearchCalls)},
		{"runs rewritten / score improved", fmt.Sprintf("%d / %d", l.Trajectory.Rewritten, l.Trajectory.Improved), fmt.Sprintf("%d / %d", p.Trajectory.Rewritten, p.Trajectory.Improved)},
		{"assessment score first → final (mean)", traj(l), traj(p)},
	}
	if len(l.Trajectory.Strategies)+len(p.Trajectory.Strategies) > 0 {
		v.Metrics = append(v.Metrics, metricRow{"rewrites tried / skipped / helped / accepted", strategies(l), strategies(p)})
	}
	if l.RunsFailed+p.RunsFailed > 0 {
		v.Metrics = append(v.Metrics, metricRow{"runs failed", fmt.Sprint(l.RunsFailed), fmt.Sprint(p.RunsFailed)})
	}
	for _, oc := range Outcomes {
		if a, b := l.Outcomes[oc], p.Outcomes[oc]; a+b > 0 {
			v.Outcomes = append(v.Outcomes, countRow{string(oc), a, b})
		}
	}
	for _, sr := range wire.StopReasons {
		if a, b := l.StopReasons[sr], p.StopReasons[sr]; a+b > 0 {
			v.Stops = append(v.Stops, countRow{string(sr), a, b})
		}
	}
	group := func(c Comparison) groupRow {
		return groupRow{
			Key:         c.Key,
			Runs:        pair(fmt.Sprint(c.Loop.Questions), fmt.Sprint(c.OnePass.Questions)),
			OK:          pair(shortPct(c.Loop.OK), shortPct(c.OnePass.OK)),
			RightSource: pair(shortPct(c.Loop.RightSourceCited), shortPct(c.OnePass.RightSourceCited)),
			KeyFacts:    pair(shortPct(c.Loop.KeyFacts), shortPct(c.OnePass.KeyFacts)),
			Refusal:     pair(shortPct(c.Loop.NoAnswerRefusal), shortPct(c.OnePass.NoAnswerRefusal)),
			LatencyP50:  pair(p50(c.Loop), p50(c.OnePass)),
		}
	}
	for _, c := range r.ByType {
		v.ByType = append(v.ByType, group(c))
	}
	for _, c := range r.ByRoute {
		v.ByRoute = append(v.ByRoute, group(c))
	}
	for _, q := range r.Questions {
		row := questionRow{
			ID: q.ID, Type: q.Type, Groups: strings.Join(q.Groups, ","),
			LoopOutcome: string(q.Loop.Outcome), LoopStop: runStop(q.Loop),
			OnePassOutcome: string(q.OnePass.Outcome), OnePassStop: runStop(q.OnePass),
			Cited: listOr(q.Loop.Cited, "—"), Leaks: leakText(q),
			LoopOK: q.Loop.Outcome == OK, OnePassOK: q.OnePass.Outcome == OK,
		}
		v.Questions = append(v.Questions, row)
		if !row.LoopOK || !row.OnePassOK {
			v.Failures = append(v.Failures, failureRow{
				ID: q.ID, Type: q.Type, Question: q.Question,
				Loop: runDetail(q.Loop), OnePass: runDetail(q.OnePass),
			})
		}
	}
	return v
}

// p50 is the median latency, or n/a when no run completed.
func p50(s Summary) string {
	if s.Questions == s.RunsFailed {
		return "n/a"
	}
	return fmt.Sprintf("%.0f", s.LatencyP50MS)
}

func latencies(s Summary) string {
	return fmt.Sprintf("%.0f / %.0f / %.0f ms", s.LatencyP50MS, s.LatencyP95MS, s.LatencyP99MS)
}

func runStop(r RunEval) string {
	if r.Outcome == RunFailed {
		return "failed"
	}
	return fmt.Sprintf("%s (%d)", r.StopReason, r.Attempts)
}

func runDetail(r RunEval) string {
	var b strings.Builder
	b.WriteString(string(r.Outcome))
	if r.Detail != "" {
		b.WriteString(": " + r.Detail)
	}
	var extra []string
	if len(r.StaleCitations) > 0 {
		extra = append(extra, "stale citations "+strings.Join(r.StaleCitations, ", "))
	}
	if len(r.WeakCitations) > 0 {
		extra = append(extra, "weak citations "+strings.Join(r.WeakCitations, ", "))
	}
	if len(r.OtherEntity) > 0 {
		extra = append(extra, "no source mentions "+strings.Join(r.OtherEntity, ", "))
	}
	if len(r.Stripped) > 0 {
		extra = append(extra, "stripped "+strings.Join(r.Stripped, " "))
	}
	if len(extra) > 0 {
		b.WriteString(" [" + strings.Join(extra, "; ") + "]")
	}
	return b.String()
}

func leakText(q QuestionEval) string {
	var parts []string
	for _, sys := range []struct {
		name string
		r    RunEval
	}{{"loop", q.Loop}, {"one-pass", q.OnePass}} {
		for _, l := range sys.r.Leaks {
			parts = append(parts, fmt.Sprintf("%s: %s in %s", sys.name, l.DocID, strings.Join(l.Where, ",")))
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, "; ")
}

// mdCell escapes what would break a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteMarkdown writes the report as Markdown for a pull-request comment:
// the headline table, where answers were lost, stop reasons, by type, by
// route, every question, and the details of each question not ok.
func (r AnswersReport) WriteMarkdown(w io.Writer) error {
	v := r.view()
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n%s\n\n", v.Title, v.Intro)
	b.WriteString("| metric | loop | one-pass |\n|---|---:|---:|\n")
	for _, m := range v.Metrics {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", m.Name, m.Loop, m.OnePass)
	}
	b.WriteString("\n### Where the answer was lost\n\n| outcome | loop | one-pass |\n|---|---:|---:|\n")
	for _, c := range v.Outcomes {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", c.Name, c.Loop, c.OnePass)
	}
	b.WriteString("\n### Stop reasons\n\n| stop reason | loop | one-pass |\n|---|---:|---:|\n")
	for _, c := range v.Stops {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", c.Name, c.Loop, c.OnePass)
	}
	groups := func(title, key string, rows []groupRow) {
		fmt.Fprintf(&b, "\n### %s (loop / one-pass)\n\n| %s | questions | ok | right source | key facts | no-answer refusal | p50 ms |\n|---|---:|---:|---:|---:|---:|---:|\n", title, key)
		for _, g := range rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(g.Key), g.Runs, g.OK, g.RightSource, g.KeyFacts, g.Refusal, g.LatencyP50)
		}
	}
	groups("By question type", "type", v.ByType)
	groups("By route", "route", v.ByRoute)
	b.WriteString("\n### Questions\n\n| id | type | asked as | loop | stop (attempts) | one-pass | stop (attempts) | cited (loop) | leaks |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, q := range v.Questions {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mdCell(q.ID), mdCell(q.Type), mdCell(q.Groups),
			q.LoopOutcome, q.LoopStop, q.OnePassOutcome, q.OnePassStop, mdCell(q.Cited), mdCell(q.Leaks))
	}
	if len(v.Failures) > 0 {
		b.WriteString("\n### Not ok\n\n")
		for _, f := range v.Failures {
			fmt.Fprintf(&b, "- **%s** (%s) %q\n  - loop: %s\n  - one-pass: %s\n", f.ID, f.Type, f.Question, f.Loop, f.OnePass)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSummary prints the headline table and where answers were lost as
// aligned text, for a terminal.
func (r AnswersReport) WriteSummary(w io.Writer) error {
	v := r.view()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\n%s\n\n", v.Title, v.Intro)
	fmt.Fprintf(tw, "metric\tloop\tone-pass\n")
	for _, m := range v.Metrics {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.Name, m.Loop, m.OnePass)
	}
	fmt.Fprintf(tw, "\nwhere lost\tloop\tone-pass\n")
	for _, c := range v.Outcomes {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", c.Name, c.Loop, c.OnePass)
	}
	fmt.Fprintf(tw, "\nstop reason\tloop\tone-pass\n")
	for _, c := range v.Stops {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", c.Name, c.Loop, c.OnePass)
	}
	return tw.Flush()
}

// strategies lists each rewrite strategy's counts: "feedback 3/1/1/0".
func strategies(s Summary) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(s.Trajectory.Strategies)) {
		c := s.Trajectory.Strategies[name]
		parts = append(parts, fmt.Sprintf("%s %d/%d/%d/%d", name, c.Tried, c.Skipped, c.Helped, c.Accepted))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
