package doccheck

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// repoRoot is the module root as seen from this package's directory.
const repoRoot = "../.."

// pendingPages are pages README.md links before they are written; each is
// checked like any other link once it exists, and then the test asks for
// its entry to go.
var pendingPages = map[string]string{}

// TestRelativeLinks: every relative link and image in README.md,
// docs/*.md and docs/log/*.md names a file or directory in the repository,
// and a #fragment on a Markdown target names one of its headings.
func TestRelativeLinks(t *testing.T) {
	files := pages(t, repoRoot)
	problems := checkLinks(repoRoot, files, pendingPages)
	for _, p := range problems {
		t.Error(p)
	}
	for page, why := range pendingPages {
		if _, err := os.Stat(filepath.Join(repoRoot, page)); err == nil {
			t.Errorf("%s exists now: remove it from pendingPages in internal/doccheck (it was pending: %s)", page, why)
		}
	}
}

// TestReadmeLinksEveryPage: a page under docs/ that README.md does not link
// is a page a newcomer will not find. The log's pages (docs/log/) are
// found through its index, docs/log/README.md, which README.md links.
func TestReadmeLinksEveryPage(t *testing.T) {
	linked := linkedFrom(t, "README.md")
	logLinked := linkedFrom(t, logIndex)
	for _, f := range pages(t, repoRoot) {
		switch {
		case f == "README.md":
		case f == logIndex || path.Dir(f) != logDir:
			if !linked[f] {
				t.Errorf("README.md does not link %s: add it to the README's map of pages", f)
			}
		case !logLinked[f]:
			t.Errorf("%s does not link %s: add it to the log's list of files", logIndex, f)
		}
	}
	for page := range pendingPages {
		if !linked[page] {
			t.Errorf("pendingPages names %s but README.md does not link it", page)
		}
	}
}

// The log: measured rounds kept as evidence, and its index.
const (
	logDir   = "docs/log"
	logIndex = "docs/log/README.md"
)

// linkedFrom is the set of repository paths (slash-separated, relative to
// the root) that the page file links to.
func linkedFrom(t *testing.T, file string) map[string]bool {
	t.Helper()
	linked := map[string]bool{}
	for _, l := range links(t, filepath.Join(repoRoot, filepath.FromSlash(file))) {
		if target, _, ok := relativeTarget(l.dest); ok && target != "" {
			linked[path.Join(path.Dir(file), target)] = true
		}
	}
	return linked
}

// TestCheckerFindsBrokenLinks runs the checker on a fixture with good links
// and anchors (a repeated heading's -1 included), links in code and to
// the web that must be ignored, and four broken ones: a missing file, a
// missing heading, a missing file behind an anchor and a missing heading
// on the same page. A checker that stopped looking would fail here.
func TestCheckerFindsBrokenLinks(t *testing.T) {
	root := filepath.Join("testdata", "broken")
	got := checkLinks(root, pages(t, root), nil)
	want := []string{
		`README.md:4: link "docs/missing.md": no such file docs/missing.md`,
		`README.md:5: link "docs/page.md#no-such-heading": docs/page.md has no heading with the anchor #no-such-heading (it has: #a-page, #setting-up-assay-dev, #setting-up-assay-dev-1)`,
		`docs/page.md:4: link "../gone/README.md#x": no such file gone/README.md`,
		`docs/page.md:11: link "#nowhere": docs/page.md has no heading with the anchor #nowhere (it has: #a-page, #setting-up-assay-dev, #setting-up-assay-dev-1)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n got %q\nwant %q", got, want)
	}
}

func TestGitHubAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"The HTTP API":               "the-http-api",
		"Running locally: assay dev": "running-locally-assay-dev",
		"One index for every worker: Redis / RediSearch mode": "one-index-for-every-worker-redis--redisearch-mode",
		"Issue 14: three rounds":                              "issue-14-three-rounds",
		"Local activities: what changes":                      "local-activities-what-changes",
		"snake_case and 2-core":                               "snake_case-and-2-core",
	} {
		if got := anchor(heading); got != want {
			t.Errorf("anchor(%q) = %q, want %q", heading, got, want)
		}
	}
}

// pages lists README.md, docs/*.md and docs/log/*.md under root,
// slash-separated and relative to root.
func pages(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	log, err := filepath.Glob(filepath.Join(root, "docs", "log", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, log...)
	files := []string{"README.md"}
	for _, d := range docs {
		rel, err := filepath.Rel(root, d)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

type link struct {
	dest string
	line int
}

type page struct {
	links   []link
	anchors []string
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// parse reads one Markdown file: its links and images in order, and the
// anchors GitHub gives its headings.
func parse(file string) (page, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return page{}, err
	}
	doc := markdown.Parser().Parse(text.NewReader(src))
	var p page
	seen := map[string]int{}
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			a := anchor(plainText(n, src))
			if k := seen[a]; k > 0 {
				seen[a] = k + 1
				a = fmt.Sprintf("%s-%d", a, k)
			} else {
				seen[a] = 1
			}
			p.anchors = append(p.anchors, a)
		case *ast.Link:
			p.links = append(p.links, link{string(n.Destination), lineOf(n, src)})
		case *ast.Image:
			p.links = append(p.links, link{string(n.Destination), lineOf(n, src)})
		}
		return ast.WalkContinue, nil
	})
	return p, err
}

func links(t *testing.T, file string) []link {
	t.Helper()
	p, err := parse(file)
	if err != nil {
		t.Fatal(err)
	}
	return p.links
}

// checkLinks returns one line per broken relative link in files (paths
// relative to root), naming the file, the line and what is missing.
// Targets in pending are allowed to be missing.
func checkLinks(root string, files []string, pending map[string]string) []string {
	var problems []string
	parsed := map[string]page{}
	load := func(f string) (page, error) {
		if p, ok := parsed[f]; ok {
			return p, nil
		}
		p, err := parse(filepath.Join(root, filepath.FromSlash(f)))
		parsed[f] = p
		return p, err
	}
	for _, f := range files {
		p, err := load(f)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", f, err))
			continue
		}
		for _, l := range p.links {
			target, fragment, ok := relativeTarget(l.dest)
			if !ok {
				continue
			}
			if target == "" {
				target = f
			} else {
				target = path.Join(path.Dir(f), target)
			}
			where := fmt.Sprintf("%s:%d: link %q", f, l.line, l.dest)
			if strings.HasPrefix(target, "../") {
				problems = append(problems, fmt.Sprintf("%s: leads outside the repository", where))
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
				if _, ok := pending[target]; !ok {
					problems = append(problems, fmt.Sprintf("%s: no such file %s", where, target))
				}
				continue
			}
			if fragment == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			tp, err := load(target)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", where, err))
				continue
			}
			if !slices.Contains(tp.anchors, fragment) {
				problems = append(problems, fmt.Sprintf("%s: %s has no heading with the anchor #%s (it has: #%s)",
					where, target, fragment, strings.Join(tp.anchors, ", #")))
			}
		}
	}
	return problems
}

// relativeTarget splits a link destination into a path and a fragment;
// ok is false for links that leave the repository (a scheme or a host) and
// for absolute paths, which depend on where the files are served.
func relativeTarget(dest string) (target, fragment string, ok bool) {
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") {
		return "", "", false
	}
	return u.Path, u.Fragment, true
}

// anchor is GitHub's anchor for a heading's text: lower case, every
// character but letters, digits, spaces, '-' and '_' removed, each space
// a '-' (github-slugger); repeats get -1, -2, ... in parse.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plainText is a node's text as GitHub sees it for an anchor: the text of
// its inline children, code spans included, markup left out.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// lineOf is the 1-based line of n: of the first text inside it, or of
// its nearest block ancestor's first line when it has no text.
func lineOf(n ast.Node, src []byte) int {
	line := func(offset int) int { return 1 + strings.Count(string(src[:offset]), "\n") }
	for c := n.FirstChild(); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			return line(t.Segment.Start)
		}
	}
	for c := n.Parent(); c != nil; c = c.Parent() {
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			return line(c.Lines().At(0).Start)
		}
	}
	return 0
}
