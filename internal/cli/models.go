package cli

import (
	"fmt"
	"log/slog"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/llm"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/router"
)

// endpointModels returns the model routes to the configured
// OpenAI-compatible endpoint and the routing policy that uses them. With
// no endpoint configured it returns no routes and the builtin-only policy.
// The builtin models are the caller's to add.
func endpointModels(cfg config.Config, log *slog.Logger) (activities.Models, router.Policy, error) {
	if cfg.LLM.BaseURL == "" {
		log.Info("models: builtin only (set ASSAY_LLM_BASE_URL to use an OpenAI-compatible endpoint)",
			"assess", router.BuiltinAssessModel, "generate", router.BuiltinGenerateModel)
		policy := router.DefaultPolicy("", "")
		policy.BuiltinGenerate = builtinGenerate(cfg)
		return activities.Models{}, policy, nil
	}
	prices := llm.Prices{}
	for model, p := range cfg.LLM.Prices {
		prices[model] = llm.Price{InputPerMTok: p.InputPerMTok, OutputPerMTok: p.OutputPerMTok}
	}
	client, err := llm.New(llm.Config{
		BaseURL:    cfg.LLM.BaseURL,
		APIKey:     cfg.LLM.APIKey.Reveal(),
		Timeout:    cfg.LLM.Timeout,
		MaxRetries: cfg.LLM.MaxRetries,
		Prices:     prices,
	})
	if err != nil {
		return activities.Models{}, router.Policy{}, fmt.Errorf("llm: %w", err)
	}
	tok, err := prompt.NewTokenizer()
	if err != nil {
		return activities.Models{}, router.Policy{}, fmt.Errorf("tokenizer: %w", err)
	}
	policy := router.DefaultPolicy(cfg.LLM.SmallModel, cfg.LLM.LargeModel)
	policy.PromptVersions = map[router.Task]string{
		router.Assess:   prompt.AssessVersion(),
		router.Rewrite:  prompt.AssessVersion(), // a model rewrites inside its assessment
		router.Generate: prompt.Version(),
	}
	policy.FallbackBuiltin = cfg.LLM.Fallback == config.LLMFallbackBuiltin
	policy.BuiltinGenerate = builtinGenerate(cfg)
	models := activities.Models{
		Assessor: func(d router.Decision) (assess.Assessor, error) {
			return assess.NewLLM(client, tok, d.Model, contextTokens(d))
		},
		Generator: func(d router.Decision) (generate.Generator, error) {
			return generate.NewLLM(client, d.Model, generate.LLMOptions{Tokenizer: tok, ContextTokens: contextTokens(d)})
		},
	}
	for _, m := range []string{cfg.LLM.SmallModel, cfg.LLM.LargeModel} {
		if _, ok := prices[m]; m != "" && !ok {
			log.Warn("model has no price: its cost counts as 0 against cost budgets", "model", m)
		}
	}
	whenDown := "the stage fails (llm.fallback is not set)"
	if policy.FallbackBuiltin {
		whenDown = "the builtin models serve the stage (llm.fallback: builtin)"
	}
	log.Info("models: OpenAI-compatible endpoint", "base_url", cfg.LLM.BaseURL,
		"small", cfg.LLM.SmallModel, "large", cfg.LLM.LargeModel, "fallback", "builtin",
		"when_unavailable", whenDown)
	return models, policy, nil
}

// contextTokens is the share of a route's token budget given to sources;
// the rest is for the instructions, the question and the reply.
func contextTokens(d router.Decision) int {
	return max(d.TokenBudget-1500, 500)
}

// builtinGenerate is the policy's builtin generator (loop.generator):
// empty for the default, so default policies stay as they were recorded.
func builtinGenerate(cfg config.Config) string {
	if m := cfg.Loop.GeneratorModel(); m != router.BuiltinGenerateModel {
		return m
	}
	return ""
}
