package synth

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
)

// Files a dataset directory written by WriteDataset holds.
const (
	// CorpusFile is both a BEIR corpus (_id, title, text) and an assay
	// corpus (`assay index --corpus`; "_id" is accepted for "id", and
	// "acl" carries the groups).
	CorpusFile  = "corpus.jsonl"
	QueriesFile = "queries.jsonl"
	// QrelsFile is BEIR's qrels/test.tsv.
	QrelsFile = "qrels/test.tsv"
	// QuestionsFile holds the queries as `assay bench --questions` reads
	// them (id, question).
	QuestionsFile = "questions.jsonl"
	// StatsFile is the generator's Stats as JSON.
	StatsFile = "synth.json"
)

// record is one line of CorpusFile.
type record struct {
	ID    string   `json:"_id"`
	Title string   `json:"title"`
	Text  string   `json:"text"`
	ACL   []string `json:"acl"`
}

// WriteDataset generates a corpus from the BEIR dataset src (its corpus
// and test split) and writes it to dir as a BEIR dataset with ACLs:
// CorpusFile, QueriesFile (src's judged test queries), QrelsFile,
// QuestionsFile and StatsFile. dir is created; files in it are replaced.
func WriteDataset(dir string, src *eval.Dataset, opts Options) (Stats, error) {
	docs, err := corpus.LoadJSONL(src.CorpusPath)
	if err != nil {
		return Stats{}, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "qrels"), 0o755); err != nil {
		return Stats{}, err
	}
	var st Stats
	err = writeFile(filepath.Join(dir, CorpusFile), func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		st, err = Generate(docs, opts, func(d corpus.Document) error {
			return enc.Encode(record{ID: d.ID, Title: d.Title, Text: d.Text, ACL: d.ACL})
		})
		return err
	})
	if err != nil {
		return st, err
	}
	type query struct {
		ID   string `json:"_id"`
		Text string `json:"text"`
	}
	type question struct {
		ID       string `json:"id"`
		Question string `json:"question"`
	}
	var queries []query
	var questions []question
	for _, q := range src.Queries {
		queries = append(queries, query{q.ID, q.Text})
		questions = append(questions, question{q.ID, q.Text})
	}
	if err := writeJSONL(filepath.Join(dir, QueriesFile), queries); err != nil {
		return st, err
	}
	if err := writeJSONL(filepath.Join(dir, QuestionsFile), questions); err != nil {
		return st, err
	}
	err = writeFile(filepath.Join(dir, QrelsFile), func(w *bufio.Writer) error {
		// BEIR's layout: a header, then tab-separated lines.
		fmt.Fprintf(w, "query-id\tcorpus-id\tscore\n")
		for _, qid := range slices.Sorted(maps.Keys(src.Qrels)) {
			for _, doc := range slices.Sorted(maps.Keys(src.Qrels[qid])) {
				fmt.Fprintf(w, "%s\t%s\t%d\n", qid, doc, src.Qrels[qid][doc])
			}
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	return st, writeFile(filepath.Join(dir, StatsFile), func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	})
}

// ReadStats reads the StatsFile of a dataset directory.
func ReadStats(dir string) (Stats, error) {
	var st Stats
	b, err := os.ReadFile(filepath.Join(dir, StatsFile))
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("%s: %w", filepath.Join(dir, StatsFile), err)
	}
	return st, nil
}

// writeJSONL writes items to path, one JSON value a line.
func writeJSONL[T any](path string, items []T) error {
	return writeFile(path, func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, it := range items {
			if err := enc.Encode(it); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeFile writes path through a buffer, via a temporary file renamed
// into place when everything is written.
func writeFile(path string, write func(*bufio.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}
