package answertype

import (
	"strings"
	"unicode"
)

// Scene returns the parts of question that set the scene rather than
// ask, each as question writes it: every clause of a sentence that does
// not ask; in a sentence that asks, the clauses before its first clause
// that asks (see Asking); and in a sentence none of whose clauses opens
// as a question, the words before a question word that opens one inside
// a clause with no punctuation before it ("if I use it every morning how
// often should ..."; see inside). A sentence asks when one of its clauses
// has the form of a question (see Asking), a question opens inside one,
// or it ends with a question mark. Nil when every part of the question
// asks, or none does (a statement, a keyword query, a claim).
func Scene(question string) []string {
	spans := clauseSpans(question)
	if len(spans) == 0 {
		return nil
	}
	var scene []string
	var sentence [][2]int // the clauses of the sentence being read
	asked := false
	flush := func() {
		defer func() { sentence = sentence[:0] }()
		if len(sentence) == 0 {
			return
		}
		first := sentence[0][0] == spans[0][0]
		at := -1
		for i, sp := range sentence {
			if asks(question[sp[0]:sp[1]], first && i == 0) {
				at = i
				break
			}
		}
		if at < 0 {
			// No clause opens as a question: one may open inside one
			// ("x200 flashing E4 and wont start what do i do").
			for i, sp := range sentence {
				if before, ok := inside(question[sp[0]:sp[1]]); ok {
					for _, sp := range sentence[:i] {
						scene = append(scene, question[sp[0]:sp[1]])
					}
					scene = append(scene, before)
					asked = true
					return
				}
			}
		}
		end := question[sentence[len(sentence)-1][0]:sentence[len(sentence)-1][1]]
		if at < 0 && !strings.HasSuffix(strings.TrimSpace(end), "?") {
			for _, sp := range sentence {
				scene = append(scene, question[sp[0]:sp[1]])
			}
			return
		}
		asked = true
		for _, sp := range sentence[:max(at, 0)] {
			scene = append(scene, question[sp[0]:sp[1]])
		}
	}
	for _, sp := range spans {
		sentence = append(sentence, sp)
		if c := strings.TrimSpace(question[sp[0]:sp[1]]); strings.HasSuffix(c, "?") || strings.HasSuffix(c, ".") || strings.HasSuffix(c, "!") {
			flush()
		}
	}
	flush()
	if !asked {
		return nil
	}
	return scene
}

// inside finds a question opening inside clause, after its first word: a
// "how", or another question word followed by an auxiliary ("what do
// i do", "when should it"), that has the form of a question (asks). It
// returns the words before it as clause writes them (its spaces and line
// breaks kept, none after the last word): Builtin.Scene finds the part
// in the question by its text.
func inside(clause string) (string, bool) {
	fields := strings.Fields(clause)
	at := 0 // the byte where fields[i] starts in clause
	for i := 1; i < len(fields); i++ {
		at += strings.Index(clause[at:], fields[i-1]) + len(fields[i-1])
		at += strings.Index(clause[at:], fields[i])
		w := words(fields[i])
		if len(w) != 1 || !whWords[w[0]] {
			continue
		}
		rest := strings.Join(fields[i:], " ")
		ws := contracted(words(rest))
		if (w[0] == "how" || len(ws) > 1 && auxiliaries[ws[1]]) && asks(rest, false) {
			return strings.TrimRightFunc(clause[:at], unicode.IsSpace), true
		}
	}
	return "", false
}

// subordinators open an adverbial clause of condition, cause or
// concession: the asker's situation ("if I use it every morning",
// "because our water is really hard"), under which the rest is asked. A
// clause of time ("once pairing has finished", "before the move") is
// not one of them: it fixes when the asked value holds, and the answer
// may differ before and after.
var subordinators = set("if", "unless", "because", "though", "although")

// Circumstances returns the adverbial clauses of condition, cause or
// concession inside the parts of question that ask (see Scene for the
// parts that do not), each as question writes it: in a clause, from a
// subordinator (subordinators) that is not the clause's first word to
// the clause's end ("how often should the blades be changed if I use it
// every morning": "if I use it every morning"), when what follows it is
// a clause (finite).
// A subordinator after a question word or a conjunction ("..., and if
// so"), one that opens a question, and one whose clause runs on to a
// question ("if I ask for it to be wiped how long does that take") are
// not read as one. Nil when no part of
// question asks (a statement, a keyword query) or none holds such a
// clause.
func Circumstances(question string) []string {
	text, _ := asking(question)
	if strings.TrimSpace(text) == "" || len(Scene(question)) == 0 && !askedWhole(question) {
		return nil
	}
	var out []string
	for _, sp := range clauseSpans(text) {
		clause := text[sp[0]:sp[1]]
		fields := strings.Fields(clause)
		at := 0 // the byte where fields[i] starts in clause
		for i := 0; i < len(fields); i++ {
			at += strings.Index(clause[at:], fields[i])
			w := words(fields[i])
			if i == 0 || len(w) != 1 || !subordinators[w[0]] {
				at += len(fields[i])
				continue
			}
			prev := words(fields[i-1])
			rest := clause[at:]
			if len(prev) == 1 && (whWords[prev[0]] || conjunctions[prev[0]] || prev[0] == "long" || prev[0] == "soon") ||
				asks(rest, false) || insideAsks(rest) || !finite(words(rest)[1:]) {
				break
			}
			out = append(out, strings.TrimRightFunc(strings.TrimRight(strings.TrimSpace(rest), "?.!"), unicode.IsSpace))
			break
		}
	}
	return out
}

// askedWhole reports whether question is asked: some clause of it has
// the form of a question or it ends with a question mark (Scene is nil
// both when every part asks and when none does).
func askedWhole(question string) bool {
	if strings.HasSuffix(strings.TrimSpace(question), "?") {
		return true
	}
	for i, sp := range clauseSpans(question) {
		if asks(question[sp[0]:sp[1]], i == 0) {
			return true
		}
	}
	return false
}

// insideAsks reports whether a question opens inside clause after its
// first word (see inside).
func insideAsks(clause string) bool {
	_, ok := inside(clause)
	return ok
}

// pronounSubjects are the personal pronouns that are a clause's subject.
var pronounSubjects = set("i", "we", "you", "they", "it", "he", "she")

// finite reports whether ws, the words after a subordinator, are a
// clause rather than a phrase ("once the move is done", "if I use it",
// "while it's open", not "before the move", "after three years"): one
// of them is a subject pronoun, alone or contracted ("it's", "they've"),
// or an auxiliary.
func finite(ws []string) bool {
	for _, w := range ws {
		if i := strings.IndexByte(w, '\''); i > 0 {
			w = w[:i]
		}
		if pronounSubjects[w] || auxiliaries[w] {
			return true
		}
	}
	return false
}
