package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkLoaded is what every loader promises: an error is a non-empty
// message (a *RecordError for a bad record), never a panic, and never
// documents with it; loaded documents are valid, have distinct ids and an
// ACL of at least one non-blank group.
func checkLoaded(t *testing.T, docs []Document, err error) {
	t.Helper()
	if err != nil {
		if docs != nil {
			t.Fatalf("%d documents returned with error %v", len(docs), err)
		}
		if err.Error() == "" {
			t.Fatal("empty error message")
		}
		return
	}
	seen := map[string]bool{}
	for i := range docs {
		d := &docs[i]
		if verr := d.Validate(); verr != nil {
			t.Fatalf("loaded an invalid document %+v: %v", d, verr)
		}
		if len(d.ACL) == 0 {
			t.Fatalf("loaded document %q with an empty ACL", d.ID)
		}
		for _, g := range d.ACL {
			if strings.TrimSpace(g) == "" {
				t.Fatalf("loaded document %q with a blank group in %q", d.ID, d.ACL)
			}
		}
		if seen[d.ID] {
			t.Fatalf("loaded two documents with id %q", d.ID)
		}
		seen[d.ID] = true
	}
}

// FuzzReadJSONL covers the JSONL/BEIR loader. Seeds:
// testdata/fuzz/FuzzReadJSONL and the lines below.
func FuzzReadJSONL(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","title":"T","text":"x","acl":["staff"]}`,
		`{"_id":"1","title":"","text":"beir","metadata":{}}`,
		`{"id":"a","text":"x","acl":[]}`, `{"id":"a","text":"x","acl":null}`, `{"id":"a","text":"x","acl":[" "]}`,
		`{"id":"a","text":"x","authority":2}`, `{"id":"a b","text":"x"}`, "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"a\",\"text\":\"y\"}",
		`{"id":"a","text":"x"} {"id":"b"}`, `[1,2]`, "\xff",
		// issue 21: metadata that would not be read
		`{"_id":"a","text":"x","metadata":{"acl":["staff"]}}`, `{"_id":"a","text":"x","metadata":{"ACL ":"staff"}}`,
		"\xff\xfe{\x00\"\x00", "\ufeff{\"id\":\"a\",\"text\":\"x\",\"acl\":[\"staff\"]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := ReadJSONL(strings.NewReader(string(data)), "fuzz.jsonl")
		if err != nil {
			var re *RecordError
			if errors.As(err, &re) && re.File != "fuzz.jsonl" {
				t.Fatalf("error names file %q", re.File)
			}
		}
		checkLoaded(t, docs, err)
	})
}

// frontMatterSeeds are Markdown and text files for the front matter
// loaders.
var frontMatterSeeds = []string{
	"---\nid: a\ntitle: T\nacl: [staff]\n---\n# Heading\n\nBody *text* [link](http://x).\n",
	"---\nacl: []\n---\nbody\n", "---\nacl:\n---\nbody\n", "---\nacl: \"  \"\n---\nbody\n",
	"---\n- a\n---\nbody\n", "---\nid: x\n", "no front matter at all", "---\nauthority: high\n---\nx\n",
	"---\nupdated: 2026-13-40\n---\nx\n", "\ufeff---\nid: bom\n---\nx\n", "---\nunknown: 1\n---\nx\n",
	// issue 21: front matter after blank lines and a byte order mark, and
	// metadata no reader takes (each read, or an error naming the file)
	"\n---\nacl: [staff]\n---\nThe vault code is zyxwv\n", "\ufeff\n \n---\nacl: [staff]\n---\nx\n",
	"\r\n---\r\nacl: [staff]\r\n---\r\nx\r\n", "  ---\nacl: [staff]\n  ---\nx\n", "\n---\nacl: []\n---\nx\n",
	"+++\nacl = [\"staff\"]\n+++\nx\n", "---\nid: a\n---\n---\nacl: [staff]\n---\nx\n", "acl: [staff]\nx\n",
	"---\nid: a\n---\n\nacl: [staff]\nx\n", "\xff\xfe-\x00-\x00-\x00\n\x00", "\xfe\xff\x00-\x00-\x00-",
}

// FuzzReadMarkdown covers the Markdown loader.
func FuzzReadMarkdown(f *testing.F) {
	for _, s := range frontMatterSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ReadMarkdown(src, "fuzz.md", "fuzz")
		checkOne(t, d, err)
	})
}

// FuzzReadText covers the plain text loader.
func FuzzReadText(f *testing.F) {
	for _, s := range frontMatterSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ReadText(src, "fuzz.txt", "fuzz")
		checkOne(t, d, err)
	})
}

// FuzzReadHTML covers the HTML loader.
func FuzzReadHTML(f *testing.F) {
	for _, s := range []string{
		`<html><head><title>T</title><meta name="assay:acl" content="staff, finance"></head><body><h1>H</h1><p>x</p></body></html>`,
		`<meta name="assay:acl" content="  "><p>x</p>`, `<meta name="assay:acl" content=" , "><p>x</p>`,
		`<meta name="assay:acls" content="staff"><p>x</p>`, `<meta name="assay:authority" content="NaN"><p>x</p>`,
		`<script>x()</script>`, `<pre>code</pre><ul><li>a<li>b</ul>`, "\xff<p>",
		// issue 21: metadata that would not be read
		"\n---\nacl: [staff]\n---\n<p>x</p>", `<meta name="assay-acl" content="staff"><p>x</p>`,
		`<meta name="assay.acl" content="staff"><p>x</p>`, `<meta property="assay:acl" content="staff"><p>x</p>`,
		"\xff\xfe<\x00p\x00>\x00", "\ufeff<meta name=\"ASSAY:ACL\" content=\"staff\"><p>x</p>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ReadHTML(src, "fuzz.html", "fuzz")
		checkOne(t, d, err)
	})
}

// FuzzLoadDirectory covers the directory loader: one file of each
// format's content, found by its extension.
func FuzzLoadDirectory(f *testing.F) {
	f.Add([]byte(frontMatterSeeds[0]), uint8(0))
	f.Add([]byte(`{"id":"a","text":"x","acl":[]}`), uint8(1))
	f.Add([]byte(`<meta name="assay:acl" content=" "><p>x</p>`), uint8(2))
	f.Add([]byte("---\nacl:\n---\nbody\n"), uint8(3))
	f.Add([]byte("\n---\nacl: [staff]\n---\nThe vault code is zyxwv\n"), uint8(0))
	f.Add([]byte(`{"_id":"a","text":"x","metadata":{"acl":["staff"]}}`), uint8(1))
	f.Add([]byte(`<meta name="assay-acl" content="staff"><p>x</p>`), uint8(2))
	f.Add([]byte("\ufeff\n---\nacl: [staff]\n---\nx\n"), uint8(3))
	exts := []string{".md", ".jsonl", ".html", ".txt", ".markdown", ".htm"}
	f.Fuzz(func(t *testing.T, src []byte, ext uint8) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "doc"+exts[int(ext)%len(exts)]), src, 0o644); err != nil {
			t.Fatal(err)
		}
		docs, err := Load(dir)
		checkLoaded(t, docs, err)
	})
}

func checkOne(t *testing.T, d Document, err error) {
	t.Helper()
	if err != nil {
		checkLoaded(t, nil, err)
		return
	}
	checkLoaded(t, []Document{d}, nil)
}
