package redisearch

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestParseWithScores reads both FT.SEARCH WITHSCORES replies the index
// sends for: without content (id, score) and with the content field
// (id, score, fields), a score that is not a string as -Inf, a chunk without the
// field as "", and a reply of the wrong length as an error naming it.
func TestParseWithScores(t *testing.T) {
	total, ids, scores, err := parseScored([]any{int64(7), "p:a", "1.5", "p:b", nil}, "p:")
	if err != nil || total != 7 || !slices.Equal(ids, []string{"a", "b"}) || scores[0] != 1.5 || !math.IsInf(scores[1], -1) {
		t.Errorf("parseScored: %d %v %v %v", total, ids, scores, err)
	}
	total, ids, scores, texts, metas, err := parseWithScores([]any{int64(2),
		"p:a", "2", []any{"title", "T", fieldContent, "kettle", fieldMeta, "m", fieldHit, "h"},
		"p:b", nil, []any{}}, "p:", true)
	if err != nil || total != 2 || !slices.Equal(ids, []string{"a", "b"}) || scores[0] != 2 || !math.IsInf(scores[1], -1) || !slices.Equal(texts, []string{"kettle", ""}) {
		t.Errorf("parseWithScores: %d %v %v %q %v", total, ids, scores, texts, err)
	}
	if !slices.Equal(metas, []replyMeta{{meta: "m", hit: "h"}, {}}) {
		t.Errorf("parseWithScores: metas %q", metas)
	}
	if _, _, _, err := parseScored([]any{int64(1), "p:a"}, "p:"); err == nil || !strings.HasPrefix(err.Error(), "FT.SEARCH WITHSCORES: a reply of 2 elements") {
		t.Errorf("parseScored of 2 elements: %v", err)
	}
	if _, _, _, _, _, err := parseWithScores([]any{int64(1), "p:a", "1"}, "p:", true); err == nil || !strings.HasPrefix(err.Error(), "FT.SEARCH WITHSCORES RETURN: a reply of 3 elements") {
		t.Errorf("parseWithScores of 3 elements: %v", err)
	}
	if _, _, _, err := parseScored(nil, "p:"); err == nil {
		t.Error("parseScored of no reply: no error")
	}
}
