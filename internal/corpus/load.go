package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Formats Load reads, by file extension.
var loaders = map[string]func(src []byte, name, defaultID string) (Document, error){
	".md":       ReadMarkdown,
	".markdown": ReadMarkdown,
	".txt":      ReadText,
	".html":     ReadHTML,
	".htm":      ReadHTML,
}

// Load reads a corpus from path: a JSONL file (one record per line, the
// assay/Hollin or the BEIR corpus format), a single Markdown, text or HTML
// file, or a directory holding any mix of those (walked in lexical order;
// files and folders whose names start with '.' are skipped, as are files of
// other types).
//
// A document from a Markdown, text or HTML file without an id gets its
// path relative to the directory, without extension ("guides/descaling").
// Ids must be unique across the whole corpus.
//
// Like every loader, Load is all-or-nothing: the first bad record fails the
// whole load with a *RecordError naming file:line, field and reason, and no
// documents are returned.
func Load(path string) ([]Document, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return loadFile(path, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	}
	var docs []Document
	var where []string // file:line of each document, for duplicate reports
	err = walkDir(path, func(p string) error {
		got, lines, err := loadJSONLLines(p)
		if err != nil {
			return err
		}
		for i := range got {
			docs = append(docs, got[i])
			where = append(where, fmt.Sprintf("%s:%d", p, lines[i]))
		}
		return nil
	}, func(p, id string) error {
		got, err := loadFile(p, id)
		if err != nil {
			return err
		}
		docs = append(docs, got...)
		where = append(where, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	seen := make(map[string]int, len(docs))
	for i := range docs {
		if j, dup := seen[docs[i].ID]; dup {
			return nil, &RecordError{File: where[i], Field: "id",
				Reason: fmt.Sprintf("duplicate id %q (first in %s)", docs[i].ID, where[j])}
		}
		seen[docs[i].ID] = i
	}
	return docs, nil
}

// walkDir calls jsonl with each JSONL file under dir and file with every
// other file Load reads (and the id a document without one gets), in
// lexical order, skipping names that start with '.'.
func walkDir(dir string, jsonl func(path string) error, file func(path, id string) error) error {
	return filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && strings.HasPrefix(e.Name(), ".") {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(p))
		if ext == ".jsonl" {
			return jsonl(p)
		}
		if _, ok := loaders[ext]; !ok {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		return file(p, filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel))))
	})
}

// Stream reads the corpus at path as Load does, in the same order, but
// hands each document to fn in turn instead of keeping them all: a
// caller that needs one pass (a Checksum) holds one document at a time,
// not the corpus. Records are parsed and validated as Load does them;
// unlike Load, Stream does not check that ids are unique, and it stops at
// the first error, fn's included, after handing on the documents before
// it.
func Stream(path string, fn func(d *Document) error) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	jsonl := func(p string) error {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return eachJSONL(f, p, func(d *Document, _ int) error { return fn(d) })
	}
	file := func(p, id string) error {
		docs, err := loadFile(p, id)
		for i := range docs {
			if err == nil {
				err = fn(&docs[i])
			}
		}
		return err
	}
	if st.IsDir() {
		return walkDir(path, jsonl, file)
	}
	if strings.ToLower(filepath.Ext(path)) == ".jsonl" {
		return jsonl(path)
	}
	return file(path, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
}

func loadFile(path, defaultID string) ([]Document, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".jsonl" {
		return LoadJSONL(path)
	}
	read, ok := loaders[ext]
	if !ok {
		return nil, &RecordError{File: path, Reason: fmt.Sprintf("unknown corpus format %q (want .jsonl, .md, .markdown, .txt, .html or .htm, or a directory)", ext)}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d, err := read(src, path, defaultID)
	if err != nil {
		return nil, err
	}
	return []Document{d}, nil
}
