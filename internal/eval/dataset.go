package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Query is one search query of a dataset.
type Query struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// queryRecord is a BEIR queries.jsonl line.
type queryRecord struct {
	ID       *string         `json:"_id"`
	Text     *string         `json:"text"`
	Metadata json.RawMessage `json:"metadata"` // BEIR; ignored
}

// LoadQueries reads a BEIR queries file; see ReadQueries.
func LoadQueries(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQueries(f, path)
}

// ReadQueries reads BEIR queries, one JSON object per line with `_id` and
// `text` (and an ignored `metadata`), in file order. Unknown fields, empty
// ids or texts and repeated ids are errors naming file:line.
func ReadQueries(r io.Reader, name string) ([]Query, error) {
	var out []Query
	seen := map[string]int{}
	err := scanLines(r, name, func(n int, line string) error {
		var rec queryRecord
		if err := decodeStrict([]byte(line), &rec); err != nil {
			return lineErr(name, n, jsonField(err), jsonReason(err))
		}
		switch {
		case rec.ID == nil || strings.TrimSpace(*rec.ID) == "":
			return lineErr(name, n, "_id", "missing or empty")
		case rec.Text == nil || strings.TrimSpace(*rec.Text) == "":
			return lineErr(name, n, "text", "missing or empty")
		}
		id := strings.TrimSpace(*rec.ID)
		if first, dup := seen[id]; dup {
			return lineErr(name, n, "_id", fmt.Sprintf("duplicate id %q (first at line %d)", id, first))
		}
		seen[id] = n
		out = append(out, Query{ID: id, Text: strings.TrimSpace(*rec.Text)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, lineErr(name, 0, "", "no queries")
	}
	return out, nil
}

// Dataset is one split of a BEIR dataset: the queries that have
// judgements, and the judgements. The corpus stays on disk at CorpusPath;
// read it with corpus.LoadJSONL.
type Dataset struct {
	Dir        string
	Split      string
	CorpusPath string
	QueryPath  string
	QrelsPath  string
	// Queries are the judged queries, in the queries file's order.
	Queries []Query
	Qrels   Qrels
	// Unjudged counts queries of the queries file without judgements in
	// this split; they are not evaluated (BEIR's convention).
	Unjudged int
}

// Splits a BEIR dataset may have.
const (
	SplitTest  = "test"
	SplitTrain = "train"
)

// LoadBEIR loads split ("test" or "train") of the BEIR dataset in dir. It
// accepts the flat layout of shared/data/scifact (queries.jsonl + qrels.tsv
// for test, queries_train.jsonl + qrels_train.tsv for train) and BEIR's own
// (one queries.jsonl, qrels/<split>.tsv). Every judged query must have a
// text: a judged query that cannot be run would silently leave the means.
func LoadBEIR(dir, split string) (*Dataset, error) {
	if split != SplitTest && split != SplitTrain {
		return nil, fmt.Errorf("dataset %s: split %q: want test or train", dir, split)
	}
	d := &Dataset{Dir: dir, Split: split, CorpusPath: filepath.Join(dir, "corpus.jsonl")}
	if _, err := os.Stat(d.CorpusPath); err != nil {
		return nil, fmt.Errorf("dataset %s: no corpus.jsonl: %w", dir, err)
	}
	suffix := ""
	if split == SplitTrain {
		suffix = "_train"
	}
	var err error
	if d.QueryPath, err = firstExisting(filepath.Join(dir, "queries"+suffix+".jsonl"), filepath.Join(dir, "queries.jsonl")); err != nil {
		return nil, fmt.Errorf("dataset %s: no queries file for split %s: %w", dir, split, err)
	}
	if d.QrelsPath, err = firstExisting(filepath.Join(dir, "qrels"+suffix+".tsv"), filepath.Join(dir, "qrels", split+".tsv")); err != nil {
		return nil, fmt.Errorf("dataset %s: no qrels for split %s: %w", dir, split, err)
	}
	if d.Qrels, err = LoadQrels(d.QrelsPath); err != nil {
		return nil, err
	}
	queries, err := LoadQueries(d.QueryPath)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, q := range queries {
		if _, judged := d.Qrels[q.ID]; judged {
			d.Queries = append(d.Queries, q)
			have[q.ID] = true
		} else {
			d.Unjudged++
		}
	}
	var missing []string
	for _, qid := range slices.Sorted(maps.Keys(d.Qrels)) {
		if !have[qid] {
			missing = append(missing, qid)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: %d judged queries have no text in %s: %s",
			d.QrelsPath, len(missing), d.QueryPath, abbreviate(missing, 10))
	}
	return d, nil
}

// UnknownDocs returns the judged documents for which known is false, in
// byte order: judgements the corpus cannot satisfy.
func UnknownDocs(q Qrels, known func(docID string) bool) []string {
	set := map[string]bool{}
	for _, docs := range q {
		for doc := range docs {
			if !known(doc) {
				set[doc] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

func firstExisting(paths ...string) (string, error) {
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fs.ErrNotExist
}

// abbreviate joins up to n items and says how many more there are.
func abbreviate(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// decodeStrict decodes one JSON value, rejecting unknown fields and
// trailing values.
func decodeStrict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// jsonField and jsonReason split encoding/json's errors into the field
// they are about and why.
func jsonField(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return typeErr.Field
	}
	if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return strings.Trim(msg, `"`)
	}
	return ""
}

func jsonReason(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Sprintf("want %s, got JSON %s", typeErr.Type, typeErr.Value)
	}
	if strings.HasPrefix(err.Error(), "json: unknown field ") {
		return "unknown field"
	}
	return fmt.Sprintf("invalid JSON: %v", err)
}
