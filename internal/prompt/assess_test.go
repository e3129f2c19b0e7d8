package prompt

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/golden"
)

func TestBuildAssessmentGolden(t *testing.T) {
	tests := []struct {
		name string
		in   AssessInput
	}{
		{"assess_two_sources", AssessInput{Question: "how many years is the X300 Pro motor covered for",
			Query: "x300 pro motor warranty years", Previous: []string{"how many years is the X300 Pro motor covered for"},
			Sources: []Source{warranty2026, warranty2024}, ContextTokens: 1000}},
		{"assess_no_sources", AssessInput{Question: "how long is the warrenty on a blendr motr",
			Query: "how long is the warrenty on a blendr motr", ContextTokens: 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := BuildAssessment(tt.in, tokenizer(t))
			if err != nil {
				t.Fatalf("BuildAssessment: %v", err)
			}
			if !strings.HasPrefix(p.Version, "assess-v1@") || p.Version != AssessVersion() {
				t.Errorf("version = %q", p.Version)
			}
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), []byte(describe(p)))
		})
	}
}

func TestBuildAssessmentErrors(t *testing.T) {
	tk := tokenizer(t)
	if _, err := BuildAssessment(AssessInput{Question: " ", ContextTokens: 10}, tk); errs.FieldOf(err) != "question" {
		t.Errorf("empty question: err = %v, want a question field error", err)
	}
	_, err := BuildAssessment(AssessInput{Question: "q", Sources: []Source{warranty2026}, ContextTokens: 5}, tk)
	if errs.KindOf(err) != errs.TooLarge {
		t.Errorf("nothing fits: err = %v, want kind too_large", err)
	}
}
