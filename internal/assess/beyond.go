package assess

// beyond (Builtin.KinRank) judges the chunks after the first, down to
// rank KinRank in the assessor's order, as the thesaurus tries judge the
// first (Builtin.Kin, Hyp, Defined: judgeFirst with a question word the
// chunk lacks held through a relative, a direct hypernym or hyponym, or a
// word defined by it), each chunk with the credits its own words give,
// and returns the first that then suffices with what was credited. It is
// asked only when every other reading has refused, so it changes no
// acceptance, only a refusal: the page that answers is often retrieved
// second or third, below a page holding more of the question's words as
// written ("how long will my Z10 be guaranteed for" ranks the kettle's
// manual above the warranty terms).
func (b *Builtin) beyond(r *reading, all []*judged, covers func(map[string]bool, string) bool, question string, ents []Entity, vocab Vocabulary, related map[string][]synonym) (*judged, string) {
	if b.KinRank < 1 || b.Thesaurus == nil || !b.Kin && !b.Hyp {
		return nil, ""
	}
	var kin map[string][]synonym
	if b.Kin {
		kin = b.kin(question, related)
	}
	for i := 1; i <= b.KinRank && i < len(all); i++ {
		tries := []map[string][]synonym{kin}
		if b.Hyp {
			if taxa := b.taxa(question, ents, vocab, all[i].have); len(taxa) > 0 {
				tries = append(tries, withTaxa(kin, taxa))
			}
		}
		if b.Defined {
			tries = b.withDefined(tries, question, ents, vocab, all[i].have)
		}
		for n, credit := range tries {
			if len(credit) == 0 {
				continue
			}
			named := kinCredited
			if n > 0 {
				named = hypCredited
			}
			if k, credited := r.judgeFirst(all[i], covers, credit, b.an, question, named); credited != "" {
				return k, credited
			}
		}
	}
	return nil, ""
}
