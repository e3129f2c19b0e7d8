package assess

// V43Model names the builtin assessor without Builtin.ClassFree:
// builtin:coverage-v43, kept selectable.
const V43Model = "builtin:coverage-v43"

// codeOnly reports whether CodeTerm's codeOnly condition applies: its bit
// set and ClassFree off. builtin:coverage-v44 (round 40, a40-audit) drops
// the condition: round 35 added it for two design-set no-answer
// questions; turned off alone, the replay and the end-to-end evaluation
// (WordNet) lose those two refusals and no other, while the confirm sets
// gain seven right answers, the validation set one and SciFact two
// (docs/log/round-40-a40-audit.md).
func (b *Builtin) codeOnly() bool {
	return b.CodeTerm&codeOnly != 0 && !b.ClassFree
}
