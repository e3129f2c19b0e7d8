package corpus

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// frontMatter is the metadata block at the top of a Markdown or text file.
// Every Document field except the text may be set; unknown keys are errors
// for the same reason as in JSONL: a misspelt "acl" must not make a
// document public.
type frontMatter struct {
	ID        string   `yaml:"id"`
	Title     string   `yaml:"title"`
	Type      string   `yaml:"type"`
	Source    string   `yaml:"source"`
	Updated   string   `yaml:"updated"`
	Status    Status   `yaml:"status"`
	Authority *float64 `yaml:"authority"`
	ACL       []string `yaml:"acl"`
	Products  []string `yaml:"products"`
	Tags      []string `yaml:"tags"`
	URL       string   `yaml:"url"`
}

// parsedFrontMatter is a decoded block plus where each key sits, so a
// validation error can name the line of the offending field.
type parsedFrontMatter struct {
	frontMatter
	keyLines map[string]int // key → 1-based line in the file
	present  bool
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// splitFrontMatter cuts a leading "---" … "---" (or "...") block from src.
// The opening fence may follow a UTF-8 byte order mark and blank lines:
// an editor that adds either must not turn the metadata into public text.
// It returns the YAML, the file line the YAML starts on, the body, and the
// file line the body starts on. A file that opens with "---" but never
// closes it is an error, and so is a file whose metadata cannot be read
// (see unreadableMetadata).
func splitFrontMatter(src []byte) (yamlText []byte, yamlLine int, body []byte, bodyLine int, err error) {
	if err := unreadableEncoding(src); err != nil {
		return nil, 0, nil, 0, err
	}
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	line := 1
	rest := src
	for len(rest) > 0 {
		l, after, _ := bytes.Cut(rest, []byte("\n"))
		if len(bytes.TrimSpace(l)) != 0 {
			break
		}
		rest = after
		line++
	}
	first, rest, _ := bytes.Cut(rest, []byte("\n"))
	if string(bytes.TrimSpace(first)) != "---" {
		if err := misplacedFrontMatter(src, 1); err != nil {
			return nil, 0, nil, 0, err
		}
		return nil, 0, src, 1, nil
	}
	open := line
	line++
	var y bytes.Buffer
	for len(rest) > 0 {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		if t := string(bytes.TrimSpace(l)); t == "---" || t == "..." {
			if err := misplacedFrontMatter(rest, line+1); err != nil {
				return nil, 0, nil, 0, err
			}
			return y.Bytes(), open + 1, rest, line + 1, nil
		}
		y.Write(l)
		y.WriteByte('\n')
		line++
	}
	return nil, 0, nil, 0, &RecordError{Line: open, Reason: "front matter opened with --- is never closed"}
}

// unreadableEncoding refuses text a UTF-8 reader would misread: a UTF-16
// or UTF-32 byte order mark. Such a file's front matter would not be
// found, and its metadata would become public text.
func unreadableEncoding(src []byte) error {
	for _, bom := range [][]byte{{0, 0, 0xfe, 0xff}, {0xff, 0xfe, 0, 0}, {0xfe, 0xff}, {0xff, 0xfe}} {
		if bytes.HasPrefix(src, bom) {
			return &RecordError{Line: 1, Reason: "the file is UTF-16 or UTF-32 encoded; save it as UTF-8 so its metadata can be read"}
		}
	}
	return nil
}

// frontMatterKey matches a line that sets a front matter field, as a
// YAML "key:" at the start of the line.
var frontMatterKey = regexp.MustCompile(`^(id|title|type|source|updated|status|authority|acl|products|tags|url)\s*:`)

// aclLine matches a line that sets an acl as YAML would.
var aclLine = regexp.MustCompile(`^acl\s*:`)

// misplacedFrontMatter refuses a body, starting on file line start, that
// begins (after blank lines) with metadata no reader would take: TOML
// front matter (+++), a second --- block of front matter, or an acl line
// without its fences. Each would be indexed as text under a default,
// public, ACL.
func misplacedFrontMatter(body []byte, start int) error {
	for line := start; len(body) > 0; line++ {
		var l []byte
		l, body, _ = bytes.Cut(body, []byte("\n"))
		t := string(bytes.TrimSpace(l))
		switch {
		case t == "":
			continue
		case t == "+++":
			return &RecordError{Line: line, Reason: "TOML front matter (+++) is not read; write the metadata as YAML between --- lines at the top of the file"}
		case t == "---":
			// A second block, or a thematic break: look at what follows.
			next, _, _ := bytes.Cut(body, []byte("\n"))
			if frontMatterKey.Match(bytes.TrimSpace(next)) {
				return &RecordError{Line: line, Reason: "a second --- block of front matter is not read; put every field in the first block at the top of the file"}
			}
		case aclLine.MatchString(t):
			return &RecordError{Line: line, Field: "acl", Reason: "an acl line outside front matter is not read; put it between --- lines at the top of the file"}
		}
		return nil
	}
	return nil
}

// parseFrontMatter decodes the YAML of a front matter block that starts on
// file line first.
func parseFrontMatter(src []byte, first int) (parsedFrontMatter, *RecordError) {
	out := parsedFrontMatter{keyLines: map[string]int{}, present: true}
	offset := first - 1 // the YAML's line 1 is the file's line first
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return out, yamlErr(err, offset)
	}
	if len(root.Content) == 0 {
		return out, nil // an empty block
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return out, &RecordError{Line: m.Line + offset, Reason: "front matter must be a YAML mapping of field: value"}
	}
	known := map[string]bool{"id": true, "title": true, "type": true, "source": true, "updated": true,
		"status": true, "authority": true, "acl": true, "products": true, "tags": true, "url": true}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if !known[k.Value] {
			return out, &RecordError{Line: k.Line + offset, Field: k.Value, Reason: "unknown field"}
		}
		out.keyLines[k.Value] = k.Line + offset
	}
	if err := m.Decode(&out.frontMatter); err != nil {
		re := yamlErr(err, offset)
		for k, line := range out.keyLines {
			if line == re.Line {
				re.Field = k // the value on the key's line is the bad one
			}
		}
		return out, re
	}
	if line, ok := out.keyLines["acl"]; ok && len(out.ACL) == 0 {
		fe := errEmptyACL("present without a group").(*fieldError)
		return out, &RecordError{Line: line, Field: fe.field, Reason: fe.reason}
	}
	return out, nil
}

// yamlErr turns a yaml.v3 error ("line 3: cannot unmarshal ...") into a
// RecordError at the file's line.
func yamlErr(err error, offset int) *RecordError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &RecordError{Line: n + offset, Reason: "front matter: " + strings.TrimSpace(m[2])}
	}
	return &RecordError{Line: 1, Reason: "front matter: " + strings.TrimSpace(msg)}
}

// apply copies the front matter's fields onto d; authority defaults to 1
// as in JSONL.
func (fm *parsedFrontMatter) apply(d *Document) {
	d.ID, d.Title, d.Type, d.Source = fm.ID, fm.Title, fm.Type, fm.Source
	d.Updated, d.Status, d.URL = fm.Updated, fm.Status, fm.URL
	d.ACL, d.Products, d.Tags = fm.ACL, fm.Products, fm.Tags
	d.Authority = 1
	if fm.Authority != nil {
		d.Authority = *fm.Authority
	}
}

// validationErr places d.Validate's error on the line of the key it names.
func (fm *parsedFrontMatter) validationErr(file string, err error) error {
	re := recordErr(file, 1, err).(*RecordError)
	if n, ok := fm.keyLines[re.Field]; ok {
		re.Line = n
	}
	return re
}
