package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/wire"
)

// What an operator reads on a run's Temporal timeline (Web UI, `temporal
// workflow describe`): a one-line summary on every activity call, saying
// what it was asked (`search "x200 warranty" k=5`, `assess attempt 2`),
// and the run's current details, a Markdown list of what each call
// returned (`search "x200 warranty" k=5 → 5 hits`, `assess 0.82
// accepted`), under a line saying where the loop is. The static details
// set at start (StaticDetails) name the principal and the budgets.
//
// Summaries and details are metadata: they are recorded with the commands
// but never compared on replay, so they change no history.

// maxQuoted bounds a query quoted in a summary or a details line.
const maxQuoted = 80

// quoted is q in double quotes, on one line, shortened to maxQuoted runes,
// with the Markdown that could make a link, an image, HTML or code of it
// escaped: queries are the asker's text, and the Web UI renders summaries
// and details as Markdown for operators.
func quoted(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if r := []rune(q); len(r) > maxQuoted {
		q = string(r[:maxQuoted]) + "…"
	}
	return markdownEscaper.Replace(fmt.Sprintf("%q", q))
}

var markdownEscaper = strings.NewReplacer("[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "`", "\\`", "!", `\!`)

// withSummary is o with summary s.
func withSummary(o workflow.ActivityOptions, s string) workflow.ActivityOptions {
	o.Summary = s
	return o
}

func searchSummary(query string, k int) string {
	return fmt.Sprintf("search %s k=%d", quoted(query), k)
}

func assessSummary(n int, model string) string {
	return fmt.Sprintf("assess attempt %d (%s)", n, model)
}

func generateSummary(sources int, model string) string {
	return fmt.Sprintf("generate from %d sources (%s)", sources, model)
}

// searchLine is a search's details line.
func searchLine(summary string, hits int, repeated bool) string {
	s := fmt.Sprintf("%s → %d hits", summary, hits)
	if repeated {
		s += ", the same as an earlier attempt"
	}
	return s
}

// assessLine is an assessment's details line: its score and verdict, and
// the query it proposes next when it rejects.
func assessLine(att wire.Attempt) string {
	if att.Assessment == nil {
		return "assess: no verdict"
	}
	verdict := "rejected"
	if att.Accepted {
		verdict = "accepted"
	}
	s := fmt.Sprintf("assess %.2f %s", att.Assessment.Score, verdict)
	if !att.Accepted && len(att.Proposals) > 0 {
		p := att.Proposals[0]
		s += " → propose " + quoted(p.Query)
		if p.Strategy != "" {
			s += " (" + p.Strategy + ")"
		}
	}
	return s
}

// generateLine is a generation's details line.
func generateLine(a wire.Answer) string {
	s := fmt.Sprintf("generate %d citations (%s)", len(a.Citations), a.Model)
	if a.FinishReason != "" {
		s += ", " + a.FinishReason
	}
	return s
}

// note adds a line to the run's details and shows them.
func (r *run) note(ctx workflow.Context, line string) {
	r.timeline = append(r.timeline, line)
	r.showDetails(ctx, r.detailsHead)
}

// showDetails sets the run's current details: head, then the lines so
// far as a Markdown list.
func (r *run) showDetails(ctx workflow.Context, head string) {
	r.detailsHead = head
	var b strings.Builder
	b.WriteString(head)
	if len(r.timeline) > 0 {
		b.WriteString("\n\n")
		for _, l := range r.timeline {
			b.WriteString("- " + l + "\n")
		}
	}
	workflow.SetCurrentDetails(ctx, b.String())
}

// StaticDetails are a run's static details on the timeline: the
// principal it runs as (its id only: never its groups or key) and its
// budgets, in Markdown.
func StaticDetails(in wire.AnswerInput) string {
	b := in.Budget
	budget := []string{fmt.Sprintf("%d attempts", b.MaxAttempts), "deadline " + b.Deadline.Round(time.Millisecond).String()}
	if b.MaxTokens > 0 {
		budget = append(budget, fmt.Sprintf("%d tokens", b.MaxTokens))
	}
	if b.MaxCostUSD > 0 {
		budget = append(budget, fmt.Sprintf("$%.4f", b.MaxCostUSD))
	}
	return fmt.Sprintf("**principal** `%s`\n\n**budget** %s\n\n**threshold** %.2f · **top k** %d",
		strings.ReplaceAll(in.Principal.ID, "`", "'"), strings.Join(budget, ", "), in.Threshold, in.TopK)
}

// withLocalSummary is ctx with its local activity options' summary set
// to s.
func withLocalSummary(ctx workflow.Context, s string) workflow.Context {
	o := workflow.GetLocalActivityOptions(ctx)
	o.Summary = s
	return workflow.WithLocalActivityOptions(ctx, o)
}
