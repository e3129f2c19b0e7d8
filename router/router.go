// Package router decides which model serves each model task of the answer
// loop. Route is pure and deterministic: the same policy and request always
// give the same decision, so the workflow can call it directly and replay
// it, and every decision names the rule that made it.
//
// Rules, in order (the rule id is in every decision):
//
//	builtin.<task>            no model endpoint is configured: the builtin model serves the task
//	escalate.<failure>        the previous try failed with a typed failure: small → large → builtin
//	escalate.unavailable      the endpoint was unavailable and the policy allows the builtin fallback
//	rewrite.builtin-assessor  the builtin assessor served assessment: the builtin rewriter rewrites
//	rewrite.in-assessment     a model assessor proposes the rewrite in the same call
//	only.large, only.small    only one of the small and large models is configured
//	size.large                the input is larger than the small route's budget
//	task.small                constrained tasks (assess, grounded generate) fit the small route
//
// The builtin models are routes too: they are what serves a task when no
// endpoint is configured, and the last fallback when every model failed.
package router

import (
	"fmt"
	"strings"
)

// Task is a kind of model work in the loop.
type Task string

// Tasks.
const (
	Assess   Task = "assess"
	Rewrite  Task = "rewrite"
	Generate Task = "generate"
)

// Class is a route's capacity class.
type Class string

// Classes.
const (
	Small   Class = "small"
	Large   Class = "large"
	Builtin Class = "builtin"
)

// Failure is a typed failure of a previous try that justifies escalation.
// Only these escalate; anything else is a stop.
type Failure string

// Failures.
const (
	NoFailure     Failure = ""
	SchemaInvalid Failure = "schema_invalid" // the reply failed its schema after one repair
	Oversized     Failure = "oversized"      // the input exceeded the model's budget
	Unsupported   Failure = "unsupported"    // the endpoint rejected the request as unsupported
	// Unavailable: the endpoint could not serve the call after its
	// retries: unreachable, 5xx, rate limited or timed out. It escalates
	// only when Policy.FallbackBuiltin is set, and then straight to the
	// builtin model: a larger model at the same endpoint is down too.
	Unavailable Failure = "unavailable"
)

// Builtin model ids. They say what they are; the builtin implementations
// (assess.BuiltinModel, assess.RewriteModel, generate.ExtractiveModel)
// report these same constants, so traces and routes agree.
const (
	BuiltinAssessModel  = "builtin:coverage-v68"
	BuiltinRewriteModel = "builtin:strategies-v5"
	// BuiltinRewriteModelV4, BuiltinRewriteModelV3 and
	// BuiltinRewriteModelV2 are the previous builtin rewriters
	// (assess.Rewriter after UseV4; with Common and Plain off too, and
	// with Mutual off as well). loop.rewriter selects v4.
	BuiltinRewriteModelV4 = "builtin:strategies-v4"
	BuiltinRewriteModelV3 = "builtin:strategies-v3"
	BuiltinRewriteModelV2 = "builtin:strategies-v2"
	BuiltinGenerateModel  = "builtin:extractive-v41"
	// BuiltinGenerateModelV40, BuiltinGenerateModelV39, BuiltinGenerateModelV38, BuiltinGenerateModelV37, BuiltinGenerateModelV35, BuiltinGenerateModelV34, BuiltinGenerateModelV33, BuiltinGenerateModelV32, BuiltinGenerateModelV31, BuiltinGenerateModelV30, BuiltinGenerateModelV29, BuiltinGenerateModelV28, BuiltinGenerateModelV27, BuiltinGenerateModelV26, BuiltinGenerateModelV25, BuiltinGenerateModelV24, BuiltinGenerateModelV23, BuiltinGenerateModelV22, BuiltinGenerateModelV21, BuiltinGenerateModelV20, BuiltinGenerateModelV19, BuiltinGenerateModelV18, BuiltinGenerateModelV17, BuiltinGenerateModelV16, BuiltinGenerateModelV15, BuiltinGenerateModelV14, BuiltinGenerateModelV13, BuiltinGenerateModelV12, BuiltinGenerateModelV11, BuiltinGenerateModelV10,
	// BuiltinGenerateModelV9, BuiltinGenerateModelV8 and
	// BuiltinGenerateModelV7 are the previous
	// builtin generators, selectable with loop.generator
	// (Policy.BuiltinGenerate).
	BuiltinGenerateModelV40 = "builtin:extractive-v40"
	BuiltinGenerateModelV39 = "builtin:extractive-v39"
	BuiltinGenerateModelV38 = "builtin:extractive-v38"
	BuiltinGenerateModelV37 = "builtin:extractive-v37"
	BuiltinGenerateModelV35 = "builtin:extractive-v35"
	BuiltinGenerateModelV34 = "builtin:extractive-v34"
	BuiltinGenerateModelV33 = "builtin:extractive-v33"
	BuiltinGenerateModelV32 = "builtin:extractive-v32"
	BuiltinGenerateModelV31 = "builtin:extractive-v31"
	BuiltinGenerateModelV30 = "builtin:extractive-v30"
	BuiltinGenerateModelV29 = "builtin:extractive-v29"
	BuiltinGenerateModelV28 = "builtin:extractive-v28"
	BuiltinGenerateModelV27 = "builtin:extractive-v27"
	BuiltinGenerateModelV26 = "builtin:extractive-v26"
	BuiltinGenerateModelV25 = "builtin:extractive-v25"
	BuiltinGenerateModelV24 = "builtin:extractive-v24"
	BuiltinGenerateModelV23 = "builtin:extractive-v23"
	BuiltinGenerateModelV22 = "builtin:extractive-v22"
	BuiltinGenerateModelV21 = "builtin:extractive-v21"
	BuiltinGenerateModelV20 = "builtin:extractive-v20"
	BuiltinGenerateModelV19 = "builtin:extractive-v19"
	BuiltinGenerateModelV18 = "builtin:extractive-v18"
	BuiltinGenerateModelV17 = "builtin:extractive-v17"
	BuiltinGenerateModelV16 = "builtin:extractive-v16"
	BuiltinGenerateModelV15 = "builtin:extractive-v15"
	BuiltinGenerateModelV14 = "builtin:extractive-v14"
	BuiltinGenerateModelV13 = "builtin:extractive-v13"
	BuiltinGenerateModelV12 = "builtin:extractive-v12"
	BuiltinGenerateModelV11 = "builtin:extractive-v11"
	BuiltinGenerateModelV10 = "builtin:extractive-v10"
	BuiltinGenerateModelV9  = "builtin:extractive-v9"
	BuiltinGenerateModelV8  = "builtin:extractive-v8"
	BuiltinGenerateModelV7  = "builtin:extractive-v7"
)

// BuiltinGenerateModels returns the builtin generator's model ids, the
// default (BuiltinGenerateModel) first, then the previous ones newest
// first: the ids loop.generator takes and generate.NewExtractiveModel
// builds. This is the one list of them.
func BuiltinGenerateModels() []string {
	return []string{BuiltinGenerateModel, BuiltinGenerateModelV40, BuiltinGenerateModelV39, BuiltinGenerateModelV38, BuiltinGenerateModelV37, BuiltinGenerateModelV35, BuiltinGenerateModelV34, BuiltinGenerateModelV33, BuiltinGenerateModelV32, BuiltinGenerateModelV31, BuiltinGenerateModelV30, BuiltinGenerateModelV29, BuiltinGenerateModelV28, BuiltinGenerateModelV27, BuiltinGenerateModelV26, BuiltinGenerateModelV25, BuiltinGenerateModelV24, BuiltinGenerateModelV23, BuiltinGenerateModelV22, BuiltinGenerateModelV21, BuiltinGenerateModelV20, BuiltinGenerateModelV19, BuiltinGenerateModelV18, BuiltinGenerateModelV17, BuiltinGenerateModelV16, BuiltinGenerateModelV15, BuiltinGenerateModelV14, BuiltinGenerateModelV13, BuiltinGenerateModelV12, BuiltinGenerateModelV11, BuiltinGenerateModelV10, BuiltinGenerateModelV9, BuiltinGenerateModelV8, BuiltinGenerateModelV7}
}

// BuiltinGenerateModelsText names BuiltinGenerateModels for a message,
// defaultNote after the default: "builtin:extractive-v14<defaultNote>,
// builtin:extractive-v13, ... or builtin:extractive-v7".
func BuiltinGenerateModelsText(defaultNote string) string {
	ms := BuiltinGenerateModels()
	ms[0] += defaultNote
	return strings.Join(ms[:len(ms)-1], ", ") + " or " + ms[len(ms)-1]
}

// PolicyVersion changes whenever the rules above change.
const PolicyVersion = "router/2026-11-30.1"

// Policy is the configuration Route decides from. Build it from config;
// keep it small: it is recorded in every workflow history.
type Policy struct {
	// SmallModel and LargeModel are model ids at the configured endpoint;
	// both empty means builtin only.
	SmallModel string `json:"small_model,omitempty"`
	LargeModel string `json:"large_model,omitempty"`
	// MaxSmallInputTokens is the largest input the small route takes.
	MaxSmallInputTokens int `json:"max_small_input_tokens"`
	// Token and latency budgets per route.
	SmallTokenBudget int `json:"small_token_budget"`
	LargeTokenBudget int `json:"large_token_budget"`
	SmallLatencyMS   int `json:"small_latency_ms"`
	LargeLatencyMS   int `json:"large_latency_ms"`
	// PromptVersions names the prompt template version per task.
	PromptVersions map[Task]string `json:"prompt_versions,omitempty"`
	// FallbackBuiltin routes a task to the builtin model when the
	// endpoint is unavailable (llm.fallback: builtin). Off, an
	// unavailable endpoint ends the run with the stage's error.
	FallbackBuiltin bool `json:"fallback_builtin,omitempty"`
	// BuiltinGenerate is the builtin generator's model id when it is not
	// BuiltinGenerateModel (loop.generator: one of the others in
	// BuiltinGenerateModels); empty for the default.
	BuiltinGenerate string `json:"builtin_generate,omitempty"`
}

// Escalates reports whether a try that failed with f gets another route
// under p: the typed model failures always do; an unavailable endpoint
// only when the policy falls back to the builtin model.
func (p Policy) Escalates(f Failure) bool {
	switch f {
	case NoFailure:
		return false
	case Unavailable:
		return p.FallbackBuiltin
	}
	return true
}

// DefaultPolicy returns the policy for the given models with the default
// budgets.
func DefaultPolicy(small, large string) Policy {
	return Policy{
		SmallModel:          small,
		LargeModel:          large,
		MaxSmallInputTokens: 4000,
		SmallTokenBudget:    6000,
		LargeTokenBudget:    24000,
		SmallLatencyMS:      30000,
		LargeLatencyMS:      90000,
	}
}

// Validate checks a policy.
func (p Policy) Validate() error {
	switch {
	case p.MaxSmallInputTokens <= 0:
		return fmt.Errorf("max_small_input_tokens: must be positive")
	case p.SmallTokenBudget <= 0 || p.LargeTokenBudget <= 0:
		return fmt.Errorf("token budgets: must be positive")
	case p.SmallLatencyMS <= 0 || p.LargeLatencyMS <= 0:
		return fmt.Errorf("latency budgets: must be positive")
	}
	return nil
}

// Request describes one piece of model work.
type Request struct {
	Task Task `json:"task"`
	// InputTokens estimates the input size; 0 when unknown.
	InputTokens int `json:"input_tokens,omitempty"`
	// Failure is the typed failure of the previous try of this task, and
	// Previous the model that failed; both empty on a first try.
	Failure  Failure `json:"failure,omitempty"`
	Previous string  `json:"previous,omitempty"`
	// AssessModel is the model serving assessment, for the rewrite task.
	AssessModel string `json:"assess_model,omitempty"`
}

// Decision is a routing decision, complete enough to audit.
type Decision struct {
	Task            Task   `json:"task"`
	Route           Class  `json:"route"`
	Model           string `json:"model"`
	Rule            string `json:"rule"`
	Reason          string `json:"reason"`
	PolicyVersion   string `json:"policy_version"`
	PromptVersion   string `json:"prompt_version,omitempty"`
	TokenBudget     int    `json:"token_budget"`
	LatencyBudgetMS int    `json:"latency_budget_ms"`
	// FallbackModel is where a typed failure of this decision escalates
	// to; empty when there is nowhere left to go.
	FallbackModel string `json:"fallback_model,omitempty"`
}

// IsBuiltin reports whether the decision routes to a builtin model.
func (d Decision) IsBuiltin() bool { return d.Route == Builtin }

// builtinModel returns the builtin model for a task under p.
func builtinModel(p Policy, t Task) string {
	switch t {
	case Assess:
		return BuiltinAssessModel
	case Rewrite:
		return BuiltinRewriteModel
	default:
		if p.BuiltinGenerate != "" {
			return p.BuiltinGenerate
		}
		return BuiltinGenerateModel
	}
}

// IsBuiltinModel reports whether model names a builtin model.
func IsBuiltinModel(model string) bool { return strings.HasPrefix(model, "builtin:") }

// Route decides which model serves req under p.
func Route(p Policy, req Request) Decision {
	d := Decision{Task: req.Task, PolicyVersion: PolicyVersion, PromptVersion: p.PromptVersions[req.Task]}
	small, large := p.SmallModel, p.LargeModel
	builtin := func(rule, reason string) Decision {
		d.Route, d.Model, d.Rule, d.Reason = Builtin, builtinModel(p, req.Task), rule, reason
		d.TokenBudget, d.LatencyBudgetMS = p.LargeTokenBudget, p.SmallLatencyMS
		d.PromptVersion = "" // builtin models take no prompt
		d.FallbackModel = ""
		return d
	}
	to := func(route Class, rule, reason string) Decision {
		d.Route, d.Rule, d.Reason = route, rule, reason
		if route == Small {
			d.Model, d.TokenBudget, d.LatencyBudgetMS = small, p.SmallTokenBudget, p.SmallLatencyMS
			d.FallbackModel = large
		} else {
			d.Model, d.TokenBudget, d.LatencyBudgetMS = large, p.LargeTokenBudget, p.LargeLatencyMS
		}
		if d.FallbackModel == "" || d.FallbackModel == d.Model {
			d.FallbackModel = builtinModel(p, req.Task)
		}
		return d
	}

	if small == "" && large == "" {
		return builtin("builtin."+string(req.Task), "no model endpoint is configured")
	}
	if req.Failure != NoFailure {
		switch {
		case IsBuiltinModel(req.Previous):
			return builtin("escalate."+string(req.Failure), "the builtin model failed; it is the last route")
		case req.Failure == Unavailable:
			return builtin("escalate.unavailable", fmt.Sprintf("the endpoint serving %s is unavailable; falling back to the builtin model (llm.fallback: builtin)", req.Previous))
		case req.Previous == small && large != "" && large != small:
			return to(Large, "escalate."+string(req.Failure), fmt.Sprintf("%s failed with %s; escalating to the large route", req.Previous, req.Failure))
		default:
			return builtin("escalate."+string(req.Failure), fmt.Sprintf("%s failed with %s and no larger model is configured; falling back to the builtin model", req.Previous, req.Failure))
		}
	}
	if req.Task == Rewrite && req.AssessModel != "" {
		// A model assessor returns its rewrite in the assessment: one call, not two.
		if IsBuiltinModel(req.AssessModel) {
			return builtin("rewrite.builtin-assessor", "the builtin assessor proposes no rewrite; the builtin rewriter does")
		}
		route := Small
		if req.AssessModel == large && large != small {
			route = Large
		}
		dd := to(route, "rewrite.in-assessment", "the assessor proposes the rewrite in the same call")
		dd.Model = req.AssessModel
		return dd
	}
	if small == "" {
		return to(Large, "only.large", "only a large model is configured")
	}
	if large == "" {
		if req.InputTokens > p.MaxSmallInputTokens {
			return builtin("size.large", fmt.Sprintf("input of ~%d tokens exceeds the small route's %d and no large model is configured", req.InputTokens, p.MaxSmallInputTokens))
		}
		return to(Small, "only.small", "only a small model is configured")
	}
	if req.InputTokens > p.MaxSmallInputTokens {
		return to(Large, "size.large", fmt.Sprintf("input of ~%d tokens exceeds the small route's %d", req.InputTokens, p.MaxSmallInputTokens))
	}
	return to(Small, "task.small", fmt.Sprintf("%s is a constrained task that fits the small route", req.Task))
}
