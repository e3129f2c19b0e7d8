package corpus

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// ReadMarkdown parses one Markdown file: optional YAML front matter for the
// metadata, then the body. The body is rendered to plain text that keeps
// its structure in the form the chunker reads: headings as "#" lines,
// blocks separated by blank lines, list items as "- " lines. Inline markup
// (emphasis, links, images) is reduced to its text, so neither BM25 nor an
// extractive answer sees asterisks and URLs.
//
// defaultID is used when the front matter has no id (Load passes the path
// relative to the corpus root, without extension). The title defaults to
// the first level-1 heading, which then leaves the text, and after that to
// defaultID.
func ReadMarkdown(src []byte, name, defaultID string) (Document, error) {
	return readWithFrontMatter(src, name, defaultID, renderMarkdown)
}

// ReadText parses one plain text file: optional front matter, then the
// body verbatim.
func ReadText(src []byte, name, defaultID string) (Document, error) {
	return readWithFrontMatter(src, name, defaultID, func(b []byte) (string, string) {
		return "", string(b)
	})
}

// readWithFrontMatter is the common path of the front-matter formats;
// render returns the body's first H1 (a title candidate) and its text.
func readWithFrontMatter(src []byte, name, defaultID string, render func([]byte) (h1, text string)) (Document, error) {
	y, yLine, body, _, err := splitFrontMatter(src)
	if err != nil {
		re := err.(*RecordError)
		re.File = name
		return Document{}, re
	}
	fm := parsedFrontMatter{keyLines: map[string]int{}}
	if y != nil {
		var rerr *RecordError
		if fm, rerr = parseFrontMatter(y, yLine); rerr != nil {
			rerr.File = name
			return Document{}, rerr
		}
	}
	var d Document
	fm.apply(&d)
	h1, txt := render(body)
	d.Text = txt
	if d.Title == "" && h1 != "" {
		d.Title = h1
	}
	if d.ID == "" {
		d.ID = defaultID
	}
	if d.Title == "" {
		d.Title = filepath.Base(defaultID)
	}
	d.Normalize()
	if d.Text == "" {
		return Document{}, &RecordError{File: name, Line: 1, Field: "text", Reason: "the file has no text after its front matter (an empty parse)"}
	}
	if err := d.Validate(); err != nil {
		return Document{}, fm.validationErr(name, err)
	}
	return d, nil
}

// renderMarkdown turns a Markdown body into structured plain text. The
// first level-1 heading is returned separately and left out of the text.
func renderMarkdown(src []byte) (h1, out string) {
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	r := mdRenderer{src: src}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 1 && h1 == "" && !r.tookH1 {
			r.tookH1 = true
			h1 = strings.TrimSpace(r.inline(h))
			continue
		}
		r.block(n, "")
	}
	return h1, strings.TrimSpace(strings.Join(r.blocks, "\n\n"))
}

type mdRenderer struct {
	src    []byte
	blocks []string
	tookH1 bool
}

// block renders one block node; prefix marks list items and quotes.
func (r *mdRenderer) block(n ast.Node, prefix string) {
	switch n := n.(type) {
	case *ast.Heading:
		r.add(strings.Repeat("#", n.Level) + " " + strings.TrimSpace(r.inline(n)))
	case *ast.Paragraph, *ast.TextBlock:
		r.add(prefix + strings.TrimSpace(r.inline(n)))
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(r.src))
		}
		r.add(strings.TrimRight(b.String(), "\n"))
	case *ast.List:
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			r.block(item, prefix)
		}
	case *ast.ListItem:
		first := true
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			p := "  " + prefix
			if first {
				p = prefix + "- "
				first = false
			}
			r.block(c, p)
		}
	case *ast.Blockquote:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.block(c, prefix)
		}
	case *ast.ThematicBreak, *ast.HTMLBlock, *ast.LinkReferenceDefinition:
		// layout and raw HTML carry no text worth indexing
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.block(c, prefix)
		}
	}
}

func (r *mdRenderer) add(s string) {
	if strings.TrimSpace(s) != "" {
		r.blocks = append(r.blocks, s)
	}
}

// inline renders a node's inline children as plain text.
func (r *mdRenderer) inline(n ast.Node) string {
	var b bytes.Buffer
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Value(r.src))
				switch {
				case c.HardLineBreak():
					b.WriteByte('\n')
				case c.SoftLineBreak():
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			case *ast.AutoLink:
				b.Write(c.Label(r.src))
			case *ast.RawHTML:
				// inline tags are markup, not text
			default: // emphasis, links, images (alt text), code spans
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}
