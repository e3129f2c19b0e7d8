package assess

// agreeIf is builtin:coverage-v45's Agree when on, else 0 (for the tests
// that set an older model).
func agreeIf(on bool) int {
	if on {
		return agreeV45
	}
	return 0
}

// placesIf is Places on (v47's) or off, as agreeIf is Agree: a test of an
// older model turns both off.
func placesIf(on bool) int {
	if on {
		return placesV47
	}
	return 0
}
