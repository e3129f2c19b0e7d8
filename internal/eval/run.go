package eval

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// LoadRun reads a TREC run file; see ReadRun.
func LoadRun(path string) (Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadRun(f, path)
}

// ReadRun reads a TREC run: one retrieved document per line, `qid Q0 docid
// rank score tag`, whitespace-separated. Like trec_eval it ignores the
// rank (rankings are re-sorted by score), the Q0 and tag fields, and any
// fields after the sixth. Errors name file:line; name labels them. A
// document listed twice for one query is an error, as in trec_eval.
func ReadRun(r io.Reader, name string) (Run, error) {
	run := Run{}
	seen := map[[2]string]int{}
	err := scanLines(r, name, func(n int, line string) error {
		f := strings.Fields(line)
		if len(f) < 6 {
			return lineErr(name, n, "", fmt.Sprintf("want 6 fields (query-id Q0 doc-id rank score tag), got %d", len(f)))
		}
		qid, docid := f[0], f[2]
		score, err := strconv.ParseFloat(f[4], 64)
		if err != nil || math.IsNaN(score) || math.IsInf(score, 0) {
			return lineErr(name, n, "score", fmt.Sprintf("want a finite number, got %q", f[4]))
		}
		key := [2]string{qid, docid}
		if first, dup := seen[key]; dup {
			return lineErr(name, n, "doc-id", fmt.Sprintf("query %s retrieves document %s twice (first at line %d)", qid, docid, first))
		}
		seen[key] = n
		run[qid] = append(run[qid], Ranked{DocID: docid, Score: score})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return run, nil
}

// WriteRun writes run in TREC format, queries in byte order and each
// ranking in the order given, ranks from 1. Scores are written so they
// read back exactly. tag names the run; it must be one word.
func WriteRun(w io.Writer, run Run, tag string) error {
	if tag == "" || strings.ContainsFunc(tag, unicode.IsSpace) {
		return fmt.Errorf("eval: run tag %q: want one non-empty word", tag)
	}
	bw := bufio.NewWriter(w)
	for _, qid := range slices.Sorted(maps.Keys(run)) {
		if strings.ContainsFunc(qid, unicode.IsSpace) || qid == "" {
			return fmt.Errorf("eval: query id %q: want one non-empty word", qid)
		}
		for i, r := range run[qid] {
			if strings.ContainsFunc(r.DocID, unicode.IsSpace) || r.DocID == "" {
				return fmt.Errorf("eval: query %s: document id %q: want one non-empty word", qid, r.DocID)
			}
			fmt.Fprintf(bw, "%s Q0 %s %d %s %s\n", qid, r.DocID, i+1, strconv.FormatFloat(r.Score, 'g', -1, 64), tag)
		}
	}
	return bw.Flush()
}
