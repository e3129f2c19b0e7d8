package judge

import (
	"embed"
	"fmt"
	"html/template"
	"io"
)

//go:embed templates/answers.html.tmpl
var templateFS embed.FS

var answersHTML = template.Must(template.ParseFS(templateFS, "templates/answers.html.tmpl"))

// htmlView is reportView plus the charts and the group tables' headers.
type htmlView struct {
	reportView
	HeadlineChart, StopChart, LatencyChart, TypeChart template.HTML
	TypeGroups, RouteGroups                           groupTable
}

type groupTable struct {
	Key  string
	Rows []groupRow
}

// WriteHTML writes the report as one self-contained HTML file: the same
// tables as the Markdown and four inline SVG charts (headline rates, stop
// reasons, latency distribution, ok by question type), loop against
// one-pass. It loads nothing and runs no script.
func (r AnswersReport) WriteHTML(w io.Writer) error {
	v := htmlView{reportView: r.view(),
		TypeGroups:  groupTable{"type", nil},
		RouteGroups: groupTable{"route", nil},
	}
	v.TypeGroups.Rows, v.RouteGroups.Rows = v.ByType, v.ByRoute
	l, p := r.Overall.Loop, r.Overall.OnePass
	names := []string{"loop", "one-pass"}
	rate := func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }
	count := func(x float64) string { return fmt.Sprintf("%.0f", x) }

	heads := []struct {
		name string
		get  func(Summary) Ratio
	}{
		{"right source cited", func(s Summary) Ratio { return s.RightSourceCited }},
		{"key facts", func(s Summary) Ratio { return s.KeyFacts }},
		{"no-answer refusal", func(s Summary) Ratio { return s.NoAnswerRefusal }},
		{"citation validity", func(s Summary) Ratio { return s.CitationValidity }},
		{"stale citations", func(s Summary) Ratio { return s.StaleCitations }},
		{"ok", func(s Summary) Ratio { return s.OK }},
	}
	var cats []string
	var lv, pv []float64
	for _, h := range heads {
		cats = append(cats, h.name)
		lv, pv = append(lv, h.get(l).Rate), append(pv, h.get(p).Rate)
	}
	v.HeadlineChart = barChart("Headline rates, loop vs one-pass", cats, twoSeries(names, lv, pv), 1, rate)

	cats, lv, pv = nil, nil, nil
	for _, s := range v.Stops {
		cats = append(cats, s.Name)
		lv, pv = append(lv, float64(s.Loop)), append(pv, float64(s.OnePass))
	}
	v.StopChart = barChart("Stop reasons, loop vs one-pass", cats, twoSeries(names, lv, pv), 0, count)

	var ll, pl []float64
	for _, q := range r.Questions {
		if q.Loop.Outcome != RunFailed {
			ll = append(ll, q.Loop.LatencyMS)
		}
		if q.OnePass.Outcome != RunFailed {
			pl = append(pl, q.OnePass.LatencyMS)
		}
	}
	buckets, counts := histogram(8, ll, pl)
	v.LatencyChart = barChart("Latency distribution, runs per bucket", buckets, twoSeries(names, counts[0], counts[1]), 0, count)

	cats, lv, pv = nil, nil, nil
	for _, c := range r.ByType {
		cats = append(cats, fmt.Sprintf("%s (%d)", c.Key, c.Loop.Questions))
		lv, pv = append(lv, c.Loop.OK.Rate), append(pv, c.OnePass.OK.Rate)
	}
	v.TypeChart = barChart("Ok by question type, loop vs one-pass", cats, twoSeries(names, lv, pv), 1, rate)
	return answersHTML.Execute(w, v)
}

func twoSeries(names []string, a, b []float64) []series {
	return []series{{Name: names[0], Color: loopColor, Values: a}, {Name: names[1], Color: onePassColor, Values: b}}
}
