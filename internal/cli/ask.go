package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
)

// runAsk submits a question through a gateway, shows its progress on
// stderr as the run goes (from the question's event stream), and prints
// the answer, the cited documents and the stop reason.
func runAsk(ctx context.Context, e env, args []string) error {
	f := newFlags("ask", e.stderr)
	server := f.String("server", "http://127.0.0.1:8080", "gateway `URL` (API key from ASSAY_API_KEY)")
	timeout := f.Duration("timeout", 2*time.Minute, "how long to wait for the answer")
	asJSON := f.Bool("json", false, "print the result as JSON")
	quiet := f.Bool("quiet", false, "do not show progress")
	if err := f.parse(args, -1); err != nil {
		return err
	}
	question := strings.TrimSpace(strings.Join(f.Args(), " "))
	if question == "" {
		return usageError(`ask: give the question as an argument: assay ask "how do I descale the kettle"`)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	c := &apiclient.Client{BaseURL: *server, APIKey: e.getenv("ASSAY_API_KEY")}
	id, err := c.Submit(ctx, api.QuestionRequest{Question: question})
	if err != nil {
		return fmt.Errorf("ask: %w", err)
	}
	var onStage func(api.StageEvent)
	if !*quiet {
		onStage = func(st api.StageEvent) { fmt.Fprintln(e.stderr, stageLine(st)) }
	}
	q, err := c.Follow(ctx, id, onStage)
	if err != nil {
		return fmt.Errorf("ask: waiting for %s: %w", id, err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(q)
	}
	printAnswer(e, q)
	if q.Status == api.Failed {
		return fmt.Errorf("ask: run %s failed; see the Temporal UI", id)
	}
	return nil
}

// stageLine is one progress line of `assay ask`.
func stageLine(st api.StageEvent) string {
	line := fmt.Sprintf("· attempt %d: %s", st.Attempt, st.Stage)
	switch {
	case st.Stage == "rewrite" && st.Query != "":
		line += fmt.Sprintf(" → %q", st.Query)
	case st.Query != "":
		line += fmt.Sprintf(" %q", st.Query)
	}
	return line
}

func printAnswer(e env, q api.QuestionResponse) {
	if q.Answer != "" {
		fmt.Fprintf(e.stdout, "%s\n\n", q.Answer)
	} else {
		fmt.Fprintln(e.stdout, "(no answer)")
		fmt.Fprintln(e.stdout)
	}
	if len(q.Citations) > 0 {
		fmt.Fprintln(e.stdout, "Sources:")
		for _, c := range q.Citations {
			fmt.Fprintf(e.stdout, "  [%s] %s  %s\n", c.Label, c.DocID, c.Title)
		}
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprintf(e.stdout, "Stop reason: %s\nRun: %s (%s)\n", q.StopReason, q.ID, q.Status)
}
