package assess

// agreeIf is builtin:coverage-v45's Agree when on, else 0 (for the tests
// that set an older model).
func agreeIf(on bool) int {
	if on {
		return agreeV45
	}
	return 0
}

// v47If sets builtin:coverage-v47's switches (Sides, SidesMeasure,
// Listed) on or off (for the tests that set an older model).
func v47If(b *Builtin, on bool) {
	b.Sides, b.SidesMeasure, b.Listed = on, on, on
}

// placesIf is Places on (v48's) or off, as agreeIf is Agree: a test of an
// older model turns both off.
func placesIf(on bool) int {
	if on {
		return placesV48
	}
	return 0
}

// newerIf turns the switches of builtin:coverage-v45 and every later
// version on or off: Agree (v45), Sides, SidesMeasure and Listed (v47),
// Places (v48), Matter (v49), Rates (v50), Parts (v51), Ruled (v52), Measured (v53), Situated (v54), ListedClause (v55), Covered (v56), Follow (v57), Timed and Every (v58), Counts (v59), Opposite (v60), Review (v61), Learned (v62), LearnedCover (v63), Veto (v65) and Status (v68). A test of v44
// or an older model turns them off; a new version's switch is added here.
func newerIf(b *Builtin, on bool) {
	b.Agree, b.Places = agreeIf(on), placesIf(on)
	v47If(b, on)
	b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow = on, on, on, on, on, on, on, on, on
	b.Timed, b.Every, b.Opposite, b.Learned, b.LearnedCover, b.Veto, b.Status = on, on, on, on, on, on, on
	b.Counts, b.Review = 0, 0
	if on {
		b.Counts, b.Review = countsV59, reviewV61
	}
}
