package index

// EachTerm calls fn for every analyzed term of the index with the number
// of chunks containing it. The order is unspecified.
func (ix *Index) EachTerm(fn func(term string, df int)) {
	for t, df := range ix.df {
		fn(t, df)
	}
}
