package wire

// Usage is what a run, or one step of it, consumed.
type Usage struct {
	TokensIn  int     `json:"tokens_in"`
	TokensOut int     `json:"tokens_out"`
	CostUSD   float64 `json:"cost_usd"`
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.TokensIn += o.TokensIn
	u.TokensOut += o.TokensOut
	u.CostUSD += o.CostUSD
}

// Tokens is tokens in plus tokens out.
func (u Usage) Tokens() int { return u.TokensIn + u.TokensOut }

// IsZero reports whether nothing was consumed.
func (u Usage) IsZero() bool { return u == Usage{} }

// Spent is what one model call consumed and which model it was. A failed
// call's Spent rides in its error's details so the workflow's budgets
// count it.
type Spent struct {
	Model string `json:"model"`
	Usage
}
