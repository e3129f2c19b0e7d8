// Package doccheck holds no code, only tests: that every relative link in
// README.md and docs/*.md leads to a file (and, for a Markdown file, a
// heading) that exists, and that README.md links every page under docs/.
// It runs in `make test`; `go test ./internal/doccheck` runs it alone.
package doccheck
