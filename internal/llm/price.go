package llm

import (
	"fmt"
	"math"

	"github.com/assay-rag/assay/internal/errs"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	InputPerMTok  float64 `json:"input_per_mtok" yaml:"input_per_mtok"`
	OutputPerMTok float64 `json:"output_per_mtok" yaml:"output_per_mtok"`
}

// Prices maps a model name, exactly as requests name it, to its price.
type Prices map[string]Price

// Validate checks every entry; the error names the model.
func (p Prices) Validate() error {
	for model, price := range p {
		switch {
		case model == "":
			return errs.FieldError("llm.Prices", "prices", "a price has no model name")
		case bad(price.InputPerMTok):
			return errs.FieldError("llm.Prices", "prices."+model+".input_per_mtok", fmt.Sprintf("want a non-negative number, got %g", price.InputPerMTok))
		case bad(price.OutputPerMTok):
			return errs.FieldError("llm.Prices", "prices."+model+".output_per_mtok", fmt.Sprintf("want a non-negative number, got %g", price.OutputPerMTok))
		}
	}
	return nil
}

func bad(f float64) bool { return f < 0 || math.IsNaN(f) || math.IsInf(f, 0) }

// Cost prices usage for model. ok is false when the table has no price for
// it; the cost is then 0 and the caller should say so.
func (p Prices) Cost(model string, u Usage) (usd float64, ok bool) {
	price, ok := p[model]
	if !ok {
		return 0, false
	}
	return (float64(u.PromptTokens)*price.InputPerMTok + float64(u.CompletionTokens)*price.OutputPerMTok) / 1e6, true
}
