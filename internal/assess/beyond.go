package assess

// beyond (Builtin.KinRank, off in every named model: the model id names
// it "+kinrank" at rank 1, "-kinrank2", "-kinrank3" ... above) judges
// the chunks after the first, down to rank KinRank in the assessor's
// order, as the thesaurus tries judge the first (judgeCredited: a
// question word the chunk lacks held through a relative, a direct
// hypernym or hyponym, or a word defined by it), each chunk with the
// credits its own words give, and returns the first that then suffices
// with what was credited. It is asked only when every other reading has
// refused, so it changes no acceptance, only a refusal ("can I rinse it
// under the tap", the cleaning page second, "rinse" as "wash"). Round 31
// measured it (docs/log/round-31-a31-asm.md): at rank 2, with WordNet,
// the confirm sets' right source +3 but a no-answer question accepted and
// cited precision lower; most pages it accepts below the first are not
// the relevant one, credited through weak relations ("fixed" as "lock",
// "months" as "may").
func (b *Builtin) beyond(r *reading, all []*judged, covers func(map[string]bool, string) bool, question string, ents []Entity, vocab Vocabulary, related map[string][]synonym, cp *compounds) (*judged, string) {
	if b.KinRank < 1 || b.Thesaurus == nil || !b.Kin && !b.Hyp {
		return nil, ""
	}
	var kin map[string][]synonym
	if b.Kin {
		kin = b.kin(question, related)
	}
	for i := 1; i <= b.KinRank && i < len(all); i++ {
		if k, credited := b.judgeCredited(r, all[i], covers, question, ents, vocab, kin, cp); k != nil {
			return k, credited
		}
	}
	return nil, ""
}

// judgeCredited judges j again by r's rules (judgeFirst) with the
// question words it lacks held through, in turn, kin (Builtin.Kin's
// relatives), then those and the direct hypernyms and hyponyms j holds
// (Hyp), then those and the words j holds that WordNet defines by a
// question word (Defined), and returns the first judgement that suffices
// with what was credited; nil when none does.
func (b *Builtin) judgeCredited(r *reading, j *judged, covers func(map[string]bool, string) bool, question string, ents []Entity, vocab Vocabulary, kin map[string][]synonym, cp *compounds) (*judged, string) {
	tries := []map[string][]synonym{kin}
	if b.Hyp && b.Thesaurus != nil {
		if taxa := b.taxa(question, ents, vocab, j.have); len(taxa) > 0 {
			tries = append(tries, withTaxa(kin, taxa))
		}
	}
	if b.Defined && b.Thesaurus != nil {
		tries = b.withDefined(tries, question, ents, vocab, j) // defined.go
	}
	for i, credit := range tries {
		credit = cp.unbound(credit) // compound.go
		if len(credit) == 0 {
			continue
		}
		named := kinCredited
		if i > 0 {
			named = hypCredited
		}
		if k, credited := r.judgeFirst(j, covers, credit, b.an, question, named); credited != "" {
			return k, credited
		}
	}
	return nil, ""
}
