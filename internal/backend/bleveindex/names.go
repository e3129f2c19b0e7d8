package bleveindex

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/terms"
)

// namesFile holds the (code, name word) pairs the chunks write, per ACL
// group (names.Table), for the builtin assessor's class reading.
const namesFile = "names.json"

// writeNames writes the chunks' name pairs into dir.
func writeNames(dir string, chunks []corpus.Chunk) error {
	t := names.NewTable()
	an := terms.NewUncached()
	for i := range chunks {
		t.Add(an, chunks[i].ACL, chunks[i].Title, chunks[i].Text)
	}
	return writeJSON(filepath.Join(dir, namesFile), t)
}

// readNames reads dir's name pairs: nil and no error when the index has
// none (built before round 26: the assessor then searches every word,
// as it did).
func readNames(dir string) (*names.Table, error) {
	b, err := os.ReadFile(filepath.Join(dir, namesFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t := names.NewTable()
	if err := json.Unmarshal(b, t); err != nil {
		return nil, fmt.Errorf("%s: %w", namesFile, err)
	}
	return t, nil
}

// Names returns the (code, name word) pairs the index's chunks write,
// per ACL group (backend.NameSource); nil when the index keeps none.
func (ix *Index) Names() *names.Table { return ix.names }
