package generate

import (
	"maps"
	"slices"
)

// openInfo is one source's opening sentence as the generator reads it
// (a reading aid for round 49's a49-gen).
type openInfo struct {
	Doc     string
	Text    string
	KScore  float64
	Raw     float64
	Own     []string
	KOwn    []string
	Typed   bool
	TitleQ  []string
	Bearing float64
	Asking  []string
}

func openings(g *Extractive, req Request) (string, []openInfo) {
	asked, content, all := readSentences(g, req)
	idf, _ := g.score(req, all, content, asked)
	verbs := g.verbs(req.Question)
	mentions := g.mentions(req.Sources)
	whole := g.bearing([]map[string]bool{g.an.Set(req.Question)}, idf, verbs, mentions)[0]
	asking := g.askingTerms(req.Question, content)
	var out []openInfo
	for si, src := range req.Sources {
		o := g.opening(all, asked, si)
		if o == nil {
			continue
		}
		title := g.an.Set(src.Title)
		var tq, ak []string
		for _, c := range content {
			if title[c] {
				tq = append(tq, c)
			}
			if o.kown[c] && asking[c] && !verbs[c] {
				ak = append(ak, c)
			}
		}
		out = append(out, openInfo{Doc: src.DocID, Text: o.text, KScore: o.kscore, Raw: o.kscore / g.rankWeight(si),
			Own: slices.Sorted(maps.Keys(o.own)), KOwn: slices.Sorted(maps.Keys(o.kown)), Typed: o.typed, TitleQ: tq, Bearing: whole[si], Asking: ak})
	}
	return string(asked.Type), out
}
