package citation

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/assay-rag/assay/internal/errs"
)

// issuedLabels is "1".."n" for n in 0..8.
func issuedLabels(n uint8) []string {
	var out []string
	for i := range int(n % 9) {
		out = append(out, strconv.Itoa(i+1))
	}
	return out
}

// FuzzSanitize: markers are found where they are; the sanitized answer
// cites issued labels only (whatever stripping joined together); a second
// pass changes nothing; Validate on it never panics and rejects only with
// a typed *Rejection. Seeds: testdata/fuzz/FuzzSanitize.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"Blender motors are covered for 5 years [1].",
		"5 years [9].", "[9] at the start", "two [1, 9] and [Source 2]", "[[9]1]", "[[9]9]",
		"NOT_FOUND", "I'm sorry, I cannot answer.", "[1][2][3]", "[0001]", "[ 1 and 2 ]",
	} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, n uint8) {
		issued := issuedLabels(n)
		for _, m := range Markers(text) {
			if m.Start < 0 || m.End > len(text) || m.Start >= m.End || text[m.Start:m.End] != m.Text || len(m.Labels) == 0 {
				t.Fatalf("Markers(%q): bad marker %+v", text, m)
			}
		}
		out, strips := Sanitize(text, issued)
		if len(strips) == 0 && out != text {
			t.Fatalf("Sanitize(%q) changed the text without a strip: %q", text, out)
		}
		for _, m := range Markers(out) {
			for _, l := range m.Labels {
				if !slices.Contains(issued, l) {
					t.Fatalf("Sanitize(%q, %v) = %q still cites %q (marker %q)", text, issued, out, l, m.Text)
				}
			}
		}
		if again, more := Sanitize(out, issued); again != out || len(more) != 0 {
			t.Fatalf("Sanitize is not idempotent: %q -> %q -> %q", text, out, again)
		}
		if err := Validate(out, issued); err != nil {
			var r *Rejection
			if !errors.As(err, &r) || (errs.KindOf(err) != errs.Schema && errs.KindOf(err) != errs.Refused) {
				t.Fatalf("Validate(%q) = %v (%T), want a typed *Rejection", out, err, err)
			}
		}
		_ = Split(out)
	})
}
