package assessdev

import (
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/assay-rag/assay/internal/assess"
)

// The gate of the add decision (round 47, a47-gate): GATE lists what
// keeps the model from adding when the rules refuse —
//   - "vis": the visible-chunk check judged the refusal hopeless
//     (Candidate.Hopeless 1–3);
//   - "all": that, or the judgement knew it before the check (1–4);
//   - "ent": the model's top chunk does not name every entity of the
//     question (entity_share below 1);
//   - "entpick": the model picks only among chunks that name every
//     entity.
//
// REFIT=1 fits the add model only on the rows the gate lets through.
var gateSpec = strings.Split(os.Getenv("GATE"), ",")

var refitGated = os.Getenv("REFIT") != ""

func gateOn(name string) bool { return slices.Contains(gateSpec, name) }

// gateBlocks: the gate keeps the model from adding to e at all.
func gateBlocks(e *example) bool {
	if len(e.Cands) == 0 {
		return false
	}
	h := e.Cands[0].Hopeless
	switch {
	case gateOn("vis") && h >= assess.HopelessTogether && h <= assess.HopelessCover:
		return true
	case gateOn("all") && h != 0:
		return true
	}
	return false
}

// covMin (COVMIN): the pick must cover at least this share of the
// question's weight (the rules' coverage feature).
var covMin, _ = strconv.ParseFloat(os.Getenv("COVMIN"), 64)

var coverageAt = slices.Index(assess.FeatureNames(), "coverage")

var entityShare = slices.Index(assess.FeatureNames(), "entity_share")

// entOK: c names every entity of the question (whole, Entity.CoveredBy).
func entOK(c assess.Candidate) bool { return c.Features[entityShare] == 1 }

// pickGated is m's pick on e under the gate (-1 when it blocks).
func pickGated(m *linearModel, e *example) (int, float64) {
	if gateBlocks(e) {
		return -1, 0
	}
	if gateOn("entpick") {
		pick, best := -1, 0.0
		for i, c := range e.Cands {
			if !entOK(c) {
				continue
			}
			if p := m.Score(c.Features); pick < 0 || p > best {
				pick, best = i, p
			}
		}
		return pick, best
	}
	pick, best := m.Pick(e.Cands)
	if gateOn("ent") && pick >= 0 && !entOK(e.Cands[pick]) {
		return -1, 0
	}
	if covMin > 0 && pick >= 0 && e.Cands[pick].Features[coverageAt] < covMin {
		return -1, 0
	}
	return pick, best
}

// rowGated: with REFIT, the training row of e's chunk c is one the gate
// lets through.
func rowGated(e *example, c assess.Candidate) bool {
	if !refitGated {
		return true
	}
	if gateBlocks(e) {
		return false
	}
	return !gateOn("entpick") && !gateOn("ent") || entOK(c)
}

// gatedRows are the training rows of the sets in takes: each chunk of a
// question the rules refuse whose row rowGated lets through.
func gatedRows(exs []example, in func(string) bool) []row {
	var rows []row
	for _, e := range exs {
		if in(e.Set) && !e.V21Doc {
			for i, c := range e.Cands {
				if rowGated(&e, c) {
					rows = append(rows, row{x: c.Features, y: e.Relevant[i]})
				}
			}
		}
	}
	return rows
}
