package redisearch

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
)

// TestTextGroupAgreement measures, on an index built with text groups
// (Manifest.TextGroups) in a running server, the BM25 leg in the
// caller's group's index against the version's with its ACL clause, for
// the end-to-end benchmark's questions (bench-scale's questions.jsonl):
// top-10 and top-k agreement of SearchText's hits, identical hit lists,
// and Redis's main-thread CPU a search (schedstat), the two forms
// alternated per question, in ASSAY_TG_ROUNDS rounds.
// ASSAY_TG_REDIS=host:port ASSAY_TG_NAME=index
// ASSAY_TG_QUESTIONS=questions.jsonl [ASSAY_TG_EVERY=1]
// [ASSAY_TG_GROUPS=public] [ASSAY_TG_K=100] [ASSAY_TG_ROUNDS=2].
func TestTextGroupAgreement(t *testing.T) {
	addr, name, path, every := measureEnv(t, "TG", "QUESTIONS", 1)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	groups := envGroups("ASSAY_TG_GROUPS")
	f := backend.Filter{Groups: groups}
	k, rounds := 100, 2
	for env, p := range map[string]*int{"ASSAY_TG_K": &k, "ASSAY_TG_ROUNDS": &rounds} {
		if s := os.Getenv(env); s != "" {
			if err := json.Unmarshal([]byte(s), p); err != nil {
				t.Fatal(err)
			}
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var q struct{ Question string }
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			t.Fatal(err)
		}
		if i%every == 0 {
			texts = append(texts, q.Question)
		}
	}
	s, err := ix.set(ctx, groups)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("index %s, text groups %q, caller %q: group index %q", ix.vn, ix.m.TextGroups, groups, ix.textIndex(s, f))
	defer func() { groupSearch = true }()
	cpu := schedstatReader(t, ix)
	var redis [2]time.Duration
	var agree10, agreeK, top10, topK float64
	same := 0
	for round := range rounds {
		for qi, q := range texts {
			var hits [2][]backend.Hit
			for j := range 2 {
				form := (j + qi + round) % 2 // alternated: 0 the version's index, 1 the group's
				groupSearch = form == 1
				before := cpu()
				if hits[form], err = ix.SearchText(ctx, q, f, k); err != nil {
					t.Fatal(err)
				}
				redis[form] += cpu() - before
			}
			if round > 0 {
				continue
			}
			if sameHits(hits[0], hits[1]) {
				same++
			}
			for _, c := range []struct {
				n          int
				agree, tot *float64
			}{{10, &agree10, &top10}, {k, &agreeK, &topK}} {
				a, b := hits[0][:min(c.n, len(hits[0]))], hits[1][:min(c.n, len(hits[1]))]
				in := map[string]bool{}
				for _, h := range a {
					in[h.ChunkID] = true
				}
				for _, h := range b {
					if in[h.ChunkID] {
						*c.agree++
					}
				}
				*c.tot += float64(len(a))
			}
		}
	}
	n := float64(len(texts) * rounds)
	t.Logf("%d questions, k %d: top-10 agreement %.4f, top-%d %.4f, identical hit lists %d; Redis CPU a search: version's index %.2f ms, group's %.2f ms (%d rounds)",
		len(texts), k, agree10/top10, k, agreeK/topK, same, float64(redis[0].Microseconds())/1000/n, float64(redis[1].Microseconds())/1000/n, rounds)
}
