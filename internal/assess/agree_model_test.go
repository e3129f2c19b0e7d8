package assess

// agreeIf is builtin:coverage-v45's Agree when on, else 0 (for the tests
// that set an older model).
func agreeIf(on bool) int {
	if on {
		return agreeV45
	}
	return 0
}
