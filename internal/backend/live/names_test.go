package live

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// namedCounting counts the text searches of the index it wraps and gives
// its name pairs (none when untabled: an index built before them).
type namedCounting struct {
	countingSearcher
	untabled bool
}

func (s namedCounting) Names() *names.Table {
	if s.untabled {
		return nil
	}
	return s.Index.(backend.NameSource).Names()
}

// TestClassReadingSearchesVisiblePairs: the worker's builtin assessor
// over a bleve index searches the asker's chunks for a product's class
// only when a chunk the asker may see writes a name after a retrieved
// chunk's code with the question's word. "Z20 Smart Toaster" is written
// on a staff page: a public asker's question makes no search (whether a
// search is made depends on no chunk it cannot see) and is refused, as
// it was when every word was searched; a staff asker's searches and is
// accepted on the app page. An index keeping no pairs searches as before.
func TestClassReadingSearchesVisiblePairs(t *testing.T) {
	classReadingSearchesVisiblePairs(t, openCorpus(t, namesBody).cur.Load().ix)
}

// TestClassReadingSearchesVisiblePairsRedis is the same over a RediSearch
// index (skipped without a RediSearch server: redistest).
func TestClassReadingSearchesVisiblePairsRedis(t *testing.T) {
	srv := redistest.Start(t)
	path := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(path, []byte(namesBody), 0o600); err != nil {
		t.Fatal(err)
	}
	docs, err := corpus.LoadJSONL(path)
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	name := redistest.Name("class")
	rdb := srv.Client(t)
	if _, _, err := redisearch.Build(context.Background(), rdb, name, ch.SplitAll(docs), redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix, err := redisearch.Open(context.Background(), rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	classReadingSearchesVisiblePairs(t, ix)
}

const namesBody = `{"id":"app","title":"Pairing the Z20 with the Crumbly app","text":"To pair the Z20 with the Crumbly app, hold the lever down for 5 seconds until the light blinks.","acl":["public"]}
{"id":"name","title":"Z20 Smart Toaster","text":"The Z20 has four slots.","acl":["staff"]}
{"id":"returns","title":"Returns","text":"You can return a kettle or an iron within 30 days of delivery for a refund.","acl":["public"]}
{"id":"toast","title":"Toast","text":"A smart toaster browns bread.","acl":["public"]}
{"id":"orders","title":"Orders","text":"We list your orders.","acl":["public"]}
`

func classReadingSearchesVisiblePairs(t *testing.T, ix backend.Index) {
	if _, ok := ix.(backend.NameSource); !ok {
		t.Fatalf("%T keeps no name pairs", ix)
	}
	chunks, err := ix.Chunks(context.Background(), []string{"app#0", "returns#0"})
	if err != nil {
		t.Fatal(err)
	}
	var ev []assess.Evidence
	for _, c := range chunks {
		ev = append(ev, assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text})
	}
	q := "Which app goes with the Z20 smart toaster?"
	judge := func(groups []string, untabled bool) (assess.Result, int) {
		t.Helper()
		calls := 0
		an := terms.New()
		b := assess.NewBuiltin(an, lexicon{namedCounting{countingSearcher{ix, &calls}, untabled}, newHeldMemo(), an})
		res, err := b.Assess(context.Background(), assess.Request{Question: q, Query: q, Evidence: ev, Groups: groups})
		if err != nil {
			t.Fatal(err)
		}
		return res, calls
	}
	accepted := func(r assess.Result) bool {
		return r.Assessment.Sufficient && len(r.Accepted) > 0 && r.Accepted[0] == "app#0"
	}
	pub, n := judge([]string{"public"}, false)
	pubAll, nAll := judge([]string{"public"}, true)
	if n != 0 || nAll == 0 {
		t.Errorf("public asker: %d searches with the pairs, %d without; want 0 and some", n, nAll)
	}
	if !reflect.DeepEqual(pub, pubAll) || accepted(pub) {
		t.Errorf("public asker: %+v with the pairs, %+v without; want the same refusal", pub, pubAll)
	}
	staff, n := judge([]string{"public", "staff"}, false)
	if n == 0 || !accepted(staff) {
		t.Errorf("staff asker: %d searches, accepted %v (%s); want a search and the app page", n, accepted(staff), staff.Assessment.Reason)
	}
}
