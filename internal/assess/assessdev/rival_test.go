package assessdev

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestRival (round 39, a39-acc) replays builtin:coverage-v43's Rival
// against v42 (Rival 0) for each value of RIVAL (default 4, 20, 52: rank
// 4, then with rivalWhole, then with rivalOwn too): on the design sets
// per question and set, on the other development sets but the validation set in
// total unless DESIGN_ONLY is set, both ways. The first attempt is
// searched as sent (no expansion). What it moves is "accepted on a
// relevant chunk" (which page the answer rests on); it fails if a
// value refuses fewer no-answer questions in a set.
//
// Each total names the class-noun searches (Naming: one search each on
// RediSearch) the judgements made and how long the replay took.
func TestRival(t *testing.T) {
	b, qs := collect(t)
	all := sets
	keep := b.Rival
	t.Cleanup(func() { sets = all; b.Rival = keep })
	design, other := designAndOther(qs)
	for part := range parts(all, design, other) {
		for _, way := range ways {
			b.Rival = 0
			namingSearches = 0
			start := time.Now()
			base, baseLines := way.judge(t, b, part.qs)
			total := fmt.Sprintf("v42 %s (%d naming searches, %s)", training(base, ""), namingSearches, time.Since(start).Round(time.Millisecond))
			for _, n := range envInts("RIVAL", 4, 20, 52) {
				b.Rival = n
				namingSearches = 0
				start := time.Now()
				sc, lines := way.judge(t, b, part.qs)
				took := time.Since(start).Round(time.Millisecond)
				name := fmt.Sprintf("rival%d", n)
				if part.lines {
					logChanges(t, way.name+": "+name+" (against v42)", lines, baseLines)
					logMoved(t, way.name+": "+name+" (against v42)", lines, baseLines)
					for _, s := range sets {
						t.Logf("%s %-8s v42 %s | %s %s", way.name, s, base[s], name, sc[s])
					}
				}
				refusesNoFewer(t, way.name, "v42", name, base, sc)
				total += fmt.Sprintf(" | %s %s (%d naming searches, %s)", name, training(sc, ""), namingSearches, took)
			}
			b.Rival = keep
			t.Logf("%s %s total: %s", part.name, way.name, total)
		}
	}
}

// logMoved logs each question whose accepted chunk's document differs
// (the verdict lines' "accepted on"), with its base line's.
func logMoved(t *testing.T, what string, lines, base []string) {
	t.Helper()
	on := func(l string) string {
		for _, p := range strings.Split(l, "\n") {
			if strings.HasPrefix(strings.TrimSpace(p), "accepted on:") {
				return p
			}
		}
		return ""
	}
	for i := range lines {
		if on(lines[i]) != on(base[i]) {
			t.Logf("%s moves %s |  was %s, %s", what, strings.ReplaceAll(lines[i], "\n", " |"), strings.TrimSpace(on(base[i])), strings.TrimSpace(strings.SplitN(base[i], "reason:", 2)[1]))
		}
	}
}
