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
	err = filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != path && strings.HasPrefix(e.Name(), ".") {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(p))
		if _, ok := loaders[ext]; !ok && ext != ".jsonl" {
			return nil
		}
		rel, _ := filepath.Rel(path, p)
		id := filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel)))
		if ext == ".jsonl" {
			got, lines, err := loadJSONLLines(p)
			if err != nil {
				return err
			}
			for i := range got {
				docs = append(docs, got[i])
				where = append(where, fmt.Sprintf("%s:%d", p, lines[i]))
			}
			return nil
		}
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
