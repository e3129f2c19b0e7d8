package judge

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
)

// The HTML report's charts are grouped horizontal bar charts written as
// inline SVG, so the file needs no script, font or stylesheet from
// anywhere. They are a few dozen lines of geometry: a charting library
// would bring font rasterisation and JavaScript-oriented output for four
// bar charts, and its output would be harder to keep byte-stable for the
// golden test.

// series is one coloured set of bars, one value per category.
type series struct {
	Name   string
	Color  string
	Values []float64
}

// Chart colours: loop and one-pass, distinguishable in greyscale too.
const (
	loopColor    = "#2f5d8a"
	onePassColor = "#e0a040"
)

// Chart geometry, in SVG user units.
const (
	chartWidth  = 640
	labelWidth  = 190
	valueWidth  = 90
	barHeight   = 13
	groupGap    = 10
	legendSpace = 26
)

// barChart draws cats × ss as horizontal bars scaled to top (the largest
// value when top is 0), each labelled with format(value).
func barChart(title string, cats []string, ss []series, top float64, format func(float64) string) template.HTML {
	if top <= 0 {
		for _, s := range ss {
			for _, v := range s.Values {
				top = math.Max(top, v)
			}
		}
	}
	if top <= 0 {
		top = 1
	}
	group := len(ss)*barHeight + groupGap
	height := legendSpace + len(cats)*group + 4
	plot := float64(chartWidth - labelWidth - valueWidth)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		chartWidth, height, chartWidth, height, html.EscapeString(title))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(title))
	x := labelWidth
	for _, s := range ss {
		fmt.Fprintf(&b, `<rect x="%d" y="6" width="12" height="12" fill="%s"/><text x="%d" y="16" class="legend">%s</text>`,
			x, s.Color, x+16, html.EscapeString(s.Name))
		x += 16 + 8*len(s.Name) + 24
	}
	for i, c := range cats {
		y := legendSpace + i*group
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" class="cat">%s</text>`,
			labelWidth-8, y+len(ss)*barHeight/2+4, html.EscapeString(c))
		for j, s := range ss {
			v := 0.0
			if i < len(s.Values) {
				v = s.Values[i]
			}
			w := plot * math.Max(0, v) / top
			by := y + j*barHeight
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s, %s: %s</title></rect>`,
				labelWidth, by, w, barHeight-2, s.Color, html.EscapeString(c), html.EscapeString(s.Name), html.EscapeString(format(v)))
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="val">%s</text>`, float64(labelWidth)+w+4, by+barHeight-3, html.EscapeString(format(v)))
		}
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>`, labelWidth, legendSpace-2, labelWidth, height-2)
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) //nolint:gosec // every text is escaped above
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// histogram counts values in n equal buckets over [0, niceCeil(max)).
func histogram(n int, sets ...[]float64) (labels []string, counts [][]float64) {
	top := 0.0
	for _, s := range sets {
		for _, v := range s {
			top = math.Max(top, v)
		}
	}
	top = niceCeil(top * 1.0001)
	width := top / float64(n)
	for i := 0; i < n; i++ {
		labels = append(labels, fmt.Sprintf("%.0f–%.0f ms", float64(i)*width, float64(i+1)*width))
	}
	for _, s := range sets {
		c := make([]float64, n)
		for _, v := range s {
			c[min(int(v/width), n-1)]++
		}
		counts = append(counts, c)
	}
	return labels, counts
}
