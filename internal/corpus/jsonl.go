package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// jsonlRecord accepts both the assay/Hollin record ("id") and the BEIR
// corpus record ("_id", with an optional "metadata" object).
type jsonlRecord struct {
	ID        *string         `json:"id"`
	BEIRID    *string         `json:"_id"`
	Title     string          `json:"title"`
	Text      string          `json:"text"`
	Type      string          `json:"type"`
	Source    string          `json:"source"`
	Updated   string          `json:"updated"`
	Status    Status          `json:"status"`
	Authority *float64        `json:"authority"`
	ACL       json.RawMessage `json:"acl"` // nil: absent; see parseACL
	Products  []string        `json:"products"`
	Tags      []string        `json:"tags"`
	URL       string          `json:"url"`
	Metadata  json.RawMessage `json:"metadata"` // BEIR; ignored
}

// maxLine bounds one JSONL record.
const maxLine = 16 << 20

// LoadJSONL reads one document per line. Blank lines are skipped. Unknown
// fields are errors: a misspelt "acl" must not silently make a document
// public.
func LoadJSONL(path string) ([]Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadJSONL(f, path)
}

// loadJSONLLines is LoadJSONL that also returns each document's line.
func loadJSONLLines(path string) ([]Document, []int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readJSONL(f, path)
}

// ReadJSONL is LoadJSONL over a reader; name labels errors.
func ReadJSONL(r io.Reader, name string) ([]Document, error) {
	docs, _, err := readJSONL(r, name)
	return docs, err
}

// readJSONL is ReadJSONL that also returns each document's line number.
func readJSONL(r io.Reader, name string) ([]Document, []int, error) {
	var docs []Document
	var lines []int
	err := eachJSONL(r, name, func(d *Document, line int) error {
		docs = append(docs, *d)
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if err := checkUnique(docs, func(i int) (string, int) { return name, lines[i] }); err != nil {
		return nil, nil, err
	}
	return docs, lines, nil
}

// eachJSONL parses the records of r one at a time and calls fn with each
// and its line number, stopping at the first error. It does not check
// that ids are unique.
func eachJSONL(r io.Reader, name string, fn func(d *Document, line int) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	read := 0
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		d, err := parseRecord(line)
		if err != nil {
			return recordErr(name, n, err)
		}
		read++
		if err := fn(&d, n); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &RecordError{File: name, Line: read + 1, Reason: fmt.Sprintf("record longer than %d bytes", maxLine)}
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func parseRecord(line []byte) (Document, error) {
	var rec jsonlRecord
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return Document{}, jsonFieldErr(err)
	}
	if dec.More() {
		return Document{}, errors.New("more than one JSON value on the line")
	}
	d := Document{
		Title: rec.Title, Text: rec.Text, Type: rec.Type, Source: rec.Source,
		Updated: rec.Updated, Status: rec.Status,
		Products: rec.Products, Tags: rec.Tags, URL: rec.URL, Authority: 1,
	}
	switch {
	case rec.ID != nil && rec.BEIRID != nil:
		return Document{}, fieldErr("id", `both "id" and "_id" are set`)
	case rec.ID != nil:
		d.ID = *rec.ID
	case rec.BEIRID != nil:
		d.ID = *rec.BEIRID
	default:
		return Document{}, fieldErr("id", "missing")
	}
	if rec.Authority != nil {
		d.Authority = *rec.Authority
	}
	if err := metadataACL(rec.Metadata); err != nil {
		return Document{}, err
	}
	if rec.ACL != nil {
		acl, err := parseACL(rec.ACL)
		if err != nil {
			return Document{}, err
		}
		d.ACL = acl
	}
	d.Normalize()
	if err := d.Validate(); err != nil {
		return Document{}, err
	}
	return d, nil
}

// metadataACL refuses a BEIR metadata object that carries an acl: the
// loader ignores metadata, so that acl would not be read and the document
// would be public.
func metadataACL(raw json.RawMessage) error {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	for k := range m {
		if strings.EqualFold(strings.TrimSpace(k), "acl") {
			return fieldErr("metadata.acl", `is not read: the loader ignores BEIR metadata; give the record a top-level "acl"`)
		}
	}
	return nil
}

// parseACL decodes a present "acl" field: a list of at least one group.
// null and [] are errors, not public.
func parseACL(raw json.RawMessage) ([]string, error) {
	if string(bytes.TrimSpace(raw)) == "null" {
		return nil, errEmptyACL("null")
	}
	var acl []string
	if err := json.Unmarshal(raw, &acl); err != nil {
		return nil, fieldErr("acl", fmt.Sprintf("want []string (a list of group names), got %s", truncate(string(raw), 40)))
	}
	if len(acl) == 0 {
		return nil, errEmptyACL("[]")
	}
	return acl, nil
}

// truncate shortens s for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// jsonFieldErr turns encoding/json's errors into field errors where it can.
func jsonFieldErr(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fieldErr(typeErr.Field, fmt.Sprintf("want %s, got JSON %s", typeErr.Type, typeErr.Value))
	}
	if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if name := strings.Trim(msg, `"`); name != "" {
			return fieldErr(name, "unknown field")
		}
		return errors.New(`unknown field with an empty name ""`)
	}
	return fmt.Errorf("invalid JSON: %v", err)
}
