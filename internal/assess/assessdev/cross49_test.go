package assessdev

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/postag"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// Round 49 (a49-cross): per-chunk features the rules do not compute, read
// at the sentence level from what the asker sees (the question and the
// chunk's text), for the learned add (learned_table.go) and the veto
// (veto_table.go), measured out of sample. The features are computed here
// (TestCross49Features, cached in CROSS49) and appended to round 47's
// examples when CROSS49 is set (cached47), so every model and chooser of
// rounds 47–48 (TestStumpsLOSO48, TestVetoLOSO48, …) runs on old + new
// features unchanged:
//
//	ASSESSDEV=1 ASSESSDEV_THESAURUS=/usr/share/wordnet CROSS49=/work/scratch/a49-cross/cross.json \
//	  go test -count=1 ./internal/assess/assessdev -run 'TestCross49Features$'
//	ASSESSDEV=1 ASSESSDEV_EXAMPLES=ex.json CROSS49=cross.json go test … -run 'TestCross49AUC$' -v
//
// No feature names a content word or a question: the closed classes below
// (negation, modals, the question frame) and the readings of answertype,
// postag and WordNet are what they read.

// crossFrames are the question frames: how the clause that asks opens.
var crossFrames = []string{"yesno", "how", "howmany", "what", "when", "where", "who", "why", "other"}

// crossCues are the best sentence's cues crossed with the frame.
var crossCues = []string{"modal", "neg", "number", "list", "imperative"}

// crossNames are the new features, in order.
var crossNames = func() []string {
	out := []string{
		"x_best_share", "x_has_verb", "x_verb_best", "x_verbrel_best", "x_verbrel_chunk",
		"x_obj_best", "x_verb_obj_sentence", "x_neg_best", "x_neg_mismatch", "x_modal_best", "x_modal_match",
		"x_typed_near_best", "x_typed_near_any", "x_typed_verb_sentence", "x_best_is_question", "x_next_typed",
		"x_window", "x_best_first",
	}
	for _, f := range crossFrames {
		out = append(out, "x_frame_"+f)
	}
	for _, c := range crossCues {
		out = append(out, "x_cue_"+c)
	}
	for _, f := range crossFrames {
		for _, c := range crossCues {
			out = append(out, "x_"+f+"_"+c)
		}
	}
	return out
}()

var (
	crossNeg    = map[string]bool{"not": true, "no": true, "never": true, "n't": true, "without": true, "cannot": true, "nor": true, "none": true}
	crossModals = map[string]bool{"can": true, "could": true, "may": true, "might": true, "must": true, "should": true, "shall": true, "will": true, "would": true, "cannot": true}
	crossAux    = map[string]bool{"is": true, "are": true, "was": true, "were": true, "am": true, "do": true, "does": true, "did": true, "has": true, "have": true, "had": true}
	crossBe     = map[string]bool{"be": true, "is": true, "are": true, "was": true, "were": true, "am": true, "been": true, "being": true, "do": true, "does": true, "did": true, "have": true, "has": true, "had": true, "get": true, "got": true}
)

// crossWords is text's lower-cased words ("don't" gives "do" and "n't").
func crossWords(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' && r != '.' && r != '-'
	}) {
		f = strings.Trim(strings.ReplaceAll(f, "’", "'"), ".'-")
		if f == "" {
			continue
		}
		if strings.HasSuffix(f, "n't") {
			if f == "can't" {
				out = append(out, "can", "n't")
				continue
			}
			out = append(out, strings.TrimSuffix(f, "n't"), "n't")
			continue
		}
		out = append(out, f)
	}
	return out
}

// crossQuestion is what the features read of a question.
type crossQuestion struct {
	asked          answertype.Question
	frame          int
	neg, modal     bool
	weight         map[string]float64 // content term → weight
	total          float64
	verbs, verbRel map[string]bool // the asked verbs' terms; and their WordNet relatives'
	obj            map[string]bool // the nouns after the verb
}

func crossFrame(question string) int {
	ws := crossWords(answertype.Asking(question))
	if len(ws) == 0 {
		return len(crossFrames) - 1
	}
	w := ws[0]
	switch {
	case w == "how" && len(ws) > 1 && (ws[1] == "many" || ws[1] == "much" || ws[1] == "long" || ws[1] == "often" || ws[1] == "far" || ws[1] == "old" || ws[1] == "big"):
		return 2
	case w == "how":
		return 1
	case w == "what" || w == "which":
		return 3
	case w == "when":
		return 4
	case w == "where":
		return 5
	case w == "who" || w == "whom" || w == "whose":
		return 6
	case w == "why":
		return 7
	case crossAux[w] || crossModals[w]:
		return 0
	}
	return len(crossFrames) - 1
}

func readCrossQuestion(an *terms.Analyzer, th *thesaurus.WordNet, df map[string]int, maxDF int, question string) *crossQuestion {
	q := &crossQuestion{asked: answertype.Classify(question), frame: crossFrame(question), weight: map[string]float64{},
		verbs: map[string]bool{}, verbRel: map[string]bool{}, obj: map[string]bool{}}
	for _, w := range crossWords(question) {
		q.neg = q.neg || crossNeg[w]
		q.modal = q.modal || crossModals[w]
	}
	for _, t := range an.Content(question) {
		w := math.Log(1 + float64(maxDF+1)/float64(df[t]+1))
		q.weight[t] = w
		q.total += w
	}
	verbs, _ := answertype.Verbs(question)
	tagged := postag.Tag(answertype.Asking(question))
	if len(verbs) == 0 {
		for _, w := range tagged {
			lw := strings.ToLower(w.Text)
			if postag.IsVerb(w.Tag) && !crossBe[lw] && !crossModals[lw] {
				verbs = append(verbs, lw)
				break
			}
		}
	}
	for _, v := range verbs {
		for _, t := range an.Terms(v) {
			q.verbs[t] = true
			q.verbRel[t] = true
		}
		if th != nil {
			for _, r := range append(th.Related(v), th.BaseForms(v)...) {
				if !strings.Contains(r, " ") {
					for _, t := range an.Terms(r) {
						q.verbRel[t] = true
					}
				}
			}
		}
	}
	after := len(verbs) == 0
	for _, w := range tagged {
		lw := strings.ToLower(w.Text)
		if slices.Contains(verbs, lw) {
			after = true
			continue
		}
		if after && strings.HasPrefix(w.Tag, "NN") {
			for _, t := range an.Terms(lw) {
				if !q.verbs[t] {
					q.obj[t] = true
				}
			}
		}
	}
	return q
}

// crossSentence is one sentence of a chunk as the features read it.
type crossSentence struct {
	text  string
	words []string
	set   map[string]bool
	share float64
}

// crossChunk computes the features of one chunk's text for q.
func crossChunk(an *terms.Analyzer, q *crossQuestion, text string) []float64 {
	x := make([]float64, len(crossNames))
	if q.total == 0 {
		return x
	}
	var ss []crossSentence
	chunkSet := map[string]bool{}
	for _, s := range citation.Sentences(text) {
		cs := crossSentence{text: s, words: crossWords(s), set: an.Set(s)}
		for t, w := range q.weight {
			if cs.set[t] {
				cs.share += w
			}
		}
		cs.share /= q.total
		for t := range cs.set {
			chunkSet[t] = true
		}
		ss = append(ss, cs)
	}
	if len(ss) == 0 {
		return x
	}
	best := 0
	for i := range ss {
		if ss[i].share > ss[best].share {
			best = i
		}
	}
	b := ss[best]
	anyOf := func(set, of map[string]bool) bool {
		for t := range of {
			if set[t] {
				return true
			}
		}
		return false
	}
	shareOf := func(set, of map[string]bool) float64 {
		if len(of) == 0 {
			return 0
		}
		n := 0
		for t := range of {
			if set[t] {
				n++
			}
		}
		return float64(n) / float64(len(of))
	}
	negIn := func(ws []string) bool { return slices.ContainsFunc(ws, func(w string) bool { return crossNeg[w] }) }
	modalIn := func(ws []string) bool { return slices.ContainsFunc(ws, func(w string) bool { return crossModals[w] }) }
	typed := q.asked.Type != answertype.Description
	// typedNear: an expression of the expected type within 5 words of a
	// question content word in the sentence.
	typedNear := func(s crossSentence) bool {
		if !typed {
			return false
		}
		found := q.asked.Find(s.text)
		if len(found) == 0 {
			return false
		}
		var at []int // positions of the question's content words
		for i, w := range s.words {
			for _, t := range an.Terms(w) {
				if q.weight[t] > 0 {
					at = append(at, i)
					break
				}
			}
		}
		for _, f := range found {
			fw := crossWords(f)
			if len(fw) == 0 {
				continue
			}
			for i := range s.words {
				if s.words[i] != fw[0] {
					continue
				}
				for _, j := range at {
					if j >= i-5 && j <= i+len(fw)+4 && (j < i || j >= i+len(fw)) {
						return true
					}
				}
			}
		}
		return false
	}
	hasVerb := len(q.verbs) > 0
	x[0] = b.share
	x[1] = b01(hasVerb)
	x[2] = b01(anyOf(b.set, q.verbs))
	x[3] = b01(anyOf(b.set, q.verbRel))
	x[4] = b01(anyOf(chunkSet, q.verbRel))
	x[5] = shareOf(b.set, q.obj)
	for _, s := range ss {
		if hasVerb && anyOf(s.set, q.verbRel) && (len(q.obj) == 0 || anyOf(s.set, q.obj)) {
			x[6] = 1
		}
		if typedNear(s) {
			x[12] = 1
		}
		if typed && hasVerb && anyOf(s.set, q.verbRel) && len(q.asked.Find(s.text)) > 0 {
			x[13] = 1
		}
	}
	bneg, bmodal := negIn(b.words), modalIn(b.words)
	x[7] = b01(bneg)
	x[8] = b01(bneg != q.neg)
	x[9] = b01(bmodal)
	x[10] = b01(bmodal && q.modal)
	x[11] = b01(typedNear(b))
	x[14] = b01(strings.HasSuffix(strings.TrimSpace(b.text), "?"))
	if best+1 < len(ss) && typed {
		x[15] = b01(len(q.asked.Find(ss[best+1].text)) > 0)
	}
	// window: the question's content words the best sentence holds over
	// the words from the first of them to the last
	first, last, n := -1, -1, 0
	for i, w := range b.words {
		for _, t := range an.Terms(w) {
			if q.weight[t] > 0 {
				if first < 0 {
					first = i
				}
				last = i
				n++
				break
			}
		}
	}
	if n > 0 {
		x[16] = float64(n) / float64(last-first+1)
	}
	x[17] = b01(best == 0)
	k := 18
	x[k+q.frame] = 1
	k += len(crossFrames)
	number := false
	for i, w := range b.words {
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 || answertype.NumberWord(w) {
			if i+1 < len(b.words) && (answertype.IsUnit(b.words[i+1]) || answertype.MeasureUnit(b.words[i+1])) || strings.ContainsAny(b.text, "$£€%") {
				number = true
			}
		}
	}
	cues := []bool{bmodal, bneg, number, answertype.Enumerates(b.text), answertype.Imperative(b.text)}
	for c, on := range cues {
		x[k+c] = b01(on)
	}
	k += len(crossCues)
	for c, on := range cues {
		x[k+q.frame*len(crossCues)+c] = b01(on)
	}
	return x
}

// crossDefault are the new features appended by default (CROSSONLY=all:
// every one; CROSSONLY=name,…: those): the sentence readings, the frame
// and the cues alone, and each frame crossed with the cue that is its
// answer's form (fixed before any model was fitted on them): a "how"
// question's instruction, a count's number, a "what"'s list, a yes/no
// question's modal and negation. x_best_is_question is left out: no
// chunk sentence of the corpus ends with a question mark (always 0).
var crossDefault = append(slices.DeleteFunc(slices.Clone(crossNames[:18]), func(n string) bool { return n == "x_best_is_question" }),
	"x_frame_yesno", "x_frame_how", "x_frame_howmany", "x_frame_what", "x_frame_when", "x_frame_where", "x_frame_who", "x_frame_why", "x_frame_other",
	"x_cue_modal", "x_cue_neg", "x_cue_number", "x_cue_list", "x_cue_imperative",
	"x_how_imperative", "x_howmany_number", "x_what_list", "x_yesno_modal", "x_yesno_neg")

// crossUsed are the new features crossAugment appended, in order.
var crossUsed []string

// crossCache is the new features per question (set/id) and chunk id.
type crossCache map[string]map[string][]float64

// TestCross49Features computes the new features of every development
// question's first attempt (every retrieved chunk) and caches them in
// CROSS49.
func TestCross49Features(t *testing.T) {
	p := os.Getenv("CROSS49")
	if p == "" {
		t.Skip("set CROSS49")
	}
	_, qs := collect(t)
	var th *thesaurus.WordNet
	if dir := os.Getenv("ASSESSDEV_THESAURUS"); dir != "" {
		var err error
		if th, err = thesaurus.Open(dir); err != nil {
			t.Fatal(err)
		}
	}
	an := terms.New()
	df, maxDF := map[string]int{}, 0
	devCorpus.EachTerm(func(term string, n int) {
		df[term] = n
		maxDF = max(maxDF, n)
	})
	out := crossCache{}
	for _, a := range qs {
		q := readCrossQuestion(an, th, df, maxDF, a.req.Question)
		m := map[string][]float64{}
		for _, e := range a.req.Evidence {
			m[e.ChunkID] = crossChunk(an, q, e.Text)
		}
		out[a.set+"/"+a.id] = m
	}
	data, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d questions", len(out))
}

// crossAugment appends the cached new features (CROSS49) to every
// candidate's (zeros for a chunk without them): crossDefault, or
// CROSSONLY's (all: every one).
func crossAugment(t *testing.T, exs []example) {
	p := os.Getenv("CROSS49")
	if p == "" {
		return
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var c crossCache
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	keep := crossDefault
	if v := os.Getenv("CROSSONLY"); v == "all" {
		keep = crossNames
	} else if v != "" {
		keep = strings.Split(v, ",")
	}
	var at []int
	crossUsed = nil
	for k, n := range crossNames {
		if slices.Contains(keep, n) {
			at = append(at, k)
			crossUsed = append(crossUsed, n)
		}
	}
	missing := 0
	for i := range exs {
		e := &exs[i]
		m := c[e.Set+"/"+e.ID]
		for j := range e.Cands {
			x, ok := m[e.Cands[j].ChunkID]
			if !ok {
				x = make([]float64, len(crossNames))
				missing++
			}
			f := slices.Clone(e.Cands[j].Features)
			for _, k := range at {
				f = append(f, x[k])
			}
			e.Cands[j].Features = f
		}
	}
	if missing > 0 {
		t.Logf("%d candidates without new features", missing)
	}
}

// aucOf is the area under the curve of pos above neg (ties half).
func aucOf(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	pos = slices.Clone(pos)
	sort.Float64s(pos)
	var sum float64
	for _, n := range neg {
		lo := sort.SearchFloat64s(pos, n)
		hi := sort.Search(len(pos), func(i int) bool { return pos[i] > n })
		sum += float64(len(pos)-hi) + 0.5*float64(hi-lo)
	}
	return sum / float64(len(neg)*len(pos))
}

// TestCross49AUC logs each new feature's AUC (direction-free) for the add
// (the add's training rows, gatedRows: a relevant chunk against the
// others; and the add's question-level decision: the chunk v63's table
// would pick, right against no-answer) and for the veto (the accepted
// chunk: right against no-answer), over every set but the validation set;
// then the out-of-fold AUC of the add and veto models with the old
// features and with old + new.
func TestCross49AUC(t *testing.T) {
	if os.Getenv("CROSS49") == "" {
		t.Skip("set CROSS49")
	}
	exs := cached47(t)
	in := func(s string) bool { return s != validation }
	old := len(exs[0].Cands[0].Features) - len(crossUsed)
	rows := gatedRows(exs, in)
	vs := vetoRows(exs, in, true)
	var vpos, vneg [][]float64 // veto: right, no-answer
	for i := range exs {
		e := &exs[i]
		if in(e.Set) && e.V21Doc && e.V21 >= 0 {
			switch {
			case !e.Answerable:
				vneg = append(vneg, e.Cands[e.V21].Features)
			case e.Retrieved:
				vpos = append(vpos, e.Cands[e.V21].Features)
			}
		}
	}
	_ = vs
	col := func(xs [][]float64, k int) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = x[k]
		}
		return out
	}
	var apos, aneg [][]float64
	for _, r := range rows {
		if r.y {
			apos = append(apos, r.x)
		} else {
			aneg = append(aneg, r.x)
		}
	}
	t.Logf("add rows %d relevant / %d not; veto %d right / %d no-answer", len(apos), len(aneg), len(vpos), len(vneg))
	for k, n := range crossUsed {
		a := aucOf(col(apos, old+k), col(aneg, old+k))
		v := aucOf(col(vpos, old+k), col(vneg, old+k))
		t.Logf("feature %-24s add AUC %.3f  veto AUC %.3f  (mean: add rel %.3f not %.3f; veto right %.3f no-answer %.3f)", n,
			max(a, 1-a), max(v, 1-v), mean(col(apos, old+k)), mean(col(aneg, old+k)), mean(col(vpos, old+k)), mean(col(vneg, old+k)))
	}
	// models out of fold: the add (logistic λ 10 on gatedRows; AUC over
	// the rows) and the veto (stumps 200/0.1 on vetoRows), old features
	// (the new ones zeroed) against old + new
	for _, withNew := range []bool{false, true} {
		zero := func(x []float64) []float64 {
			if withNew {
				return x
			}
			x = slices.Clone(x)
			for k := old; k < len(x); k++ {
				x[k] = 0
			}
			return x
		}
		var ap, an_, vp, vn []float64
		for _, held := range trainSets47() {
			tr := func(s string) bool { return s != held && s != validation }
			var rs, vr []row
			for _, r := range gatedRows(exs, tr) {
				rs = append(rs, row{zero(r.x), r.y})
			}
			for _, r := range vetoRows(exs, tr, true) {
				vr = append(vr, row{zero(r.x), r.y})
			}
			m := fit(rs, lambda)
			vm := fitStumps(vr, 200, 16, 0.1, 1)
			for _, r := range gatedRows(exs, func(s string) bool { return s == held }) {
				if p := m.Score(zero(r.x)); r.y {
					ap = append(ap, p)
				} else {
					an_ = append(an_, p)
				}
			}
			for i := range exs {
				e := &exs[i]
				if e.Set == held && e.V21Doc && e.V21 >= 0 {
					p := vm.Score(zero(e.Cands[e.V21].Features))
					switch {
					case !e.Answerable:
						vn = append(vn, p)
					case e.Retrieved:
						vp = append(vp, p)
					}
				}
			}
		}
		t.Logf("new features %v: add (logistic) out of fold AUC %.4f; veto (stumps) out of fold AUC %.4f", withNew, aucOf(ap, an_), aucOf(vp, vn))
	}
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

var _ = fmt.Sprintf

func b01(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// TestCrossChunk pins the sentence readings on a page of two sentences:
// the one holding the asked verb with its object and a number of the
// expected type near the question's words is the best.
func TestCrossChunk(t *testing.T) {
	an := terms.New()
	q := readCrossQuestion(an, nil, map[string]int{}, 10, "How long does it take to descale the kettle?")
	if !q.verbs["descal"] && !q.verbs["descale"] {
		t.Fatalf("asked verbs %v", q.verbs)
	}
	x := crossChunk(an, q, "The kettle is sold in three colours. Descaling the kettle takes 20 minutes.")
	at := func(n string) float64 { return x[slices.Index(crossNames, n)] }
	for _, n := range []string{"x_has_verb", "x_verb_best", "x_verbrel_best", "x_verb_obj_sentence", "x_typed_near_best", "x_frame_howmany"} {
		if at(n) != 1 {
			t.Errorf("%s = %v, want 1 (features %v)", n, at(n), x)
		}
	}
	if at("x_best_first") != 0 || at("x_neg_best") != 0 {
		t.Errorf("best first %v, negation %v: want 0", at("x_best_first"), at("x_neg_best"))
	}
	y := crossChunk(an, q, "The kettle is sold in three colours. Do not descale the kettle.")
	if y[slices.Index(crossNames, "x_neg_best")] != 1 || y[slices.Index(crossNames, "x_typed_near_best")] != 0 {
		t.Errorf("negated page: %v", y)
	}
}
