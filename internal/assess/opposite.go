package assess

import (
	"regexp"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
)

// Opposite (builtin:coverage-v60, round 46 a46-noans): a question that states the cover
// condition it asks under ("my blender's out of warranty", "long past its
// guarantee", "still under warranty") is not answered by a passage whose
// sentences about the question's matter state the opposite condition
// ("Collection by courier is free for appliances under warranty") while
// the passage's sentences of the asked condition say nothing of it
// ("Out-of-warranty repairs carry a £25 inspection fee"): the value of the
// asked kind the opposite sentence holds ("free") is for another case.
// Such an acceptance is refused.
// V59Model names the builtin assessor without Builtin.Opposite:
// builtin:coverage-v59 (round 46, docs/log/round-46-a46-wrong.md).
const V59Model = "builtin:coverage-v59"

// V60Model is builtin:coverage-v60: v61 without Learned (learned.go).
const V60Model = "builtin:coverage-v60"

var (
	reOutOfCover = regexp.MustCompile(`(?i)\b(?:out[ -]of|outside(?: of)?|past|beyond|no longer (?:under|in|covered by)|expired)[ -](?:(?:the|its|my|your|their|his|her|a) )?(?:\w+ )?(?:warranty|guarantee|warrenty|guarentee)\b`)
	reInCover    = regexp.MustCompile(`(?i)\b(?:under|in|within)[ -](?:(?:the|its|my|your|their|his|her|a) )?(?:\w+ )?(?:warranty|guarantee|warrenty|guarentee)\b`)
	reOppWord    = regexp.MustCompile(`[A-Za-z][A-Za-z'-]*`)
	reOppSplit   = regexp.MustCompile(`[.!?;]\s+`)
)

// oppositeStop are words no sentence is about.
var oppositeStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for from with within under out outside past beyond no longer
		is are was were be been being do does did have has had will would can could should may might must shall
		i me my mine we us our you your he she it its they them their his her this that these those there here
		what which who whom how when where why whose much many any some all every each
		not never yes still even just only also so than then too very long
		warranty guarantee warrenty guarentee cover covered expired appliance appliances hollin get got`) {
		oppositeStop[w] = true
	}
}

// oppStem is w lower-cased with a plural or verb ending dropped, to five
// letters at most ("repairs", "repair" → "repai"; "collect",
// "collection" → "colle").
func oppStem(w string) string {
	w = strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"))
	if len(w) > 5 {
		w = w[:5]
	}
	return w
}

func oppWords(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range reOppWord.FindAllString(s, -1) {
		for _, p := range strings.Split(w, "-") {
			if p == "" || oppositeStop[strings.ToLower(p)] || len(p) < 3 {
				continue
			}
			m[oppStem(p)] = true
		}
	}
	return m
}

// opposite returns the refusal reason when res accepts a chunk whose
// sentences sharing the question's words name only the cover condition
// opposite to the one the question states.
func opposite(question string, req Request, res Result) (string, bool) {
	if !res.Assessment.Sufficient || len(res.Accepted) == 0 {
		return "", false
	}
	qOut, qIn := reOutOfCover.FindString(question), reInCover.FindString(question)
	if (qOut == "") == (qIn == "") {
		return "", false
	}
	var text string
	for _, e := range req.Evidence {
		if e.ChunkID == res.Accepted[0] {
			text = e.Text
		}
	}
	q := oppWords(reInCover.ReplaceAllString(reOutOfCover.ReplaceAllString(question, " "), " "))
	shares := func(s string) bool {
		for w := range oppWords(s) {
			if q[w] {
				return true
			}
		}
		return false
	}
	typed := answertype.Classify(question)
	same, other := false, ""
	for _, s := range reOppSplit.Split(text, -1) {
		out, in := reOutOfCover.FindString(s), reInCover.FindString(s)
		if out != "" && in != "" {
			return "", false
		}
		asked, opp := in, out
		if qOut != "" {
			asked, opp = out, in
		}
		switch {
		case asked != "" && shares(s):
			same = true
		case opp != "" && shares(s) && len(typed.Find(s)) > 0:
			other = opp // a value of the asked kind, for the other case
		}
	}
	if same || other == "" {
		return "", false
	}
	return "the question asks about an appliance " + qOut + qIn + ", and the best source states it only for one " + other, true
}
