package guard

import (
	"regexp"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/text/unicode/norm"

	"github.com/assay-rag/assay/internal/wire"
)

// Flag is one suspected prompt injection (defined in the wire contract).
type Flag = wire.InjectionFlag

// rule is one injection pattern, matched against normalized text. Every
// match of re contains one of the literals in needs: a text with none of
// them is not run through re, which on a 256-word source costs hundreds
// of microseconds (TestRuleNeeds checks the literals against every
// alternative). When gate is set, every match also makes gate true, so a
// text it rejects is not run through re either: for the rules whose
// literals are common words or signs of ordinary text ("only", "<",
// "system"), which let a fifth of a scientific corpus's chunks through
// to re and never matched (TestRuleGates).
type rule struct {
	id    string
	needs []string
	gate  func(s string) bool
	re    *regexp.Regexp
}

// rules are deliberately narrow: each needs an instruction verb and an
// object that only makes sense addressed to a model, so that "can I
// ignore the E4 error" or "what were the previous warranty terms" pass.
var rules = []rule{
	{"ignore_instructions", []string{"ignore", "disregard", "forget", "override", "bypass"}, nil, regexp.MustCompile(`\b(?:ignore|disregard|forget|override|bypass)(?:\s+(?:all|any|of|the|your|my|previous|prior|above|earlier|preceding|original|system|these|those|following|former|other|developer)){0,4}\s+(?:instructions?|prompts?|rules|guidelines|directions|system message)\b|\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:above|before|previously|you (?:were|have been) told)\b`)},
	{"new_instructions", []string{"instruction", "your "}, nil, regexp.MustCompile(`\b(?:new|updated|real|actual|secret|hidden)\s+(?:system\s+)?instructions?\s*:|\byour (?:new|real) (?:task|instructions?|role) (?:is|are)\b`)},
	{"role_override", []string{"you are ", "from now on", "pretend ", "enter ", "jailbreak"}, nil, regexp.MustCompile(`\byou are (?:now|no longer)\b|\bfrom now on,? you\b|\bpretend (?:to be|you are)\b|\benter (?:developer|dan|god) mode\b|\bjailbreak\b`)},
	{"prompt_exfiltration", []string{"prompt", "instructions", "rules"}, nil, regexp.MustCompile(`\b(?:reveal|show|print|repeat|output|leak|tell me)\b(?:\s+\w+){0,2}?\s+(?:system prompt|(?:your|the) (?:instructions|rules|prompt))\b`)},
	{"answer_override", []string{"instead", "always", "only"}, answerGate, regexp.MustCompile(`\b(?:instead|always|only)\s*,?\s*(?:say|answer|reply|respond|output)\s+(?:with\s+)?["'“]`)},
	{"delimiter", []string{"<", "inst]", "##", "system", "assistant"}, delimiterGate, regexp.MustCompile(`</?\s*sources?\b|<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?inst\]|<</?sys>>|(?m:^\s*#{2,}\s*(?:system|instruction)s?\b)|(?m:^\s*(?:system|assistant)\s*:)`)},
}

// invisible are characters that render as nothing and can split a
// keyword so a pattern misses it ("ig\u200bnore").
var invisible = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "", "\u00ad", "")

// Scan reports suspected prompt injections in text, found by rule after
// folding width and compatibility forms (NFKC), case, invisible
// characters and runs of spaces. where names the text in the flags.
//
// The flags depend on text alone, and the same chunk is scanned twice a
// question (by the Assess activity, then by the generator's grounding
// check, each on title + "\n" + text): the rules' findings for recent
// texts are kept (scanned), and a text scanned again costs a lookup.
func Scan(where, text string) []Flag {
	found, ok := scanned.get(text)
	if !ok {
		found = scan(text)
		scanned.put(text, found)
	}
	return located(found, where)
}

// located is a copy of found with where as every flag's Where (nil when
// there are none, as a fresh scan gives).
func located(found []Flag, where string) []Flag {
	if len(found) == 0 {
		return nil
	}
	out := make([]Flag, len(found))
	for i, f := range found {
		f.Where = where
		out[i] = f
	}
	return out
}

// scan is Scan's findings for text, Where left empty.
func scan(text string) []Flag {
	s := strings.ToLower(norm.NFKC.String(invisible.Replace(text)))
	s = collapseSpaces(s)
	var out []Flag
	for _, r := range rules {
		if !containsAny(s, r.needs) || r.gate != nil && !r.gate(s) {
			continue
		}
		if loc := r.re.FindStringIndex(s); loc != nil {
			out = append(out, Flag{Rule: r.id, Excerpt: excerpt(s, loc)})
		}
	}
	return out
}

// scanMemo keeps scan's findings for the texts scanned last. Its
// entries are never changed after put (Scan copies them), so they are
// shared between goroutines safely.
type scanMemo struct {
	kept *lru.Cache[string, []Flag]
}

// maxScanned bounds the texts scanMemo keeps: a question's chunks are
// scanned again within seconds, so a few questions in flight's chunks
// (tens each) fit many times over.
const maxScanned = 1024

// maxScannedText is the longest text scanMemo keeps (chunks are far
// shorter), so the memo holds at most maxScanned × maxScannedText bytes
// of keys.
const maxScannedText = 16 << 10

var scanned = newScanMemo(maxScanned)

func newScanMemo(n int) *scanMemo {
	kept, err := lru.New[string, []Flag](n)
	if err != nil {
		panic(err) // n is a positive constant
	}
	return &scanMemo{kept: kept}
}

func (m *scanMemo) get(text string) ([]Flag, bool) {
	if len(text) > maxScannedText {
		return nil, false
	}
	return m.kept.Get(text)
}

func (m *scanMemo) put(text string, found []Flag) {
	if len(text) > maxScannedText {
		return
	}
	m.kept.Add(text, found)
}

// collapseSpaces replaces every run of spaces and tabs in s with one
// space: regexp `[ \t]+` → " ", a byte loop (the regexp was a quarter of
// Scan's time; TestCollapseSpaces), and s itself when nothing changes.
func collapseSpaces(s string) string {
	i := 0
	for ; i < len(s); i++ {
		if s[i] == '\t' || s[i] == ' ' && i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t') {
			break
		}
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, i, len(s))
	copy(b, s[:i])
	for i < len(s) {
		if c := s[i]; c != ' ' && c != '\t' {
			b = append(b, c)
			i++
			continue
		}
		b = append(b, ' ')
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	return string(b)
}

// spaces are the characters regexp's \s matches.
const spaces = " \t\n\f\r"

// answerGate holds for every match of answer_override's pattern: one of
// its three words, then spaces and commas only, then one of its five
// verbs.
func answerGate(s string) bool {
	return followedBy(s, []string{"instead", "always", "only"}, spaces+",", []string{"say", "answer", "reply", "respond", "output"})
}

// delimiterGate holds for every match of delimiter's pattern, alternative
// by alternative: "<" then slashes and spaces then "source"; "<|";
// "inst]"; "<<"; "##"; "system" or "assistant" then spaces then ":".
func delimiterGate(s string) bool {
	return strings.Contains(s, "<|") || strings.Contains(s, "inst]") || strings.Contains(s, "<<") || strings.Contains(s, "##") ||
		followedBy(s, []string{"<"}, spaces+"/", []string{"source"}) ||
		followedBy(s, []string{"system", "assistant"}, spaces, []string{":"})
}

// followedBy reports whether some occurrence in s of one of words is
// followed, after a run (possibly empty) of bytes from skip, by one of
// next.
func followedBy(s string, words []string, skip string, next []string) bool {
	for _, w := range words {
		for i := 0; ; {
			j := strings.Index(s[i:], w)
			if j < 0 {
				break
			}
			i += j + len(w)
			k := i
			for k < len(s) && strings.IndexByte(skip, s[k]) >= 0 {
				k++
			}
			for _, n := range next {
				if strings.HasPrefix(s[k:], n) {
					return true
				}
			}
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func excerpt(s string, loc []int) string {
	m := []rune(strings.TrimSpace(s[loc[0]:loc[1]]))
	if len(m) > 80 {
		return string(m[:80]) + "…"
	}
	return string(m)
}
