package activities

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// chunkMap is an in-memory ChunkReader.
type chunkMap map[string]corpus.Chunk

func (m chunkMap) Chunks(_ context.Context, ids []string) ([]corpus.Chunk, error) {
	var out []corpus.Chunk
	for _, id := range ids {
		c, ok := m[id]
		if !ok {
			return nil, errs.Errorf("chunkMap", errs.NotFound, "no chunk %s", id)
		}
		out = append(out, c)
	}
	return out, nil
}

// replyGenerator answers with a fixed text, as a model would.
type replyGenerator string

func (g replyGenerator) Generate(context.Context, generate.Request) (generate.Answer, error) {
	return generate.Answer{Text: string(g), Model: "scripted"}, nil
}

func generateActivities(reply string) *Activities {
	mk := func(id, text string) corpus.Chunk {
		return corpus.Chunk{ID: id + "#0", DocID: id, Title: id, Text: text, Status: corpus.Current, Authority: 1, ACL: []string{"public"}}
	}
	return &Activities{
		Chunks: chunkMap{
			"pol-warranty-2026#0": mk("pol-warranty-2026", "Blender motors on the X200 and X300 Pro are covered for 5 years."),
			"pol-repairs#0":       mk("pol-repairs", "We aim to repair and return an appliance within 10 working days."),
			"pol-spare-parts#0":   mk("pol-spare-parts", "Standard delivery costs £3.95."),
		},
		Models:  Models{BuiltinGenerator: replyGenerator(reply)},
		Checker: generate.NewChecker(terms.New()),
	}
}

var generateIn = wire.GenerateInput{
	Question: "how long is the X300 Pro motor covered",
	ChunkIDs: []string{"pol-warranty-2026#0", "pol-repairs#0", "pol-spare-parts#0"},
	Groups:   []string{"public"},
}

func TestGenerateSanitizesAndResolvesCitations(t *testing.T) {
	a := generateActivities("Blender motors on the X300 Pro are covered for 5 years [1]. Repairs take 10 working days [9].")
	out, err := execute[wire.GenerateOutput](t, a, a.Generate, generateIn)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	ans := out.Answer
	if strings.Contains(ans.Text, "[9]") || len(ans.Stripped) != 1 || ans.Stripped[0].Marker != "[9]" {
		t.Errorf("Generate text %q stripped %+v, want [9] stripped and recorded", ans.Text, ans.Stripped)
	}
	if len(ans.Citations) != 1 || ans.Citations[0].ChunkID != "pol-warranty-2026#0" {
		t.Errorf("Citations = %+v, want label 1 resolved to pol-warranty-2026#0", ans.Citations)
	}
	if !strings.Contains(strings.Join(ans.Warnings, "\n"), "[9]") {
		t.Errorf("Warnings = %q, want the strip reported for the trace", ans.Warnings)
	}
}

func TestGenerateRejectionIsFinal(t *testing.T) {
	tests := []struct {
		reply    string
		wantType string
	}{
		{"Blender motors are covered for 5 years.", errs.Schema.TemporalType()},
		{"NOT_FOUND", errs.Refused.TemporalType()},
		{"", errs.Schema.TemporalType()},
	}
	for _, tt := range tests {
		a := generateActivities(tt.reply)
		_, err := execute[wire.GenerateOutput](t, a, a.Generate, generateIn)
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) {
			t.Fatalf("Generate(reply %q) = %v, want a Temporal application error", tt.reply, err)
		}
		if appErr.Type() != tt.wantType || !appErr.NonRetryable() {
			t.Errorf("Generate(reply %q) error type %q non-retryable %v, want %q non-retryable", tt.reply, appErr.Type(), appErr.NonRetryable(), tt.wantType)
		}
	}
}

// recordingGenerator answers with a fixed text and records the request.
type recordingGenerator struct {
	reply string
	got   *generate.Request
}

func (g *recordingGenerator) Generate(_ context.Context, req generate.Request) (generate.Answer, error) {
	g.got = &req
	return generate.Answer{Text: g.reply, Model: "scripted"}, nil
}

// TestGenerateGetsWhatWasAccepted: the generator hears which of its
// sources the assessor accepted, first the one that answers; an id that
// is not among the sources is dropped, and a run recorded before the field
// (none) gives it none.
func TestGenerateGetsWhatWasAccepted(t *testing.T) {
	for _, tt := range []struct {
		accepted, want []string
	}{
		{[]string{"pol-repairs#0", "pol-warranty-2026#0"}, []string{"pol-repairs#0", "pol-warranty-2026#0"}},
		{[]string{"other#0", "pol-repairs#0"}, []string{"pol-repairs#0"}},
		{nil, nil},
	} {
		a := generateActivities("")
		g := &recordingGenerator{reply: "We aim to repair and return an appliance within 10 working days. [2]"}
		a.Models.BuiltinGenerator = g
		in := generateIn
		in.Accepted = tt.accepted
		if _, err := execute[wire.GenerateOutput](t, a, a.Generate, in); err != nil {
			t.Fatalf("Generate: %v", err)
		}
		if !slices.Equal(g.got.Accepted, tt.want) {
			t.Errorf("accepted %v: the generator got %v, want %v", tt.accepted, g.got.Accepted, tt.want)
		}
	}
}
