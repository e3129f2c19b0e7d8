package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/golden"
)

// TestLoadMixedDirectory loads a directory holding every supported format
// and compares the documents, rendered text included, with a golden file.
func TestLoadMixedDirectory(t *testing.T) {
	docs, err := Load("testdata/mixed")
	if err != nil {
		t.Fatalf("Load(testdata/mixed) error: %v", err)
	}
	got, err := json.MarshalIndent(docs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/mixed.golden.json", append(got, '\n'))
}

func TestLoadSingleFiles(t *testing.T) {
	tests := []struct {
		path      string
		wantID    string
		wantTitle string
	}{
		{"testdata/mixed/guides/descaling.md", "descaling", "Descaling the K50 kettle"},
		{"testdata/mixed/repair.html", "repair", "Repair centre move"},
		{"testdata/mixed/staff-note.txt", "staff-note-1", "Staff note on refunds"},
		{"testdata/mixed/records.jsonl", "beir-1", "A BEIR record"},
	}
	for _, tt := range tests {
		docs, err := Load(tt.path)
		if err != nil {
			t.Errorf("Load(%s) error: %v", tt.path, err)
			continue
		}
		if docs[0].ID != tt.wantID || docs[0].Title != tt.wantTitle {
			t.Errorf("Load(%s)[0] = %q %q, want %q %q", tt.path, docs[0].ID, docs[0].Title, tt.wantID, tt.wantTitle)
		}
	}
}

// TestLoadErrors checks that every bad record is reported by file, line
// and field, and that no documents come back with the error.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		load    string // relative path to load; "" = the directory
		want    string // substring of the error
		field   string
		wantLoc string // file:line suffix, when the format has lines
	}{
		{
			name:  "front matter unknown key",
			files: map[string]string{"a.md": "---\ntitle: A\nacll: [staff]\n---\nbody\n"},
			want:  "unknown field", field: "acll", wantLoc: "a.md:3",
		},
		{
			name:  "front matter bad status is placed on its line",
			files: map[string]string{"a.md": "---\ntitle: A\nstatus: live\n---\nbody\n"},
			want:  "want current, archived or withdrawn", field: "status", wantLoc: "a.md:3",
		},
		{
			name:  "front matter wrong type",
			files: map[string]string{"a.md": "---\ntitle: A\nauthority: high\n---\nbody\n"},
			want:  "cannot unmarshal", field: "authority", wantLoc: "a.md:3",
		},
		{
			name:  "front matter never closed",
			files: map[string]string{"a.md": "---\ntitle: A\nbody\n"},
			want:  "never closed", wantLoc: "a.md:1",
		},
		{
			name:  "front matter not a mapping",
			files: map[string]string{"a.txt": "---\n- a\n- b\n---\nbody\n"},
			want:  "must be a YAML mapping", wantLoc: "a.txt:2",
		},
		{
			name:  "bad date in text front matter",
			files: map[string]string{"a.txt": "---\nupdated: 01/02/2026\n---\nbody\n"},
			want:  "want YYYY-MM-DD", field: "updated", wantLoc: "a.txt:2",
		},
		{
			name:  "markdown with no text is an empty parse",
			files: map[string]string{"a.md": "---\nid: x\ntitle: T\n---\n<!-- only a comment -->\n"},
			want:  "no text", field: "text", wantLoc: "a.md:1",
		},
		{
			name:  "html with no text is an empty parse",
			files: map[string]string{"a.html": "<html><head><title>T</title><script>x()</script></head><body></body></html>"},
			want:  "no text", field: "text",
		},
		{
			name:  "id with a space",
			files: map[string]string{"a.md": "---\nid: a b\n---\ntext\n"},
			want:  "must not contain spaces", field: "id", wantLoc: "a.md:2",
		},
		{
			name:  "html unknown assay meta",
			files: map[string]string{"a.html": `<html><head><meta name="assay:acls" content="staff"></head><body><p>x</p></body></html>`},
			want:  "unknown field", field: "acls",
		},
		{
			name:  "html bad authority",
			files: map[string]string{"a.html": `<html><head><meta name="assay:authority" content="very"></head><body><p>x</p></body></html>`},
			want:  "want a number", field: "authority",
		},
		{
			name: "duplicate id across files",
			files: map[string]string{
				"a.md":     "---\nid: same\n---\ntext\n",
				"b.jsonl":  `{"id": "other", "title": "t", "text": "x"}` + "\n" + `{"id": "same", "title": "t", "text": "x"}` + "\n",
				"c/d.html": "<p>x</p>",
			},
			want: `duplicate id "same"`, field: "id", wantLoc: "b.jsonl:2",
		},
		{
			name:  "bad jsonl record inside a directory",
			files: map[string]string{"x/c.jsonl": `{"id": "a", "title": "t", "text": "x"}` + "\n\n" + `{"id": "b", "acl": "staff"}` + "\n"},
			want:  "want []string", field: "acl", wantLoc: "c.jsonl:3",
		},
		{
			name:  "unknown single file type",
			files: map[string]string{"a.csv": "id,text\n"},
			load:  "a.csv",
			want:  "unknown corpus format",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			docs, err := Load(filepath.Join(dir, tt.load))
			if err == nil {
				t.Fatalf("Load = %d docs, nil error; want an error containing %q", len(docs), tt.want)
			}
			if docs != nil {
				t.Errorf("Load returned %d documents with an error; want none (all-or-nothing)", len(docs))
			}
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("Load error = %T %v, want *RecordError", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load error = %q, want it to contain %q", err, tt.want)
			}
			if re.Field != tt.field {
				t.Errorf("Load error field = %q, want %q (error: %v)", re.Field, tt.field, err)
			}
			if tt.wantLoc != "" {
				loc := re.File
				if re.Line > 0 {
					loc += ":" + strconv.Itoa(re.Line)
				}
				if !strings.HasSuffix(filepath.ToSlash(loc), tt.wantLoc) {
					t.Errorf("Load error at %s, want %s (error: %v)", loc, tt.wantLoc, err)
				}
			}
		})
	}
}

// TestEmptyACLIsAnError: an acl field that is present but names no group
// ([], null, no value, only spaces or commas) fails the load in every
// loader, naming the file, line and field; only a record that leaves the
// field out is public.
func TestEmptyACLIsAnError(t *testing.T) {
	jsonl := func(acl string) string {
		return `{"id": "ok", "title": "t", "text": "x", "acl": ["staff"]}` + "\n" + `{"id": "a", "title": "t", "text": "x", "acl": ` + acl + `}` + "\n"
	}
	fm := func(acl string) string { return "---\nid: a\ntitle: T\n" + acl + "\n---\nbody text\n" }
	html := func(content string) string {
		return `<html><head><meta name="assay:acl" content="` + content + `"></head><body><p>x</p></body></html>`
	}
	tests := []struct {
		name, file, body, wantLoc string
	}{
		{"jsonl []", "c.jsonl", jsonl(`[]`), "c.jsonl:2"},
		{"jsonl null", "c.jsonl", jsonl(`null`), "c.jsonl:2"},
		{"jsonl [ ] with spaces", "c.jsonl", jsonl(`[ ]`), "c.jsonl:2"},
		{"jsonl blank group", "c.jsonl", jsonl(`["  "]`), "c.jsonl:2"},
		{"beir null", "c.jsonl", `{"_id": "a", "title": "t", "text": "x", "acl": null}` + "\n", "c.jsonl:1"},
		{"markdown []", "a.md", fm("acl: []"), "a.md:4"},
		{"markdown no value", "a.md", fm("acl:"), "a.md:4"},
		{"markdown null", "a.md", fm("acl: null"), "a.md:4"},
		{"markdown ~", "a.md", fm("acl: ~"), "a.md:4"},
		{"markdown blank string", "a.md", fm(`acl: "  "`), "a.md:4"},
		{"markdown blank item", "a.md", fm(`acl: ["  "]`), "a.md:4"},
		{"text []", "a.txt", fm("acl: []"), "a.txt:4"},
		{"text no value", "a.txt", fm("acl:"), "a.txt:4"},
		{"html spaces", "a.html", html("   "), "a.html"},
		{"html empty", "a.html", html(""), "a.html"},
		{"html commas", "a.html", html(" , ,"), "a.html"},
	}
	for _, tt := range tests {
		for _, viaDir := range []bool{false, true} {
			name := tt.name + " (file)"
			if viaDir {
				name = tt.name + " (directory)"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.body), 0o644); err != nil {
					t.Fatal(err)
				}
				load := filepath.Join(dir, tt.file)
				if viaDir {
					load = dir
				}
				docs, err := Load(load)
				if err == nil {
					t.Fatalf("Load = %+v, nil error; an empty ACL loaded", docs)
				}
				var re *RecordError
				if !errors.As(err, &re) || re.Field != "acl" {
					t.Fatalf("Load error = %v, want a *RecordError on field acl", err)
				}
				if !strings.Contains(err.Error(), tt.wantLoc+":") {
					t.Errorf("Load error = %q, want it at %s", err, tt.wantLoc)
				}
			})
		}
	}
	// Leaving the field out is public, in every format.
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.jsonl": `{"id": "j", "title": "t", "text": "x"}` + "\n",
		"b.md":    "---\nid: m\n---\nbody\n",
		"c.txt":   "plain body\n",
		"d.html":  "<p>x</p>",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if len(d.ACL) != 1 || d.ACL[0] != PublicGroup {
			t.Errorf("document %s without an acl field has ACL %q, want [public]", d.ID, d.ACL)
		}
	}
}

// TestRequireACL: with index.require_acl, a document whose record has no
// acl field is an error naming it; explicit ACLs ([public] included) pass.
func TestRequireACL(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.jsonl": `{"id": "j", "title": "t", "text": "x", "acl": ["public"]}` + "\n",
		"b.md":    "---\nid: m\nacl: [staff]\n---\nbody\n",
		"d.html":  `<meta name="assay:acl" content="public"><p>x</p>`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := RequireACL(docs); err != nil {
		t.Errorf("explicit ACLs: RequireACL = %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.txt"), []byte("no front matter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if docs, err = Load(dir); err != nil {
		t.Fatal(err)
	}
	var re *RecordError
	if err := RequireACL(docs); !errors.As(err, &re) || re.Field != "acl" || re.File != "c" {
		t.Errorf("a document without acl: RequireACL = %v, want an error on field acl naming document c", err)
	}
	hollin, err := Load("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := RequireACL(hollin); err != nil {
		t.Errorf("the Hollin corpus gives every document an acl: %v", err)
	}
}

// TestMetadataIsReadOrFails: metadata an editor or an author placed where
// a naive reader would miss it is either read (front matter after a byte
// order mark and blank lines) or an error naming the file; it never
// becomes public text (issue 21: "\n---\nacl: [staff]\n---\n..." was
// indexed as public, front matter and all).
func TestMetadataIsReadOrFails(t *testing.T) {
	read := []struct {
		name, file, body string
	}{
		{"blank line before front matter", "a.md", "\n---\nacl: [staff]\n---\nThe vault code is zyxwv.\n"},
		{"blank lines and spaces", "a.md", "  \n\r\n\t\n---\nacl: [staff]\n---\nThe vault code is zyxwv.\n"},
		{"byte order mark then a blank line", "a.md", "\ufeff\n---\nacl: [staff]\n---\nThe vault code is zyxwv.\n"},
		{"CRLF line ends", "a.txt", "\r\n---\r\nacl: [staff]\r\n---\r\nThe vault code is zyxwv.\r\n"},
		{"indented fences", "a.txt", "\n  ---\nacl: [staff]\n  ---\nThe vault code is zyxwv.\n"},
	}
	for _, tt := range read {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			docs, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			d := docs[0]
			if len(d.ACL) != 1 || d.ACL[0] != "staff" {
				t.Errorf("ACL = %q, want [staff]", d.ACL)
			}
			if strings.Contains(d.Text, "acl") || strings.Contains(d.Text, "---") {
				t.Errorf("text = %q: the front matter became text", d.Text)
			}
		})
	}
	// A blank line shifts the line numbers errors give.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("\n\n---\nacl: []\n---\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "a.md:4: field acl") {
		t.Errorf("empty acl after blank lines: err = %v, want it at a.md:4", err)
	}

	fail := []struct {
		name, file, body, want string
	}{
		{"UTF-16 markdown", "a.md", "\xff\xfe-\x00-\x00-\x00\n\x00", "UTF-16"},
		{"UTF-16 big-endian text", "a.txt", "\xfe\xff\x00-\x00-\x00-", "UTF-16"},
		{"UTF-16 HTML", "a.html", "\xff\xfe<\x00p\x00>\x00", "UTF-16"},
		{"TOML front matter", "a.md", "+++\nacl = [\"staff\"]\n+++\nThe vault code is zyxwv.\n", "TOML front matter"},
		{"a second front matter block", "a.md", "---\nid: a\n---\n\n---\nacl: [staff]\n---\nThe vault code is zyxwv.\n", "second --- block"},
		{"an acl line without fences", "a.txt", "acl: [staff]\nThe vault code is zyxwv.\n", "acl line outside front matter"},
		{"an acl line after the front matter", "a.md", "---\nid: a\n---\nacl: [staff]\nThe vault code is zyxwv.\n", "acl line outside front matter"},
		{"front matter in HTML", "a.html", "\n---\nacl: [staff]\n---\n<p>The vault code is zyxwv.</p>", "not read in an HTML file"},
		{"misnamed HTML meta", "a.html", `<meta name="assay-acl" content="staff"><p>The vault code is zyxwv.</p>`, `name="assay-acl"`},
		{"HTML meta as a property", "a.html", `<meta property="assay:acl" content="staff"><p>The vault code is zyxwv.</p>`, `property="assay:acl"`},
		{"BEIR metadata acl", "a.jsonl", `{"_id":"a","title":"t","text":"The vault code is zyxwv.","metadata":{"acl":["staff"]}}`, "metadata.acl"},
	}
	for _, tt := range fail {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			docs, err := Load(dir)
			if err == nil {
				t.Fatalf("Load = %+v, want an error: the metadata was not read", docs)
			}
			var re *RecordError
			if !errors.As(err, &re) || !strings.HasSuffix(re.File, tt.file) {
				t.Errorf("err = %v, want a *RecordError naming %s", err, tt.file)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to say %q", err, tt.want)
			}
		})
	}
}

// TestACLParts: the build summary counts documents per ACL and says how
// many are public only by default.
func TestACLParts(t *testing.T) {
	docs := []Document{
		{ACL: []string{"staff"}}, {ACL: []string{"public"}}, {}, {ACL: []string{"staff", "finance"}},
		{ACL: []string{"finance", "staff"}}, {ACL: []string{"staff"}},
	}
	for i := range docs {
		docs[i].Normalize()
	}
	want := "[finance staff] 2, [public] 2 (1 by default), [staff] 2"
	if got := ACLParts(docs); got != want {
		t.Errorf("ACLParts = %q, want %q", got, want)
	}

	// Many parts: the largest are named, the rest counted.
	docs = nil
	for i := range aclPartsShown + 30 {
		docs = append(docs, Document{ACL: []string{fmt.Sprintf("team-%02d", i)}})
		if i == 0 {
			docs = append(docs, docs[0])
		}
	}
	for i := range docs {
		docs[i].Normalize()
	}
	got := ACLParts(docs)
	if !strings.HasPrefix(got, "[team-00] 2, [team-01] 1, ") || !strings.HasSuffix(got, ", [team-11] 1, and 30 more parts (30 documents)") {
		t.Errorf("ACLParts of %d parts = %q, want the first %d named and 30 counted", aclPartsShown+30, got, aclPartsShown)
	}
	if n := strings.Count(got, "[team-"); n != aclPartsShown {
		t.Errorf("ACLParts named %d parts, want %d", n, aclPartsShown)
	}
	// One part past the cap is counted in the singular.
	if got := ACLParts(docs[:aclPartsShown+2]); !strings.HasSuffix(got, ", [team-11] 1, and 1 more part (1 document)") {
		t.Errorf("ACLParts of %d parts = %q, want the last counted as \"and 1 more part (1 document)\"", aclPartsShown+1, got)
	}
}
