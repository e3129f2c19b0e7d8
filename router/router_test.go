package router

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoute(t *testing.T) {
	both := DefaultPolicy("small-m", "large-m")
	both.PromptVersions = map[Task]string{Assess: "assess/v1", Generate: "generate/v1"}
	onlySmall := DefaultPolicy("small-m", "")
	onlyLarge := DefaultPolicy("", "large-m")
	none := DefaultPolicy("", "")
	withFallback := DefaultPolicy("small-m", "large-m")
	withFallback.FallbackBuiltin = true
	// same names one model for both routes: escalating or rewriting on
	// the "large" route would only ask the same model again.
	same := DefaultPolicy("m", "m")
	limit := both.MaxSmallInputTokens

	type want struct {
		route    Class
		model    string
		rule     string
		fallback string
		prompt   string
		tokens   int
	}
	tests := []struct {
		name   string
		policy Policy
		req    Request
		want   want
	}{
		{"no endpoint assess", none, Request{Task: Assess},
			want{Builtin, BuiltinAssessModel, "builtin.assess", "", "", none.LargeTokenBudget}},
		{"no endpoint rewrite", none, Request{Task: Rewrite},
			want{Builtin, BuiltinRewriteModel, "builtin.rewrite", "", "", none.LargeTokenBudget}},
		{"no endpoint generate", none, Request{Task: Generate, InputTokens: 1 << 20},
			want{Builtin, BuiltinGenerateModel, "builtin.generate", "", "", none.LargeTokenBudget}},
		{"assess fits small", both, Request{Task: Assess, InputTokens: 900},
			want{Small, "small-m", "task.small", "large-m", "assess/v1", both.SmallTokenBudget}},
		{"generate fits small", both, Request{Task: Generate},
			want{Small, "small-m", "task.small", "large-m", "generate/v1", both.SmallTokenBudget}},
		{"oversized input", both, Request{Task: Generate, InputTokens: 5000},
			want{Large, "large-m", "size.large", BuiltinGenerateModel, "generate/v1", both.LargeTokenBudget}},
		{"schema failure escalates small to large", both, Request{Task: Assess, Failure: SchemaInvalid, Previous: "small-m"},
			want{Large, "large-m", "escalate.schema_invalid", BuiltinAssessModel, "assess/v1", both.LargeTokenBudget}},
		{"large failure falls back to builtin", both, Request{Task: Assess, Failure: SchemaInvalid, Previous: "large-m"},
			want{Builtin, BuiltinAssessModel, "escalate.schema_invalid", "", "", both.LargeTokenBudget}},
		{"builtin failure stays builtin", both, Request{Task: Generate, Failure: Unsupported, Previous: BuiltinGenerateModel},
			want{Builtin, BuiltinGenerateModel, "escalate.unsupported", "", "", both.LargeTokenBudget}},
		{"only small: oversized goes builtin", onlySmall, Request{Task: Generate, InputTokens: 9000},
			want{Builtin, BuiltinGenerateModel, "size.large", "", "", onlySmall.LargeTokenBudget}},
		{"only small fits", onlySmall, Request{Task: Assess},
			want{Small, "small-m", "only.small", BuiltinAssessModel, "", onlySmall.SmallTokenBudget}},
		{"only small escalates to builtin", onlySmall, Request{Task: Assess, Failure: Oversized, Previous: "small-m"},
			want{Builtin, BuiltinAssessModel, "escalate.oversized", "", "", onlySmall.LargeTokenBudget}},
		{"only large", onlyLarge, Request{Task: Assess},
			want{Large, "large-m", "only.large", BuiltinAssessModel, "", onlyLarge.LargeTokenBudget}},
		{"unavailable small goes straight to builtin", withFallback, Request{Task: Assess, Failure: Unavailable, Previous: "small-m"},
			want{Builtin, BuiltinAssessModel, "escalate.unavailable", "", "", both.LargeTokenBudget}},
		{"unavailable large goes to builtin", withFallback, Request{Task: Generate, Failure: Unavailable, Previous: "large-m"},
			want{Builtin, BuiltinGenerateModel, "escalate.unavailable", "", "", both.LargeTokenBudget}},
		{"rewrite in model assessment", both, Request{Task: Rewrite, AssessModel: "small-m"},
			want{Small, "small-m", "rewrite.in-assessment", "large-m", "", both.SmallTokenBudget}},
		{"rewrite in large assessment", both, Request{Task: Rewrite, AssessModel: "large-m"},
			want{Large, "large-m", "rewrite.in-assessment", BuiltinRewriteModel, "", both.LargeTokenBudget}},
		{"input at exactly the small route's limit fits small", both, Request{Task: Generate, InputTokens: limit},
			want{Small, "small-m", "task.small", "large-m", "generate/v1", both.SmallTokenBudget}},
		{"input one over the small route's limit goes large", both, Request{Task: Generate, InputTokens: limit + 1},
			want{Large, "large-m", "size.large", BuiltinGenerateModel, "generate/v1", both.LargeTokenBudget}},
		{"only small: input at exactly the limit fits", onlySmall, Request{Task: Generate, InputTokens: limit},
			want{Small, "small-m", "only.small", BuiltinGenerateModel, "", onlySmall.SmallTokenBudget}},
		{"only small: input one over the limit goes builtin", onlySmall, Request{Task: Generate, InputTokens: limit + 1},
			want{Builtin, BuiltinGenerateModel, "size.large", "", "", onlySmall.LargeTokenBudget}},
		{"same model both routes: fits small, falls back on builtin", same, Request{Task: Assess},
			want{Small, "m", "task.small", BuiltinAssessModel, "", same.SmallTokenBudget}},
		{"same model both routes: a failure does not escalate to the same model", same, Request{Task: Assess, Failure: SchemaInvalid, Previous: "m"},
			want{Builtin, BuiltinAssessModel, "escalate.schema_invalid", "", "", same.LargeTokenBudget}},
		{"same model both routes: rewrite in assessment stays on the small route", same, Request{Task: Rewrite, AssessModel: "m"},
			want{Small, "m", "rewrite.in-assessment", BuiltinRewriteModel, "", same.SmallTokenBudget}},
		{"rewrite after builtin assessment", both, Request{Task: Rewrite, AssessModel: BuiltinAssessModel},
			want{Builtin, BuiltinRewriteModel, "rewrite.builtin-assessor", "", "", both.LargeTokenBudget}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Route(tt.policy, tt.req)
			got := want{d.Route, d.Model, d.Rule, d.FallbackModel, d.PromptVersion, d.TokenBudget}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("Route(%+v) mismatch (-want +got):\n%s", tt.req, diff)
			}
			if d.PolicyVersion != PolicyVersion || d.Reason == "" || d.Task != tt.req.Task || d.LatencyBudgetMS <= 0 {
				t.Errorf("Route(%+v) = %+v: want policy version, a reason, the task and a latency budget", tt.req, d)
			}
		})
	}
}

func TestPolicyValidate(t *testing.T) {
	if err := DefaultPolicy("", "").Validate(); err != nil {
		t.Errorf("default policy: %v", err)
	}
	bad := DefaultPolicy("s", "")
	bad.SmallTokenBudget = 0
	if err := bad.Validate(); err == nil {
		t.Error("Validate accepted a zero token budget")
	}
}

// TestEscalates: typed model failures always get another route; an
// unavailable endpoint only with the builtin fallback on; no failure never.
func TestEscalates(t *testing.T) {
	off := DefaultPolicy("small-m", "large-m")
	on := off
	on.FallbackBuiltin = true
	for _, tt := range []struct {
		p    Policy
		f    Failure
		want bool
	}{
		{off, NoFailure, false}, {on, NoFailure, false},
		{off, SchemaInvalid, true}, {off, Oversized, true}, {off, Unsupported, true},
		{off, Unavailable, false}, {on, Unavailable, true},
	} {
		if got := tt.p.Escalates(tt.f); got != tt.want {
			t.Errorf("Escalates(%q) with fallback %v = %v, want %v", tt.f, tt.p.FallbackBuiltin, got, tt.want)
		}
	}
}

// TestBuiltinGenerateSelected: loop.generator's choice of builtin
// generator is the model a builtin generate route names, first or as a
// fallback.
func TestBuiltinGenerateSelected(t *testing.T) {
	p := DefaultPolicy("", "")
	p.BuiltinGenerate = BuiltinGenerateModelV7
	if d := Route(p, Request{Task: Generate}); d.Model != BuiltinGenerateModelV7 {
		t.Errorf("builtin route: model %q, want %q", d.Model, BuiltinGenerateModelV7)
	}
	if d := Route(p, Request{Task: Assess}); d.Model != BuiltinAssessModel {
		t.Errorf("assess route: model %q, want %q", d.Model, BuiltinAssessModel)
	}
	p = DefaultPolicy("small-m", "large-m")
	p.BuiltinGenerate = BuiltinGenerateModelV7
	p.FallbackBuiltin = true
	if d := Route(p, Request{Task: Generate, Failure: Unavailable, Previous: "large-m"}); d.Model != BuiltinGenerateModelV7 {
		t.Errorf("fallback route: model %q, want %q", d.Model, BuiltinGenerateModelV7)
	}
}

// TestBuiltinGenerateModelsText pins the message loop.generator and
// generate.NewExtractiveModel give for an unknown id.
func TestBuiltinGenerateModelsText(t *testing.T) {
	want := "builtin:extractive-v41 (the default), builtin:extractive-v40, builtin:extractive-v39, builtin:extractive-v38, builtin:extractive-v37, builtin:extractive-v35, builtin:extractive-v34, builtin:extractive-v33, builtin:extractive-v32, builtin:extractive-v31, builtin:extractive-v30, builtin:extractive-v29, builtin:extractive-v28, builtin:extractive-v27, builtin:extractive-v26, builtin:extractive-v25, builtin:extractive-v24, builtin:extractive-v23, builtin:extractive-v22, builtin:extractive-v21, builtin:extractive-v20, builtin:extractive-v19, builtin:extractive-v18, builtin:extractive-v17, builtin:extractive-v16, builtin:extractive-v15, builtin:extractive-v14, builtin:extractive-v13, builtin:extractive-v12, builtin:extractive-v11, builtin:extractive-v10, builtin:extractive-v9, builtin:extractive-v8 or builtin:extractive-v7"
	if got := BuiltinGenerateModelsText(" (the default)"); got != want {
		t.Errorf("BuiltinGenerateModelsText = %q, want %q", got, want)
	}
	if got := BuiltinGenerateModels()[0]; got != BuiltinGenerateModel {
		t.Errorf("first model %q, want the default %q", got, BuiltinGenerateModel)
	}
}
