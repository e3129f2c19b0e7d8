package doccheck

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoRepeatedSections: README.md and docs/*.md (not the log) name each
// level-2 section once. A merge that keeps both sides of a conflict
// doubles a page's sections, and a later change edits one copy only (round
// 27: docs/loop.md held its second half twice, the generator's section once
// at v29 and once at v30).
func TestNoRepeatedSections(t *testing.T) {
	for _, f := range pages(t, repoRoot) {
		if path.Dir(f) == logDir {
			continue
		}
		for _, h := range repeatedSections(t, filepath.Join(repoRoot, f)) {
			t.Errorf("%s: the section %q stands more than once", f, h)
		}
	}
}

// repeatedSections returns the level-2 headings file names twice or more,
// outside fenced code.
func repeatedSections(t *testing.T, file string) []string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	var out []string
	fenced := false
	for _, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(l, "## ") {
			continue
		}
		h := strings.TrimSpace(l[3:])
		if seen[h]++; seen[h] == 2 {
			out = append(out, h)
		}
	}
	return out
}
