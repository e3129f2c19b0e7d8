package assessdev

import (
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/terms"
)

// TestAblationsCover (rv44): ablations names every switch of the default
// assessor's named models it reaches: turning off together those of the
// models from v25 on (offSince) gives builtin:coverage-v24, from v33 on
// v32, and each ablation alone changes the default's model id. It needs
// no index (no ASSESSDEV). Round 44's switches (Sides, SidesMeasure,
// Listed, Places, Matter) were missing before rv44: TestAblate's
// since-v25 and since-v33 rows left them on.
func TestAblationsCover(t *testing.T) {
	fresh := func() *assess.Builtin { return assess.NewBuiltin(terms.New(), nil) }
	for _, c := range []struct {
		since int
		want  string
	}{{25, assess.V24Model}, {33, assess.V32Model}} {
		b := fresh()
		offSince(c.since)(b)
		if got := b.Model(); got != c.want {
			t.Errorf("offSince(%d): model %q, want %s", c.since, got, c.want)
		}
	}
	def := fresh().Model()
	for _, ab := range ablations {
		b := fresh()
		ab.off(b)
		if b.Model() == def {
			t.Errorf("ablation %s turns nothing off (model %s)", ab.name, def)
		}
	}
}
