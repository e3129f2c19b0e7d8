package eval

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteTable prints the comparison as an aligned text table, one line per
// mode.
func (r RetrievalReport) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s (%s): %d queries, %d documents, k=%d; every judged query counts, no-hit queries score 0\n\n",
		r.Dataset, r.Split, r.Queries, r.Documents, r.K)
	width := len("mode")
	for _, s := range r.Systems {
		width = max(width, len(s.Mode))
	}
	fmt.Fprintf(w, "%-*s  %7s  %7s  %7s  %7s  %7s  %6s  %8s  %8s\n", width, "mode",
		"nDCG@10", "MRR@10", "R@10", "R@100", "MAP", "no-hit", "p50 ms", "p99 ms")
	for _, s := range r.Systems {
		_, err := fmt.Fprintf(w, "%-*s  %7.4f  %7.4f  %7.4f  %7.4f  %7.4f  %6d  %8.2f  %8.2f\n", width, s.Mode,
			s.NDCG10, s.MRR10, s.Recall10, s.Recall100, s.MAP, s.NoHit, s.LatencyP50Ms, s.LatencyP99Ms)
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON writes the report's stable JSON form, indented.
func (r RetrievalReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
