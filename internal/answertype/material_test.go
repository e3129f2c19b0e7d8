package answertype

import (
	"slices"
	"testing"
)

// TestMaterialQuestion: a clause opened by "what" or "which" that says
// "made of", asks for a material by its noun, or ends with "with" after a
// subject's verb asks for a material; a yes/no question naming one, a
// name asked for, or a measure does not.
func TestMaterialQuestion(t *testing.T) {
	for _, c := range []struct {
		q     string
		want  bool
		frame []string
	}{
		{"What's the X200's jug actually made of, glass or plastic?", true, []string{"actually", "made", "glass", "plastic"}},
		{"what kind of plastic is the x200 jar made out of?", true, []string{"kind", "plastic", "made"}},
		{"What should I descale the K50 with? Is white vinegar ok?", true, []string{"with", "white", "vinegar"}},
		{"my K50 is getting crusty inside, what do you recommend descaling it with?", true, []string{"with"}},
		{"Which descaler is recommended for the K50?", true, []string{"descaler"}},
		{"Is the X200 jug glass or plastic? what's it actually made of", true, nil},
		{"Is the X300 Pro jug made of Tritan too, like the X200's?", false, nil},
		{"What's the app called that the smart kettle works with?", false, nil},
		{"What size jug does the X200 come with?", false, nil},
		{"what do I pay the repair fee with?", false, nil},
		{"how fast does the X200 spin", false, nil},
	} {
		q, ok := MaterialQuestion(c.q)
		if ok != c.want || ok && q.Type != Material {
			t.Errorf("MaterialQuestion(%q) = %v, %v; want material %v", c.q, q, ok, c.want)
		}
		for _, w := range c.frame {
			if !slices.Contains(q.Frame, w) {
				t.Errorf("MaterialQuestion(%q) frame %v lacks %q", c.q, q.Frame, w)
			}
		}
	}
}

// TestFindMaterial: what a thing is made of, a named material and a trade
// name before a noun after a determiner or a measure are materials; a
// verb's capitalised object and a sentence with none are not.
func TestFindMaterial(t *testing.T) {
	for _, c := range []struct {
		s    string
		want []string
	}{
		{"The X200 blender has a 1,200 W motor, a 2-litre Tritan jar and three speeds.", []string{"Tritan"}},
		{"Descale it once a month with citric acid.", []string{"acid"}},
		{"The lid is made from recycled glass.", []string{"recycled glass", "glass"}},
		{"To pair the K50 with the Hollin Home app, hold the dial, then choose Add appliance in the app.", nil},
		{"X200 jars from batch B-2291 may crack when used with hot liquids.", nil},
		{"High speed reaches 22,000 RPM.", nil},
	} {
		if got := Find(Material, c.s); !slices.Equal(got, c.want) {
			t.Errorf("Find(Material, %q) = %q, want %q", c.s, got, c.want)
		}
	}
}

// TestSpeedFrame: a speed question's motion verb, the moving part its
// subject names and its phrase for the top of the range are frame; the
// bottom of the range and the thing named after a preposition are not.
func TestSpeedFrame(t *testing.T) {
	for _, c := range []struct {
		q         string
		want, not []string
	}{
		{"How fast do the blades spin on the Pro blender at full whack?", []string{"spin", "blades", "full", "whack"}, []string{"pro", "blender"}},
		{"what's the fastest the X200's blades will spin, flat out?", []string{"fastest", "blades", "will", "spin", "flat", "out"}, []string{"x200's"}},
		{"what rpm does the x200 get up to on its top setting", []string{"get", "top", "setting"}, []string{"x200"}},
		{"How fast does the X200 spin on its slowest speed?", []string{"spin"}, []string{"slowest", "speed", "x200"}},
	} {
		got := SpeedFrame(c.q)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("SpeedFrame(%q) = %v lacks %q", c.q, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("SpeedFrame(%q) = %v holds %q", c.q, got, w)
			}
		}
	}
}

// TestInstrument: a question asking what to do a thing with is answered
// by a "with" phrase as by a material; one asking what it is made of is
// not ("used with hot liquids").
func TestInstrument(t *testing.T) {
	clean, _ := MaterialQuestion("what should I clean the X200 motor unit with")
	made, _ := MaterialQuestion("what's the X200 jar made of?")
	if clean.Unit != Instrument || made.Unit != "" {
		t.Fatalf("units %q, %q; want %q and none", clean.Unit, made.Unit, Instrument)
	}
	for _, c := range []struct {
		s          string
		clean, mad int
	}{
		{"Never put the motor base in water; wipe it with a damp cloth.", 1, 0},
		{"X200 jars from batch B-2291 may crack when used with hot liquids.", 1, 0},
		{"To pair the K50 with the Hollin Home app, hold the dial.", 0, 0},
		{"Descale it once a month with citric acid.", 2, 1},
	} {
		if got := len(clean.Find(c.s)); got != c.clean {
			t.Errorf("instrument %q: %d found %q, want %d", c.s, got, clean.Find(c.s), c.clean)
		}
		if got := len(made.Find(c.s)); got != c.mad {
			t.Errorf("material %q: %d found %q, want %d", c.s, got, made.Find(c.s), c.mad)
		}
	}
}

// TestSpeedFrameThing: a subject naming the thing itself is content.
func TestSpeedFrameThing(t *testing.T) {
	for _, c := range []struct {
		q   string
		not []string
	}{
		{"how fast does the mixer spin", []string{"mixer"}},
		{"How fast does the X300 Pro spin when it's flat out?", []string{"pro", "x300"}},
		{"how fast does the pro blender spin on its top setting", []string{"pro", "blender"}},
	} {
		got := SpeedFrame(c.q)
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("SpeedFrame(%q) = %v holds %q", c.q, got, w)
			}
		}
	}
}
