package redisearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
)

// BenchmarkSearchTextCandidates: the BM25 leg at k = 100 over 2,000
// generated chunks (a RediSearch server, see internal/redistest), whose
// candidates' read returns every candidate's content field: from each
// chunk's HASH (plain) or from the SORTABLE field (sortable, what Build
// makes since round 24). ns/op is Redis's and the client's time
// together; redis-ms/op is Redis's main-thread CPU alone (schedstat),
// which the other work on a shared machine moves less.
func BenchmarkSearchTextCandidates(b *testing.B) {
	srv := redistest.Start(b)
	rdb := srv.Client(b)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(24, 24))
	words := strings.Fields("protein express cell gene mutation patient risk tumor receptor signal pathway inhibit mice level increase associated disease treatment kinase cohort")
	var chunks []corpus.Chunk
	for i := range 2000 {
		var w []string
		for range 100 {
			w = append(w, words[rng.IntN(len(words))])
		}
		id := fmt.Sprintf("d%04d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "a paper", Text: strings.Join(w, " "), Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	f := backend.Filter{Groups: []string{"public"}}
	for _, on := range []bool{false, true} {
		old := contentSortable
		contentSortable = on
		name := redistest.Name(fmt.Sprintf("bsort%v", on))
		_, _, err := Build(ctx, rdb, name, chunks, BuildOptions{})
		contentSortable = old
		if err != nil {
			b.Fatal(err)
		}
		ix, err := Open(ctx, rdb, name, Options{})
		if err != nil {
			b.Fatal(err)
		}
		redisCPU := schedstatReader(b, ix)
		b.Run(map[bool]string{false: "plain", true: "sortable"}[on], func(b *testing.B) {
			b.ReportAllocs()
			c0 := redisCPU()
			for b.Loop() {
				if _, err := ix.SearchText(ctx, "tumor kinase cohort receptor", f, 100); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(redisCPU()-c0)/float64(time.Millisecond)/float64(b.N), "redis-ms/op")
		})
	}
}
