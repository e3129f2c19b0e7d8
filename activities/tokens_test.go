package activities

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/tokens"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// streamingGenerator streams its pieces through OnToken when it is set,
// as the LLM generator does, and records whether it was.
type streamingGenerator struct {
	pieces   []string
	streamed bool
}

func (g *streamingGenerator) Generate(_ context.Context, req generate.Request) (generate.Answer, error) {
	if req.OnToken != nil {
		g.streamed = true
		for _, p := range g.pieces {
			if err := req.OnToken(p); err != nil {
				return generate.Answer{}, err
			}
		}
	}
	return generate.Answer{Text: strings.Join(g.pieces, ""), Model: "small-m"}, nil
}

// testWorkflowID is the workflow id the SDK's test activity environment
// reports.
const testWorkflowID = "default-test-workflow-id"

func readAll(s *tokens.Subscription) []tokens.Piece {
	var out []tokens.Piece
	for {
		select {
		case p := <-s.Pieces():
			out = append(out, p)
		default:
			return out
		}
	}
}

// TestGenerateStreamsTokens: with a publisher and a model route, the
// model's pieces go out on the run's stream in order, numbered, then a
// done marker; the activity's result is still the checked answer.
func TestGenerateStreamsTokens(t *testing.T) {
	pieces := []string{"Blender motors ", "on the X300 Pro ", "are covered for 5 years ", "[1][9]."}
	gen := &streamingGenerator{pieces: pieces}
	hub := tokens.NewHub(0)
	sub, err := hub.Subscribe(context.Background(), testWorkflowID)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	a := generateActivities("")
	a.Tokens = hub
	a.Models.Generator = func(router.Decision) (generate.Generator, error) { return gen, nil }
	in := generateIn
	in.Route = router.Decision{Task: router.Generate, Route: router.Small, Model: "small-m"}

	out, err := execute[wire.GenerateOutput](t, a, a.Generate, in)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if !gen.streamed {
		t.Fatal("the generator was not asked to stream")
	}
	got := readAll(sub)
	if len(got) != len(pieces)+1 {
		t.Fatalf("published %d pieces, want %d and a done marker: %+v", len(got), len(pieces), got)
	}
	stream := got[0].Stream
	if !strings.HasSuffix(stream, "/1") || got[0].Attempt != 1 {
		t.Errorf("stream %q attempt %d, want <activity id>/1 and attempt 1", stream, got[0].Attempt)
	}
	for i, p := range got {
		if p.Stream != stream || p.Seq != int64(i+1) {
			t.Errorf("piece %d = %+v, want stream %s seq %d", i, p, stream, i+1)
		}
		if i < len(pieces) && (p.Text != pieces[i] || p.Done) {
			t.Errorf("piece %d = %+v, want text %q", i, p, pieces[i])
		}
	}
	if last := got[len(got)-1]; !last.Done || last.Text != "" {
		t.Errorf("last piece = %+v, want a done marker with no text", last)
	}
	// The pieces are raw; the answer is checked: [9] was never issued.
	if strings.Contains(out.Answer.Text, "[9]") || len(out.Answer.Citations) != 1 {
		t.Errorf("answer %q citations %v, want [9] stripped and [1] resolved", out.Answer.Text, out.Answer.Citations)
	}
}

// TestGenerateNeverWaitsForSubscribers: a subscriber that reads nothing
// loses the oldest pieces, not the model's time, and still gets done.
func TestGenerateNeverWaitsForSubscribers(t *testing.T) {
	var pieces []string
	for range 100 {
		pieces = append(pieces, "word ")
	}
	pieces = append(pieces, "[1].")
	hub := tokens.NewHub(3)
	sub, err := hub.Subscribe(context.Background(), testWorkflowID)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	a := generateActivities("")
	a.Tokens = hub
	a.Models.Generator = func(router.Decision) (generate.Generator, error) {
		return &streamingGenerator{pieces: pieces}, nil
	}
	in := generateIn
	in.Route = router.Decision{Task: router.Generate, Route: router.Small, Model: "small-m"}
	if _, err := execute[wire.GenerateOutput](t, a, a.Generate, in); err != nil {
		t.Fatalf("Generate: %v", err)
	}
	got := readAll(sub)
	if len(got) != 3 || !got[2].Done || got[2].Seq != int64(len(pieces)+1) || sub.Dropped() != int64(len(pieces)-2) {
		t.Errorf("slow subscriber kept %+v (dropped %d), want the last two pieces and done", got, sub.Dropped())
	}
}

// TestGenerateBuiltinDoesNotStream: the builtin route, or no publisher,
// publishes nothing and asks no one to stream.
func TestGenerateBuiltinDoesNotStream(t *testing.T) {
	for _, tt := range []struct {
		name      string
		route     router.Decision
		publisher bool
	}{
		{"builtin route", router.Decision{Task: router.Generate, Route: router.Builtin, Model: router.BuiltinGenerateModel}, true},
		{"no publisher", router.Decision{Task: router.Generate, Route: router.Small, Model: "small-m"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gen := &streamingGenerator{pieces: []string{"Five years [1]."}}
			hub := tokens.NewHub(0)
			sub, err := hub.Subscribe(context.Background(), testWorkflowID)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			a := generateActivities("")
			a.Models.BuiltinGenerator = gen
			a.Models.Generator = func(router.Decision) (generate.Generator, error) { return gen, nil }
			if tt.publisher {
				a.Tokens = hub
			}
			in := generateIn
			in.Route = tt.route
			if _, err := execute[wire.GenerateOutput](t, a, a.Generate, in); err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if gen.streamed {
				t.Error("the generator was asked to stream")
			}
			if got := readAll(sub); len(got) != 0 {
				t.Errorf("published %+v, want nothing", got)
			}
		})
	}
}
