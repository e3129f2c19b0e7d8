//go:build !purego

package vectors

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAsmMacroArgNames checks what go vet's asmdecl cannot: it reads the
// assembly as written, so an argument named inside a #define (ARGS,
// COUNT4, DOTLOOP) is checked against no function. Here every macro is
// expanded into the functions that use it, and each name+offset(FP) of a
// function must be one of its Go declaration's arguments at that offset
// (round 27's review: ARGS named andPopcount4Many's recs "rec").
func TestAsmMacroArgNames(t *testing.T) {
	decls := asmDecls(t)
	files, err := filepath.Glob("*_amd64.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly files (%v)", err)
	}
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for fn, refs := range asmFPRefs(t, string(src)) {
			args, ok := decls[fn]
			if !ok {
				t.Errorf("%s: TEXT ·%s has no Go declaration", f, fn)
				continue
			}
			for _, r := range refs {
				checked++
				if args[r.off] != r.name {
					t.Errorf("%s: %s writes %s+%d(FP); its argument at offset %d is %q", f, fn, r.name, r.off, r.off, args[r.off])
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no FP references read")
	}
}

// asmDecls returns, for each function of this package's amd64 files
// declared without a body, its arguments by frame offset (amd64: every
// argument and result here is one 8-byte word; a single unnamed result
// is ret).
func asmDecls(t *testing.T) map[string]map[int]string {
	t.Helper()
	files, err := filepath.Glob("*_amd64.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[int]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body != nil {
				continue
			}
			args, off := map[int]string{}, 0
			add := func(fl *ast.FieldList, result bool) {
				if fl == nil {
					return
				}
				for _, field := range fl.List {
					switch ty := field.Type.(type) {
					case *ast.StarExpr:
					case *ast.Ident:
						if ty.Name != "int" && ty.Name != "int64" && ty.Name != "uint64" && ty.Name != "uintptr" {
							t.Fatalf("%s: argument type %s: not a word (extend asmDecls)", fd.Name.Name, ty.Name)
						}
					default:
						t.Fatalf("%s: argument type %T: not a word (extend asmDecls)", fd.Name.Name, ty)
					}
					if len(field.Names) == 0 && result {
						args[off], off = "ret", off+8
					}
					for _, n := range field.Names {
						args[off], off = n.Name, off+8
					}
				}
			}
			add(fd.Type.Params, false)
			add(fd.Type.Results, true)
			out[fd.Name.Name] = args
		}
	}
	return out
}

type fpRef struct {
	name string
	off  int
}

var (
	reDefine = regexp.MustCompile(`^#define\s+(\w+)(?:\(([^)]*)\))?\s*(.*)$`)
	reCall   = regexp.MustCompile(`^(\w+)(?:\(([^)]*)\))?$`)
	reText   = regexp.MustCompile(`^TEXT\s+·(\w+)\(SB\)`)
	reFP     = regexp.MustCompile(`\b(\w+)\+(\d+)\(FP\)`)
)

type asmMacro struct {
	params []string
	body   []string
}

// asmFPRefs returns the name+offset(FP) references of each TEXT function
// of src with its macros expanded (a macro used as a statement of its own
// line, with or without arguments, as the files here use them).
func asmFPRefs(t *testing.T, src string) map[string][]fpRef {
	t.Helper()
	macros := map[string]asmMacro{}
	var code []string
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		m := reDefine.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			code = append(code, lines[i])
			continue
		}
		var mac asmMacro
		if m[2] != "" {
			for _, p := range strings.Split(m[2], ",") {
				mac.params = append(mac.params, strings.TrimSpace(p))
			}
		}
		part := m[3]
		for {
			more := strings.HasSuffix(part, `\`)
			if s := strings.TrimSpace(strings.TrimSuffix(part, `\`)); s != "" {
				mac.body = append(mac.body, s)
			}
			if !more || i+1 >= len(lines) {
				break
			}
			i++
			part = strings.TrimSpace(lines[i])
		}
		macros[m[1]] = mac
	}
	var expand func(line string, depth int) []string
	expand = func(line string, depth int) []string {
		m := reCall.FindStringSubmatch(strings.TrimSpace(line))
		mac, ok := macros[safeGroup(m, 1)]
		if !ok {
			return []string{line}
		}
		if depth > 8 {
			t.Fatalf("macro %s: nested too deep", m[1])
		}
		var args []string
		if m[2] != "" {
			for _, a := range strings.Split(m[2], ",") {
				args = append(args, strings.TrimSpace(a))
			}
		}
		if len(args) != len(mac.params) {
			t.Fatalf("macro %s: %d arguments, want %d", m[1], len(args), len(mac.params))
		}
		var out []string
		for _, b := range mac.body {
			for k, p := range mac.params {
				b = regexp.MustCompile(`\b`+regexp.QuoteMeta(p)+`\b`).ReplaceAllString(b, args[k])
			}
			out = append(out, expand(b, depth+1)...)
		}
		return out
	}
	refs := map[string][]fpRef{}
	fn := ""
	for _, l := range code {
		if m := reText.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			fn = m[1]
			continue
		}
		if fn == "" {
			continue
		}
		for _, e := range expand(l, 0) {
			for _, m := range reFP.FindAllStringSubmatch(e, -1) {
				off, _ := strconv.Atoi(m[2])
				refs[fn] = append(refs[fn], fpRef{m[1], off})
			}
		}
	}
	return refs
}

func safeGroup(m []string, i int) string {
	if i < len(m) {
		return m[i]
	}
	return ""
}
