package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// An index made with NOOFFSETS (round 22) has FT.INFO report
// offset_bits_per_record_avg as "nan"; a -costs report that kept it could
// not be written (json: unsupported value: NaN) and lost the whole run.
func TestFTNumbersLeavesOutNaN(t *testing.T) {
	ft := []any{
		"index_name", "scale500000",
		"num_docs", int64(500000),
		"inverted_sz_mb", "123.5",
		"offset_bits_per_record_avg", "nan",
		"records_per_doc_avg", "inf",
		"index_options", []any{"NOOFFSETS", "NOFIELDS"},
	}
	got := ftNumbers(ft)
	want := map[string]float64{"num_docs": 500000, "inverted_sz_mb": 123.5}
	if len(got) != len(want) {
		t.Fatalf("ftNumbers = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("ftNumbers[%q] = %v, want %v", k, got[k], v)
		}
	}
	if _, err := json.Marshal(Run{Backend: RediSearch, RedisMemory: got}); err != nil {
		t.Errorf("the report cannot hold FT.INFO's numbers: %v", err)
	}
}

// A build's per-group vector graphs are indexes of their own; memory
// sums their FT.INFO numbers apart from the main index's, so the costs
// row shows what they hold.
func TestMemoryCountsGroupGraphs(t *testing.T) {
	srv := redistest.Start(t)
	if srv.Password != "" {
		t.Skip("SKIPPED: memory reads a server without a password")
	}
	ctx := context.Background()
	var chunks []corpus.Chunk
	for i := range 40 {
		acl := []string{"public"}
		if i%4 == 0 {
			acl = []string{"staff"}
		}
		id := fmt.Sprintf("d%02d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: id, Text: fmt.Sprintf("pump %d valve seal", i), Status: corpus.Current, Authority: 1, ACL: acl})
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	name := redistest.Name("graphs")
	if _, _, err := redisearch.Build(ctx, srv.Client(t), name, chunks, redisearch.BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	m, err := (&redisServer{addr: srv.Addr}).memory(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if m["ft.num_docs"] != 40 {
		t.Errorf("main index num_docs %v, want 40", m["ft.num_docs"])
	}
	if m["ft.graphs.count"] != 2 || m["ft.graphs.num_docs"] != 40 {
		t.Errorf("graphs: %v of them holding %v chunks, want 2 holding 30 + 10", m["ft.graphs.count"], m["ft.graphs.num_docs"])
	}
}

// TestVectorArgs: -vector reaches a RediSearch build's assay index as
// --vector, and neither an empty -vector (the binary's own default,
// hnsw+small-flat since round 43) nor a bleve build passes one.
func TestVectorArgs(t *testing.T) {
	where := redisWhere("127.0.0.1:6390", "scale5000")
	for _, c := range []struct {
		vector, backend string
		want            []string
	}{
		{"", RediSearch, where},
		{"hnsw", RediSearch, append(slices.Clone(where), "--vector", "hnsw")},
		{"hnsw", Bleve, []string{"--index", "x"}},
	} {
		in := where
		if c.backend == Bleve {
			in = []string{"--index", "x"}
		}
		o := options{vector: c.vector}
		if got := o.vectorArgs(c.backend, in); !slices.Equal(got, c.want) {
			t.Errorf("-vector %q on %s: %q, want %q", c.vector, c.backend, got, c.want)
		}
	}
}
