package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ReadHTML parses one HTML page. Metadata comes from <meta> tags named
// "assay:FIELD" (assay:id, assay:acl, assay:status, ...); lists (acl,
// products, tags) are comma-separated. Other <meta> tags are ignored, but
// an unknown "assay:" name is an error, as in front matter. The title is
// assay:title, else <title>, else the first <h1>, else defaultID.
//
// The text keeps the page's structure in the form the chunker reads:
// headings become "#" lines, block elements are separated by blank lines,
// list items start with "- ". Scripts, styles, navigation and forms are
// dropped. HTML has no useful line numbers once parsed, so errors name the
// file and the field only.
func ReadHTML(src []byte, name, defaultID string) (Document, error) {
	if err := unreadableEncoding(src); err != nil {
		re := err.(*RecordError)
		re.File = name
		return Document{}, re
	}
	if first, _, _ := bytes.Cut(bytes.TrimLeft(bytes.TrimPrefix(src, []byte("\ufeff")), " \t\r\n"), []byte("\n")); string(bytes.TrimSpace(first)) == "---" {
		return Document{}, &RecordError{File: name, Line: 1, Reason: `YAML front matter is not read in an HTML file; give its metadata as <meta name="assay:FIELD" content="..."> tags`}
	}
	root, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return Document{}, &RecordError{File: name, Reason: "invalid HTML: " + err.Error()}
	}
	h := htmlText{}
	h.walk(root)
	h.flush()
	if h.misnamed != "" {
		return Document{}, &RecordError{File: name, Reason: fmt.Sprintf(`<meta %s> is not read; assay reads metadata from <meta name="assay:FIELD" content="...">`, h.misnamed)}
	}
	var d Document
	d.Authority = 1
	for _, m := range h.metas {
		if err := setMeta(&d, m[0], m[1]); err != nil {
			return Document{}, &RecordError{File: name, Field: m[0], Reason: err.Error()}
		}
	}
	if d.ID == "" {
		d.ID = defaultID
	}
	for _, t := range []string{d.Title, h.title, h.h1, filepath.Base(defaultID)} {
		if d.Title == "" {
			d.Title = strings.TrimSpace(t)
		}
	}
	d.Text = strings.Join(h.blocks, "\n\n")
	d.Normalize()
	if d.Text == "" {
		return Document{}, &RecordError{File: name, Field: "text", Reason: "the page has no text outside scripts, styles and navigation (an empty parse)"}
	}
	if err := d.Validate(); err != nil {
		re := recordErr(name, 0, err).(*RecordError)
		return Document{}, re
	}
	return d, nil
}

func setMeta(d *Document, field, value string) error {
	list := func() []string {
		var out []string
		for _, v := range strings.Split(value, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	switch field {
	case "id":
		d.ID = value
	case "title":
		d.Title = value
	case "type":
		d.Type = value
	case "source":
		d.Source = value
	case "updated":
		d.Updated = value
	case "status":
		d.Status = Status(value)
	case "url":
		d.URL = value
	case "authority":
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return fmt.Errorf("want a number 0..1, got %q", value)
		}
		d.Authority = f
	case "acl":
		if d.ACL = list(); len(d.ACL) == 0 {
			return errors.New(errEmptyACL("content names no group").(*fieldError).reason)
		}
	case "products":
		d.Products = list()
	case "tags":
		d.Tags = list()
	default:
		return fmt.Errorf(`unknown field (meta name "assay:%s")`, field)
	}
	return nil
}

// htmlText collects a page's title, assay metadata and structured text.
type htmlText struct {
	title, h1 string
	metas     [][2]string // field, value in document order
	misnamed  string      // the first meta that looks like assay's but is not read
	blocks    []string
	cur       strings.Builder
	prefix    string
	pre       int // depth inside <pre>
}

var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Svg: true, atom.Form: true, atom.Iframe: true, atom.Button: true,
}

var blockElems = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Header: true, atom.Footer: true, atom.Aside: true, atom.Blockquote: true,
	atom.Ul: true, atom.Ol: true, atom.Li: true, atom.Table: true, atom.Tr: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Pre: true, atom.Figure: true,
	atom.Figcaption: true, atom.Br: true, atom.Hr: true, atom.Body: true,
}

func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// misnamedMeta names a <meta> tag that looks meant for assay but would be
// ignored ("assay-acl", "assay.acl", property="assay:acl"): ignoring it
// would publish a document its author meant to restrict. "" otherwise.
func misnamedMeta(n *html.Node, name string) string {
	if len(name) > len("assay") && strings.HasPrefix(name, "assay") && strings.ContainsRune("-_.", rune(name[len("assay")])) {
		return fmt.Sprintf("name=%q", name)
	}
	for _, key := range []string{"property", "itemprop", "http-equiv"} {
		if v := strings.ToLower(strings.TrimSpace(attr(n, key))); strings.HasPrefix(v, "assay") {
			return fmt.Sprintf("%s=%q", key, v)
		}
	}
	return ""
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

func (h *htmlText) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		h.cur.WriteString(n.Data) // whitespace is collapsed at flush, except in <pre>
		return
	case html.ElementNode:
		if skipped[n.DataAtom] {
			return
		}
		switch n.DataAtom {
		case atom.Title:
			if h.title == "" {
				h.title = textOf(n)
			}
			return
		case atom.Meta:
			name := strings.ToLower(strings.TrimSpace(attr(n, "name")))
			if f, ok := strings.CutPrefix(name, "assay:"); ok {
				h.metas = append(h.metas, [2]string{f, attr(n, "content")})
			} else if h.misnamed == "" {
				h.misnamed = misnamedMeta(n, name)
			}
			return
		case atom.Head:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				h.walk(c)
			}
			return
		}
		if lvl := headingLevel(n.DataAtom); lvl > 0 {
			h.flush()
			t := collapse(textOf(n))
			if lvl == 1 && h.h1 == "" {
				h.h1 = t
			}
			if t != "" {
				h.blocks = append(h.blocks, strings.Repeat("#", lvl)+" "+t)
			}
			return
		}
		if blockElems[n.DataAtom] {
			h.flush()
			saved := h.prefix
			if n.DataAtom == atom.Li {
				h.prefix = "- "
			}
			if n.DataAtom == atom.Pre {
				h.pre++
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				h.walk(c)
			}
			if n.DataAtom == atom.Pre {
				h.pre--
				h.flushPre()
			}
			h.flush()
			h.prefix = saved
			return
		}
		if n.DataAtom == atom.Td || n.DataAtom == atom.Th {
			h.cur.WriteString(" ")
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		h.walk(c)
	}
}

// flush ends the current block, collapsing its whitespace.
func (h *htmlText) flush() {
	if h.pre > 0 {
		return
	}
	if t := collapse(h.cur.String()); t != "" {
		h.blocks = append(h.blocks, h.prefix+t)
	}
	h.cur.Reset()
}

// flushPre ends a preformatted block, keeping its lines.
func (h *htmlText) flushPre() {
	if h.pre > 0 {
		return
	}
	if t := strings.Trim(h.cur.String(), "\n"); strings.TrimSpace(t) != "" {
		h.blocks = append(h.blocks, t)
	}
	h.cur.Reset()
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		if n.Type == html.ElementNode && skipped[n.DataAtom] {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
