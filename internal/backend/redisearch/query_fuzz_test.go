package redisearch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
)

// FuzzQuery checks that no question and no TAG value changes the shape of
// a query: the text leg is exactly @content:( t | t ... ) followed by the
// filter built from the principal's groups alone, every term and value is
// fully escaped, and escaping round-trips.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		"warranty @acl:{finance}", "-x | *", `kettle") | @acl:{staff`, "partner:brook-street",
		"* => [KNN 10 @vec $B]", `\ \\ " ' ~ % $ ^ & ;`, "e7 x300-pro 1.5 don't", "Größe café 東京",
		"@content:(a) | @acl:{*}", "{}[]()<>", "",
		"cafe\u0301 nai\u0308ve a\u200db \u0939\u093f\u0902\u0926\u0940", // combining marks, a joiner, a vowel sign: not letters
	} {
		f.Add(s, "partner:brook-street")
	}
	f.Add("kettle", "team\u2013a") // an en dash in a group's name
	f.Add("kettle", "team\u2713")
	an := terms.New()
	f.Fuzz(func(t *testing.T, text, group string) {
		if !utf8.ValidString(text) || !utf8.ValidString(group) {
			return
		}
		groups := []string{"public", "partner:brook-street"}
		filter := "(" + FilterQuery(backend.Filter{Groups: groups}) + ")=>{$weight: 0}"
		ts := an.Terms(text)
		if len(ts) > 0 {
			weights := make([]float64, len(ts))
			for i := range ts {
				weights[i] = 0.5 + float64(i)
			}
			q := TextQuery(ts, backend.Filter{Groups: groups}, weights...)
			rest := q
			var got []string
			for i := range ts {
				if i > 0 {
					var ok bool
					if rest, ok = strings.CutPrefix(rest, " | "); !ok {
						t.Fatalf("query %q: branch %d does not follow \" | \"", q, i)
					}
				}
				var ok bool
				if rest, ok = strings.CutPrefix(rest, "(@"+fieldContent+":"); !ok {
					t.Fatalf("query %q: branch %d does not start with the content clause", q, i)
				}
				var term []string
				rest, term = readTerms(t, rest)
				if len(term) != 1 {
					t.Fatalf("query %q: branch %d holds %q, want one term", q, i, term)
				}
				got = append(got, term[0])
				if rest, ok = strings.CutPrefix(rest, " "+filter+")"); !ok {
					t.Fatalf("query %q: branch %d: after the term %q, want the filter %q", q, i, rest, filter)
				}
				if w := fmt.Sprintf("=>{$weight: %g}", weights[i]); !strings.HasPrefix(rest, w) {
					t.Fatalf("query %q: branch %d: after the filter %q, want the weight %q", q, i, rest, w)
				} else {
					rest = rest[len(w):]
				}
			}
			if rest != "" {
				t.Fatalf("query %q: trailing %q", q, rest)
			}
			if !slices.Equal(got, ts) {
				t.Fatalf("query %q carries terms %q, want %q", q, got, ts)
			}
			if back := unescapeTerms(escapeTerms(ts)); !slices.Equal(back, ts) {
				t.Fatalf("unescapeTerms(escapeTerms(%q)) = %q", ts, back)
			}
		}
		// A group is data: the acl clause holds it as one escaped value.
		clause := tagClause(fieldACL, []string{group})
		inner, ok := strings.CutPrefix(clause, "@"+fieldACL+":{")
		inner, ok2 := strings.CutSuffix(inner, "}")
		if !ok || !ok2 {
			t.Fatalf("tag clause %q malformed", clause)
		}
		if group != "" {
			rest, vals := readTerms(t, inner+"\x00")
			if rest != "\x00" || len(vals) != 1 || vals[0] != group {
				t.Fatalf("tag clause %q: values %q rest %q, want the one value %q", clause, vals, rest, group)
			}
		}
	})
}

// readTerms reads escaped tokens separated by " | " from s, as
// RediSearch's query lexer reads them (byte by byte), and returns what
// follows them: a backslash escapes the one ASCII byte after it; every
// byte of a multi-byte rune is part of the token; any other unescaped
// byte than an ASCII letter, digit or _ ends the tokens. A backslash
// before a multi-byte rune fails the test: the lexer would end the token
// there and read the rune's bytes as another one.
func readTerms(t *testing.T, s string) (string, []string) {
	var out []string
	var b []byte
	for {
		switch c := s[0:min(1, len(s))]; {
		case c == "":
			return s, append(out, string(b))
		case c[0] == '\\':
			if len(s) < 2 {
				t.Fatalf("dangling escape")
			}
			if s[1] >= utf8.RuneSelf {
				t.Fatalf("%q: a backslash before a multi-byte rune, which RediSearch's lexer does not escape: the token would end there", s)
			}
			b = append(b, s[1])
			s = s[2:]
		case c[0] >= utf8.RuneSelf || unicode.IsLetter(rune(c[0])) || unicode.IsDigit(rune(c[0])) || c[0] == '_':
			b = append(b, c[0])
			s = s[1:]
		case strings.HasPrefix(s, " | "):
			out = append(out, string(b))
			b = b[:0]
			s = s[3:]
		default:
			return s, append(out, string(b))
		}
	}
}
