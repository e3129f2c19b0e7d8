package assessdev

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
)

// ablation is one of the default assessor's switches turned off: the
// model that turned it on (round), and off, which sets it as the model
// before did (a boolean false, a bit or an int switch 0, a threshold its
// earlier value).
type ablation struct {
	name, model string
	off         func(b *assess.Builtin)
}

// ablations are the default assessor's switches (internal/assess's
// namedModels, newest first) and the guard bits of its int switches, each
// to be turned off alone. The bits are assess's unexported constants
// (alone.go, codeterm.go, rival.go, places.go) and Agree's guard digits
// (agree.go), written out. TestAblationsCover checks that it names every
// switch.
var ablations = []ablation{
	{"veto", "v65", func(b *assess.Builtin) { b.Veto = false }},
	{"status", "v68", func(b *assess.Builtin) { b.Status = false }},
	{"learnedcover", "v63", func(b *assess.Builtin) { b.LearnedCover = false }},
	{"learned", "v62", func(b *assess.Builtin) { b.Learned = false }},
	{"review", "v61", func(b *assess.Builtin) { b.Review = 0 }},
	{"opposite", "v60", func(b *assess.Builtin) { b.Opposite = false }},
	{"counts", "v59", func(b *assess.Builtin) { b.Counts = 0 }},
	{"every", "v58", func(b *assess.Builtin) { b.Every = false }},
	{"timed", "v58", func(b *assess.Builtin) { b.Timed = false }},
	{"follow", "v57", func(b *assess.Builtin) { b.Follow = false }},
	{"covered", "v56", func(b *assess.Builtin) { b.Covered = false }},
	{"listedclause", "v55", func(b *assess.Builtin) { b.ListedClause = false }},
	{"situated", "v54", func(b *assess.Builtin) { b.Situated = false }},
	{"measured", "v53", func(b *assess.Builtin) { b.Measured = false }},
	{"ruled", "v52", func(b *assess.Builtin) { b.Ruled = false }},
	{"parts", "v51", func(b *assess.Builtin) { b.Parts = false }},
	{"rates", "v50", func(b *assess.Builtin) { b.Rates = false }},
	{"matter", "v49", func(b *assess.Builtin) { b.Matter = false }},
	{"places", "v48", func(b *assess.Builtin) { b.Places = 0 }},
	{"places-named", "v48", func(b *assess.Builtin) { b.Places &^= 1 }},
	{"places-general", "v48", func(b *assess.Builtin) { b.Places &^= 2 }},
	{"listed", "v47", func(b *assess.Builtin) { b.Listed = false }},
	{"measure", "v47", func(b *assess.Builtin) { b.SidesMeasure = false }},
	{"sides", "v47", func(b *assess.Builtin) { b.Sides = false }},
	{"agree", "v45", func(b *assess.Builtin) { b.Agree = 0 }},
	{"agree-asked", "v45", func(b *assess.Builtin) { b.Agree -= b.Agree / 100000 % 10 * 100000 }},
	{"agree-key", "v45", func(b *assess.Builtin) { b.Agree -= b.Agree / 10000 % 10 * 10000 }},
	{"classfree", "v44", func(b *assess.Builtin) { b.ClassFree = false }},
	{"rival", "v43", func(b *assess.Builtin) { b.Rival = 0 }},
	{"rival-margin", "v43", func(b *assess.Builtin) { b.Rival &^= 64 }},
	{"rival-own", "v43", func(b *assess.Builtin) { b.Rival &^= 32 }},
	{"rival-whole", "v43", func(b *assess.Builtin) { b.Rival &^= 16 }},
	{"merged", "v42", func(b *assess.Builtin) { b.ExpandMerge = 0 }},
	{"gate", "v41", func(b *assess.Builtin) { b.Gate = false }},
	{"alone", "v40", func(b *assess.Builtin) { b.Alone = 0 }},
	{"alone-whole", "v40", func(b *assess.Builtin) { b.Alone &^= 16 }},
	{"alone-key", "v40", func(b *assess.Builtin) { b.Alone &^= 32 }},
	{"alone-known", "v40", func(b *assess.Builtin) { b.Alone &^= 64 }},
	{"alone-own", "v40", func(b *assess.Builtin) { b.Alone &^= 128 }},
	{"alone-named", "v40", func(b *assess.Builtin) { b.Alone &^= 256 }},
	{"codeterm", "v38", func(b *assess.Builtin) { b.CodeTerm = 0 }},
	{"codeterm-only", "v38", func(b *assess.Builtin) { b.CodeTerm &^= 2 }},
	{"codeterm-word", "v38", func(b *assess.Builtin) { b.CodeTerm &^= 4 }},
	{"codeterm-new", "v38", func(b *assess.Builtin) { b.CodeTerm &^= 8 }},
	{"tagged", "v37", func(b *assess.Builtin) { b.Tagged = false }},
	{"kind", "v36", func(b *assess.Builtin) { b.Kind = false }},
	{"frame", "v35", func(b *assess.Builtin) { b.Frame = false }},
	{"act", "v34", func(b *assess.Builtin) { b.Act = false }},
	{"genus", "v33", func(b *assess.Builtin) { b.Genus = false }},
	{"spelled", "v33", func(b *assess.Builtin) { b.Spelled = false }},
	{"compound", "v33", func(b *assess.Builtin) { b.Compound = false }},
	{"defined", "v32", func(b *assess.Builtin) { b.Defined = false }},
	{"payer", "v31", func(b *assess.Builtin) { b.Payer = false }},
	{"samekind", "v31", func(b *assess.Builtin) { b.SameKind = false }},
	{"elsewhere", "v30", func(b *assess.Builtin) { b.Elsewhere = false }},
	{"streetaddress", "v30", func(b *assess.Builtin) { b.StreetAddress = false }},
	{"periodof", "v29", func(b *assess.Builtin) { b.PeriodOf = false }},
	{"general", "v28", func(b *assess.Builtin) { b.General = false }},
	{"bound", "v28", func(b *assess.Builtin) { b.Bound = false }},
	{"class", "v27", func(b *assess.Builtin) { b.Class = false }},
	{"valued", "v26", func(b *assess.Builtin) { b.Valued = false }},
	{"alike", "v25", func(b *assess.Builtin) { b.Alike = false }},
	{"hyp", "v24", func(b *assess.Builtin) { b.Hyp = false }},
	{"kin", "v23", func(b *assess.Builtin) { b.Kin = false }},
	{"states", "v22", func(b *assess.Builtin) { b.States = false }},
	{"scene", "v21", func(b *assess.Builtin) { b.Scene = false }},
	{"named", "v20", func(b *assess.Builtin) { b.Named = false }},
	{"asked", "v19", func(b *assess.Builtin) { b.Asked = false }},
	{"ownorder", "v18", func(b *assess.Builtin) { b.OwnOrder = false }},
	{"joint", "v17", func(b *assess.Builtin) { b.Joint = false }},
	{"sized", "v17", func(b *assess.Builtin) { b.Sized = false }},
	{"related", "v16", func(b *assess.Builtin) { b.Related = false }},
	{"calendar", "v14", func(b *assess.Builtin) { b.Calendar = false }},
	{"shaped", "v14", func(b *assess.Builtin) { b.Shaped = false }},
	{"whenclause", "v14", func(b *assess.Builtin) { b.WhenClause = false }},
	{"plainabbrev", "v14", func(b *assess.Builtin) { b.PlainAbbrev = false }},
	{"hedges", "v14", func(b *assess.Builtin) { b.Hedges = false }},
	{"plain", "v13", func(b *assess.Builtin) { b.Plain = false }},
	{"plainmonths", "v13", func(b *assess.Builtin) { b.PlainMonths = false }},
	{"focusgeneric", "v13", func(b *assess.Builtin) { b.FocusGeneric = 0 }},
	{"counted", "v13", func(b *assess.Builtin) { b.Counted = false }},
	{"stated", "v13", func(b *assess.Builtin) { b.Stated = false }},
	{"sentence", "v12", func(b *assess.Builtin) { b.Sentence = false }},
	{"dimensions", "v12", func(b *assess.Builtin) { b.Dimensions = false }},
	{"topical", "v12", func(b *assess.Builtin) { b.Topical = false }},
	{"read", "v10", func(b *assess.Builtin) { b.Read = false }},
	{"answers", "v9", func(b *assess.Builtin) { b.Answers = false }},
	{"focus", "v8", func(b *assess.Builtin) { b.Focus = false }},
}

// together are TestAblate's configurations with several switches off at
// once: every switch a model from v33 on turned on, and from v25 on.
func together() []ablation {
	return []ablation{{"since-v33", "v33–v49", offSince(33)}, {"since-v25", "v25–v49", offSince(25)}}
}

// offSince turns off together every switch of ablations (not a guard bit
// alone) that a model from builtin:coverage-vN on turned on.
func offSince(n int) func(b *assess.Builtin) {
	return func(b *assess.Builtin) {
		for _, ab := range ablations {
			var v int
			if _, err := fmt.Sscanf(ab.model, "v%d", &v); err == nil && v >= n && !strings.Contains(ab.name, "-") && len(ab.model) <= 3 {
				ab.off(b)
			}
		}
	}
}

// ablationGroups are the groups TestAblate totals: the design sets, the
// confirm sets (fresh14 up to the set before the validation set), and the
// two newest development sets (the last confirm set and the validation
// set: never designed on).
func ablationGroups() []struct {
	name string
	sets []string
} {
	design := designSets()
	confirm := slices.DeleteFunc(slices.Clone(sets[slices.Index(sets, "fresh14"):]), func(s string) bool { return s == validation })
	return []struct {
		name string
		sets []string
	}{{"design", design}, {"confirm", confirm}, {"newest", []string{confirm[len(confirm)-1], validation}}}
}

// TestAblate (round 40, a40-audit) replays the loop (judgeLoop; the first
// attempt alone with ABLATE_WAY=first) over every development set with
// the default assessor and with each of its switches (ablations) turned
// off alone, and logs, for the design sets, the confirm sets and the two
// newest sets, the questions accepted on a relevant chunk (the first
// accepted chunk's document is relevant), "right" (accepted with a
// relevant document among the hits: the harness's right) and no-answer
// questions refused, with each switch's change against the default. With a
// thesaurus the searches are the worker's with loop.expand (expandedFound:
// the query as sent, with at most ExpandMerge chunks only the expanded
// query found below its hits), as the end-to-end evaluation runs them;
// without one every search runs as typed. ABLATE (comma separated names)
// picks the switches; ABLATE_OUT receives one tab-separated line per
// configuration (the default first). It measures; it fails only when
// an ablation leaves the model id the default's (it turns nothing off) or
// the default is not restored after it.
func TestAblate(t *testing.T) {
	b, qs := collect(t)
	all := sets
	keep := *b
	t.Cleanup(func() { sets = all; *b = keep; expandSearch = nil })
	judgeWay := judgeLoop
	if os.Getenv("ABLATE_WAY") == "first" {
		judgeWay = judge
	}
	picked := pickAblations(t, b, os.Getenv("ABLATE"))
	expanding := b.Thesaurus != nil
	if expanding {
		b.ExpandedSearch = true
		expandSearch = func(t *testing.T, req retrieval.Request) devsets.Found { return expandedFound(t, b, req) }
	}
	firsts := func() []asked {
		if !expanding {
			return qs
		}
		return expandedFirst(t, b, qs)
	}
	baseQs := firsts()
	groups := ablationGroups()
	sum := func(res map[string]*score, names []string) score {
		var s score
		for _, n := range names {
			if r := res[n]; r != nil {
				s.add(r)
			}
		}
		return s
	}
	var out []string
	row := func(name, model string, res map[string]*score, took time.Duration) []score {
		var cols []string
		var scs []score
		for _, g := range groups {
			s := sum(res, g.sets)
			scs = append(scs, s)
			cols = append(cols, fmt.Sprintf("%d\t%d\t%d\t%d\t%d\t%d", s.on, s.right, s.answerable, s.refused, s.noAnswer, s.accepted))
		}
		out = append(out, fmt.Sprintf("%s\t%s\t%s\t%.0f", name, model, strings.Join(cols, "\t"), took.Seconds()))
		return scs
	}
	start := time.Now()
	base, _ := judgeWay(t, b, baseQs)
	took := time.Since(start)
	baseScs := row("default", b.Model(), base, took)
	for _, s := range sets {
		t.Logf("default %-8s %s", s, base[s])
	}
	for i, g := range groups {
		t.Logf("default %-7s %s (%s)", g.name, baseScs[i], took.Round(time.Second))
	}
	for _, ab := range picked {
		ab.off(b)
		q := baseQs
		if expanding && b.ExpandMerge != keep.ExpandMerge {
			q = firsts() // the first searches merge no more (merged, and the together rows)
		}
		start := time.Now()
		res, _ := judgeWay(t, b, q)
		took := time.Since(start)
		model := b.Model()
		*b = keep
		if expanding {
			b.ExpandedSearch = true
		}
		scs := row(ab.name, ab.model, res, took)
		var d []string
		for i, g := range groups {
			d = append(d, fmt.Sprintf("%s on %+d right %+d refused %+d", g.name, scs[i].on-baseScs[i].on, scs[i].right-baseScs[i].right, scs[i].refused-baseScs[i].refused))
		}
		t.Logf("off %-14s (%s, %s, %s): %s", ab.name, ab.model, model, took.Round(time.Second), strings.Join(d, " | "))
	}
	if p := os.Getenv("ABLATE_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pickAblations is ablations and together, or those named in names
// (comma separated), each checked before anything is judged: turned off
// on b, its model id must differ from the default's, and restored, b's
// must be the default's again.
func pickAblations(t *testing.T, b *assess.Builtin, names string) []ablation {
	t.Helper()
	pick := map[string]bool{}
	for _, n := range strings.Split(names, ",") {
		if n = strings.TrimSpace(n); n != "" {
			pick[n] = true
		}
	}
	keep, base := *b, b.Model()
	var out []ablation
	for _, ab := range append(slices.Clone(ablations), together()...) {
		if len(pick) > 0 && !pick[ab.name] {
			continue
		}
		ab.off(b)
		model := b.Model()
		*b = keep
		if model == base || b.Model() != base {
			t.Fatalf("%s off: model %s, then %s restored, default %s: an ablation must turn something off and leave the default as it was", ab.name, model, b.Model(), base)
		}
		out = append(out, ab)
	}
	return out
}
