package assess

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// ruledBuiltin is the default assessor (Ruled on) over ruledCorpus with
// TestRuled's thesaurus.
func ruledBuiltin() *Builtin {
	an := terms.New()
	var texts []string
	for _, e := range ruledCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	b.UseThesaurus(ruleThesaurus{
		fakeThesaurus: fakeThesaurus{"rinse": {"wash"}},
		taxa:          map[string][]thesaurus.Taxon{"bottom": {{Word: "base", Pos: 'n', Sense: 1, Common: true}}},
		parts:         map[string]string{"bottom": "nva", "rinse": "nv", "tap": "nv", "free": "av", "use": "nv", "put": "v", "only": "ar"},
	})
	return b
}

// reRuledReason is Ruled's reason: the title, the thing and the rule.
var reRuledReason = regexp.MustCompile(`^the question asks for a yes/no decision, and (".*") covers \d+% of the weight of its words your documents use and states a rule about (".*"): (".*)$`)

// checkRuledReason: a reason Ruled gives names only what the caller sees,
// the title of a chunk it was given, a word of its question and a
// sentence of the chunk.
func checkRuledReason(t *testing.T, q string, ev []Evidence, res Result) {
	t.Helper()
	if err := res.Assessment.Check(); err != nil {
		t.Errorf("%q: %v", q, err)
	}
	m := reRuledReason.FindStringSubmatch(res.Assessment.Reason)
	if m == nil {
		return
	}
	var title, thing string
	if _, err := fmtSscanQ(m[1], &title); err != nil {
		t.Fatalf("title %s: %v", m[1], err)
	}
	if _, err := fmtSscanQ(m[2], &thing); err != nil {
		t.Fatalf("thing %s: %v", m[2], err)
	}
	found := false
	for _, e := range ev {
		if e.Title == title && len(res.Accepted) == 1 && res.Accepted[0] == e.ChunkID {
			found = true
		}
	}
	if !found {
		t.Errorf("%q: reason names title %q, accepted %v, not a chunk it was given", q, title, res.Accepted)
	}
	if !strings.Contains(strings.ToLower(q), thing) {
		t.Errorf("%q: reason's thing %q is not the question's", q, thing)
	}
}

// FuzzRuled (rv45): Ruled (builtin:coverage-v52) judges any yes/no-ish
// question over any chunk text (first retrieved) without a panic, with a
// valid assessment whose reason names only the caller's question and the
// chunks it was given.
func FuzzRuled(f *testing.F) {
	for _, s := range [][2]string{
		{"Is it OK to rinse the bottom of my X200 under the tap?", ""},
		{"Can I rinse the bottom?", "Never put the base in water. Never. ."},
		{"Is it free?", "free free free"},
		{"Can we fit non-genuine parts on a warranty job?", "Use genuine parts only."},
		{"is the hands-free kit under warranty?", "The hands-free kit clips to the base."},
		{"Can I X200?", "Only."},
		{"can", "must"},
		{"Is ¿ the Ünïcödé bottom — free?", "Nevér put the bottom in water, 日本語."},
		{"Does Hollin pay us a fee for the parts we fit?", "Hollin pays no fee; parts are free of charge."},
		{"Is a warranty", "warranty"},
		{"Can I use it?", strings.Repeat("You can use the bottom. ", 50)},
	} {
		f.Add(s[0], s[1])
	}
	b := ruledBuiltin()
	f.Fuzz(func(t *testing.T, q, text string) {
		ev := append([]Evidence{{ChunkID: "odd#0", Title: "Odd page", Text: text}}, ruledCorpus...)
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			return
		}
		checkRuledReason(t, q, ev, res)
	})
}

// fmtSscanQ reads one Go-quoted string.
func fmtSscanQ(s string, out *string) (int, error) {
	u, err := strconv.Unquote(s)
	*out = u
	return 1, err
}

// TestRuledOddInput (rv45): FuzzRuled's seeds and a very long question
// over a very long chunk, judged twice alike and in bounded time.
func TestRuledOddInput(t *testing.T) {
	b := ruledBuiltin()
	long := strings.Repeat("Is it OK to rinse the bottom of my X200 under the tap, or use the base in water? ", 200)
	longText := strings.Repeat("Never put the motor base in water. You can use genuine Hollin parts only. Collection is free. ", 300)
	for _, c := range [][2]string{{"", ""}, {"?", "."}, {"Can I?", "Never."}, {long, longText}, {"Is ’s free?", "’s free"}, {"Can I rinse the bottom of my X200?", longText}} {
		ev := append([]Evidence{{ChunkID: "odd#0", Title: "Odd page", Text: c[1]}}, ruledCorpus...)
		req := Request{Question: c[0], Query: c[0], K: 5, Evidence: ev, Groups: []string{"public"}}
		start := time.Now()
		a := assessChecked(t, b, req)
		z := assessChecked(t, b, req)
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%.40q: judged twice in %v", c[0], d)
		}
		if a.Assessment.Sufficient != z.Assessment.Sufficient || a.Assessment.Reason != z.Assessment.Reason {
			t.Errorf("%.40q: judged %+v then %+v", c[0], a.Assessment, z.Assessment)
		}
		checkRuledReason(t, c[0], ev, a)
	}
}

// TestOnlyRuleAllocs (rv45): onlyRule, called on every sentence of the
// first chunks no other rule matches, compiles no expression per call.
func TestOnlyRuleAllocs(t *testing.T) {
	b := ruledBuiltin()
	if n := testing.AllocsPerRun(100, func() { b.onlyRule("The X200 has a 1200 W motor and a 2-litre jar.") }); n > 0 {
		t.Errorf("onlyRule of a sentence without only: %v allocations a call, want 0", n)
	}
}
