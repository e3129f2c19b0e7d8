package assess

// V43Model names the builtin assessor without Builtin.ClassFree:
// builtin:coverage-v43, kept selectable.
const V43Model = "builtin:coverage-v43"

// codeOnlyOn reports whether CodeTerm's codeOnly condition applies: its
// bit set and ClassFree off. codeWord narrows that condition, so it goes
// with it. builtin:coverage-v44 (round 40, a40-audit) drops both: round
// 35 added codeOnly for two design-set no-answer questions its replay
// saw accepted; turned off alone, the replay and the end-to-end
// evaluation (WordNet) refuse two fewer design no-answer questions
// (fresh2, fresh12) and lose no other refusal, while the confirm sets
// gain seven right answers, the validation set one and SciFact two
// (docs/log/round-40-a40-audit.md).
func (b *Builtin) codeOnlyOn() bool {
	return b.CodeTerm&codeOnly != 0 && !b.ClassFree
}
