//go:build !amd64 || purego

package vectors

// dotInt8 is the integer dot product of w and c (equal lengths).
func dotInt8(w []int16, c []int8) int64 { return dotInt8Go(w, c) }

// prefetch asks for the cache lines of b: nothing here.
func prefetch(b []byte) {}
