package guard

import (
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/assay-rag/assay/internal/wire"
)

// Flag is one suspected prompt injection (defined in the wire contract).
type Flag = wire.InjectionFlag

// rule is one injection pattern, matched against normalized text. Every
// match of re contains one of the literals in needs: a text with none of
// them is not run through re, which on a 256-word source costs hundreds
// of microseconds (TestRuleNeeds checks the literals against every
// alternative).
type rule struct {
	id    string
	needs []string
	re    *regexp.Regexp
}

// rules are deliberately narrow: each needs an instruction verb and an
// object that only makes sense addressed to a model, so that "can I
// ignore the E4 error" or "what were the previous warranty terms" pass.
var rules = []rule{
	{"ignore_instructions", []string{"ignore", "disregard", "forget", "override", "bypass"}, regexp.MustCompile(`\b(?:ignore|disregard|forget|override|bypass)(?:\s+(?:all|any|of|the|your|my|previous|prior|above|earlier|preceding|original|system|these|those|following|former|other|developer)){0,4}\s+(?:instructions?|prompts?|rules|guidelines|directions|system message)\b|\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:above|before|previously|you (?:were|have been) told)\b`)},
	{"new_instructions", []string{"instruction", "your "}, regexp.MustCompile(`\b(?:new|updated|real|actual|secret|hidden)\s+(?:system\s+)?instructions?\s*:|\byour (?:new|real) (?:task|instructions?|role) (?:is|are)\b`)},
	{"role_override", []string{"you are ", "from now on", "pretend ", "enter ", "jailbreak"}, regexp.MustCompile(`\byou are (?:now|no longer)\b|\bfrom now on,? you\b|\bpretend (?:to be|you are)\b|\benter (?:developer|dan|god) mode\b|\bjailbreak\b`)},
	{"prompt_exfiltration", []string{"prompt", "instructions", "rules"}, regexp.MustCompile(`\b(?:reveal|show|print|repeat|output|leak|tell me)\b(?:\s+\w+){0,2}?\s+(?:system prompt|(?:your|the) (?:instructions|rules|prompt))\b`)},
	{"answer_override", []string{"instead", "always", "only"}, regexp.MustCompile(`\b(?:instead|always|only)\s*,?\s*(?:say|answer|reply|respond|output)\s+(?:with\s+)?["'“]`)},
	{"delimiter", []string{"<", "inst]", "##", "system", "assistant"}, regexp.MustCompile(`</?\s*sources?\b|<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?inst\]|<</?sys>>|(?m:^\s*#{2,}\s*(?:system|instruction)s?\b)|(?m:^\s*(?:system|assistant)\s*:)`)},
}

// invisible are characters that render as nothing and can split a
// keyword so a pattern misses it ("ig\u200bnore").
var invisible = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "", "\u00ad", "")

// Scan reports suspected prompt injections in text, found by rule after
// folding width and compatibility forms (NFKC), case, invisible
// characters and runs of spaces. where names the text in the flags.
func Scan(where, text string) []Flag {
	s := strings.ToLower(norm.NFKC.String(invisible.Replace(text)))
	s = collapseSpaces(s)
	var out []Flag
	for _, r := range rules {
		if !containsAny(s, r.needs) {
			continue
		}
		if loc := r.re.FindStringIndex(s); loc != nil {
			out = append(out, Flag{Rule: r.id, Where: where, Excerpt: excerpt(s, loc)})
		}
	}
	return out
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
