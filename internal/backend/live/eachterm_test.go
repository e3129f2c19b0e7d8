package live

import (
	"errors"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
)

// termsFail is an index whose term list stops after two terms with a
// server's failure, as RediSearch's HSCAN of the df table can.
type termsFail struct {
	backend.Index
	err error
}

func (ix termsFail) EachTerm(fn func(term string, df int)) error {
	n := 0
	_ = ix.Index.EachTerm(func(t string, df int) {
		if n < 2 {
			fn(t, df)
		}
		n++
	})
	return ix.err
}

// TestPartialTermListFailsTheVersion: the rewriter's spelling candidates
// are read once per index version; when the index fails part way through
// its terms, serving that version fails (a start fails, a swap keeps the
// old version) instead of correcting spellings from a partial list for
// the version's lifetime. The same index whose list ends is served.
func TestPartialTermListFailsTheVersion(t *testing.T) {
	body := `{"id":"a","title":"Kettle care","text":"Descale the kettle monthly. Kettles need it.","acl":["public"]}
{"id":"b","title":"K50","text":"The kettle boils in four minutes.","acl":["public"]}
`
	l := openCorpus(t, body)
	ix := l.cur.Load().ix
	if _, err := l.wire(termsFail{ix, nil}); err != nil {
		t.Fatalf("wire with a whole term list: %v", err)
	}
	down := errors.New("redis: connection refused")
	g, err := l.wire(termsFail{ix, down})
	if !errors.Is(err, down) || g != nil {
		t.Fatalf("wire with a term list that failed part way = %v, %v; want the failure", g, err)
	}
	if !strings.Contains(err.Error(), "spelling") {
		t.Errorf("error %q does not say what failed", err)
	}
}
