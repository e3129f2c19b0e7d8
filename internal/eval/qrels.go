package eval

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/assay-rag/assay/internal/corpus"
)

// beirQrelsHeader is the first line of a BEIR qrels file.
var beirQrelsHeader = []string{"query-id", "corpus-id", "score"}

// maxLine bounds one line of a qrels, run or JSONL file.
const maxLine = 16 << 20

// LoadQrels reads a qrels file in either format ReadQrels accepts.
func LoadQrels(path string) (Qrels, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQrels(f, path)
}

// ReadQrels reads relevance judgements in TREC format (`qid iter docid
// grade`, whitespace-separated; iter is ignored) or BEIR format (tab-
// separated `query-id corpus-id score` under that header line). The header
// decides. Blank lines are skipped. A judgement repeated for the same query
// and document is an error, as in trec_eval. Errors name file:line; name
// labels them.
func ReadQrels(r io.Reader, name string) (Qrels, error) {
	q := Qrels{}
	seen := map[[2]string]int{} // (qid, docid) → line
	beir, first := false, true
	err := scanLines(r, name, func(n int, line string) error {
		var qid, docid, grade string
		if first {
			first = false
			if slices.Equal(trimAll(strings.Split(line, "\t")), beirQrelsHeader) {
				beir = true
				return nil
			}
		}
		if beir {
			f := strings.Split(line, "\t")
			if len(f) != 3 {
				return lineErr(name, n, "", fmt.Sprintf("want 3 tab-separated fields (query-id, corpus-id, score), got %d", len(f)))
			}
			qid, docid, grade = strings.TrimSpace(f[0]), strings.TrimSpace(f[1]), strings.TrimSpace(f[2])
		} else {
			f := strings.Fields(line)
			if len(f) != 4 {
				return lineErr(name, n, "", fmt.Sprintf("want 4 fields (query-id iteration doc-id relevance), or BEIR's 3 under a first line %q; got %d",
					strings.Join(beirQrelsHeader, "\t"), len(f)))
			}
			qid, docid, grade = f[0], f[2], f[3]
		}
		if qid == "" {
			return lineErr(name, n, "query-id", "empty")
		}
		if docid == "" {
			return lineErr(name, n, "doc-id", "empty")
		}
		g, err := strconv.Atoi(grade)
		if err != nil {
			return lineErr(name, n, "relevance", fmt.Sprintf("want an integer grade, got %q", grade))
		}
		key := [2]string{qid, docid}
		if first, dup := seen[key]; dup {
			return lineErr(name, n, "", fmt.Sprintf("query %s judges document %s twice (first at line %d)", qid, docid, first))
		}
		seen[key] = n
		if q[qid] == nil {
			q[qid] = map[string]int{}
		}
		q[qid][docid] = g
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(q) == 0 {
		return nil, &corpus.RecordError{File: name, Reason: "no judgements"}
	}
	return q, nil
}

// Relevant returns the documents judged at least level for query qid, in
// byte order.
func (q Qrels) Relevant(qid string, level int) []string {
	var out []string
	for doc, g := range q[qid] {
		if g >= level {
			out = append(out, doc)
		}
	}
	slices.Sort(out)
	return out
}

// WriteQrels writes q in TREC format, by query then document in byte
// order, so trec_eval can read what assay evaluated.
func WriteQrels(w io.Writer, q Qrels) error {
	bw := bufio.NewWriter(w)
	for _, qid := range slices.Sorted(maps.Keys(q)) {
		for _, doc := range slices.Sorted(maps.Keys(q[qid])) {
			fmt.Fprintf(bw, "%s 0 %s %d\n", qid, doc, q[qid][doc])
		}
	}
	return bw.Flush()
}

func trimAll(f []string) []string {
	out := make([]string, len(f))
	for i, s := range f {
		out[i] = strings.TrimSpace(s)
	}
	return out
}

// scanLines calls fn with each non-blank line (without its line ending)
// and its 1-based number.
func scanLines(r io.Reader, name string, fn func(n int, line string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return lineErr(name, n+1, "", fmt.Sprintf("line longer than %d bytes", maxLine))
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// lineErr reports a bad input line; it is the corpus loader's error type,
// so every input error in assay reads the same: file:line: field: reason.
func lineErr(name string, line int, field, reason string) error {
	return &corpus.RecordError{File: name, Line: line, Field: field, Reason: reason}
}
