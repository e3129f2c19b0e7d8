package answertype

import (
	"slices"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		q     string
		want  Type
		frame []string
	}{
		{"how often should I replace the filter", Frequency, []string{"often", "i"}},
		{"how fast does the pump run", Speed, []string{"fast"}},
		{"how long does the battery last", Period, []string{"long", "last"}},
		{"how long does the kettle take to boil", Period, []string{"long", "take"}},
		{"what does the company pay us per hour", Money, []string{"us"}},
		{"how many days does delivery take", Period, []string{"take"}},
		{"how many speeds does the mixer have", Count, nil},
		{"how much does a new lid cost", Money, nil},
		{"how much is the callout fee", Money, nil},
		{"how much water does the tank hold", Quantity, nil},
		{"how heavy is the vacuum", Quantity, []string{"heavy"}},
		{"how do I reset the router", Procedure, []string{"i"}},
		{"how to clean the filter", Procedure, nil},
		{"what should I do if the light flashes red", Procedure, []string{"i"}},
		{"can the lid go in the oven", YesNo, []string{"go"}},
		{"is it safe to use the toaster outdoors", YesNo, []string{"safe"}},
		{"do I need a receipt", YesNo, []string{"i", "need"}},
		{"where is the serial number", Place, nil},
		{"when does the offer end", Date, nil},
		{"who makes the motor", Name, nil},
		{"what is the price of a filter", Money, nil},
		{"what does error F3 mean", Description, nil},
		{"filter price", Description, nil},
		{"Antiretroviral therapy reduces rates of tuberculosis.", Description, nil},
		{"F3", Description, nil},
		// The clause that asks: a statement before a colon, a semicolon or
		// a comma sets the scene, the interrogative clause after it asks.
		{"the kettle shows a red light: what should I do", Procedure, []string{"i"}},
		{"my toaster smells of smoke; can I still use it", YesNo, []string{"my", "i"}},
		{"I bought a Z10 last year. How long is it guaranteed for?", Period, []string{"long", "i", "last"}},
		{"if the lid cracks, is the repair free", YesNo, nil},
		{"when I descale the tank, how much vinegar do I need", Quantity, []string{"i", "need"}},
		{"when does the offer end, and can I still order", Date, []string{"i"}},
		{"my kettle is new, and how often should I descale it", Frequency, []string{"often", "my", "i"}},
		{"The drug reduces mortality, which is the main outcome.", Description, nil},
		// A question asked of the answerer inside a request ("can you
		// tell me ...", "I'd like to know ..."): the embedded one asks.
		{"can you tell me how often to descale the tank", Frequency, []string{"often", "can", "you", "tell", "me"}},
		{"I'd like to know where to buy a new lid", Place, []string{"i'd", "like", "to", "know"}},
		{"please tell me how fast the fan turns", Speed, []string{"fast", "please", "tell", "me"}},
		{"could you tell me what to do when the light flashes", Procedure, []string{"could", "you", "tell", "me"}},
		{"do you know if the lid can go in the oven", YesNo, []string{"go", "do", "you", "know"}},
		{"can you descale the tank with vinegar", YesNo, []string{"you"}},
		// Verbs that only frame a period ("how long should I leave it").
		{"the oven shows F2. How long should I leave it?", Period, []string{"long", "i", "leave"}},
		{"how long do I have to wait for a refund", Period, []string{"long", "i", "wait"}},
		// Hedges and the semi-modal "need" say nothing of the topic.
		{"how long does a refund usually take", Period, []string{"long", "usually", "take"}},
		{"how frequently does the tank need descaling", Frequency, []string{"frequently", "need"}},
		{"what do I need to bring to the shop", Description, []string{"i", "need"}},
		{"The infection is typically mild.", Description, nil}, // a statement's hedge is part of its claim
		// A preposition before the question word ("for how long").
		{"for how long is the lid guaranteed", Period, []string{"long"}},
		{"within how many days must I return it", Period, []string{"i"}},
		// "how much/many" asking for time, whatever words come between.
		{"how much time does a filter change take", Period, []string{"time", "take"}},
		{"how much labour time should a belt replacement take", Period, []string{"time", "take"}},
		{"how many working days does a refund take", Period, []string{"take"}},
		{"how much longer will the sale run", Period, []string{"longer"}},
		{"how much time do I have to pay the invoice", Period, []string{"time", "i"}},
		{"how many hours of labour does a belt replacement take", Period, []string{"take"}},
		{"how much is the delivery time for parts", Period, []string{"time"}},
		{"how much is delivery on orders placed this week", Money, nil},
	} {
		got := Classify(c.q)
		if got.Type != c.want || !slices.Equal(got.Frame, c.frame) {
			t.Errorf("Classify(%q) = %q %q, want %q %q", c.q, got.Type, got.Frame, c.want, c.frame)
		}
	}
}

func TestFind(t *testing.T) {
	for _, c := range []struct {
		t        Type
		sentence string
		want     string // an expression Find must return; "" for none
	}{
		{Frequency, "Change the filter about once every three months.", "once every three"},
		{Frequency, "Replace the pad twice a year.", "twice a year"},
		{Frequency, "Empty the tray after each use.", "after each use"},
		{Frequency, "The pad is made of felt.", ""},
		{Speed, "The fan turns at 1,400 RPM on its top setting.", "1,400 RPM"},
		{Speed, "The oven heats up in about six minutes.", "six minutes"},
		{Speed, "The Z10 has a steel drum.", ""},
		{Speed, "Replace the belt about once a year.", ""},
		{Period, "Refunds are paid within 14 working days.", "14 working days"},
		{Period, "The battery lasts up to two hours.", "two hours"},
		{Period, "It comes with a 3-year guarantee.", "3-year"},
		{Period, "The Z10 model has a steel drum.", ""},
		{Period, "A full charge lasts 36h.", "36h"},
		{Period, "The battery lasts three nights.", "three nights"},
		{Period, "The boiler has run for two decades.", "two decades"},
		{Period, "The hinges carry a lifetime guarantee.", "lifetime"},
		{Period, "Hot food keeps 2 hot plates busy.", ""},
		{Count, "The mixer has eight speeds and a pulse button.", "eight speeds"},
		{Count, "The R2D2 has a steel drum.", ""},
		{Quantity, "It holds 1.5 litres of water.", "1.5 litres"},
		{Quantity, "A 900 W motor drives it.", "900 W"},
		{Quantity, "It has a 3-litre bowl.", "3-litre"},
		{Quantity, "Model ZX-900 has a bowl.", ""},
		{Money, "Standard postage costs £4.50.", "£4.50"},
		{Money, "Collection is free for members.", "free"},
		{Money, "Postage is by courier.", ""},
		{Date, "The offer ends on 30 June 2027.", "30 June 2027"},
		{Date, "The shop is closed.", ""},
		{YesNo, "Never put the base in water.", "Never"},
		{YesNo, "Rinse the lid under the tap.", "rinse the"},
		{YesNo, "The lid is blue.", ""},
		{Procedure, "Hold the button for 5 seconds.", "hold the"},
		{Procedure, "To reset it, press the dial, then wait.", "then"},
		{Procedure, "In cold rooms, defrost it overnight.", "defrost it"},
		{Procedure, "Defrost it overnight.", "defrost it"},
		{Procedure, "In damp rooms, defrost freezers weekly.", "defrost freezers"},
		{Procedure, "In damp rooms, freezers ice up.", ""},
		{Procedure, "The fridge has a light.", ""},
		// An instruction in a clause after a colon, a semicolon or a dash.
		{Procedure, "F9 means a sensor fault: contact the maker.", "contact the"},
		{Procedure, "F2 means the door is open: shut it firmly.", "shut it"},
		{Procedure, "The fuse has blown; replace it with a new one.", "replace it"},
		{Procedure, "The drum is stuck - rotate it by hand.", "rotate it"},
		{Procedure, "Note: the drum is steel.", ""},
		{Procedure, "Parts ship from Leeds.", "from Leeds"},
		{Procedure, "The guarantee runs from the date of purchase.", ""},
		{YesNo, "The door is open: shut it firmly.", "shut it"},
		{Place, "Orders are placed at shop.example.", "shop.example"},
		{Place, "The label is printed on the base of the bowl.", "base"},
		{Name, "Fixes are done by Acme Repairs.", "Acme"},
	} {
		got := Find(c.t, c.sentence)
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("Find(%s, %q) = %q, want none", c.t, c.sentence, got)
		case c.want != "" && !slices.ContainsFunc(got, func(s string) bool { return s == c.want || s == "" }):
			t.Errorf("Find(%s, %q) = %q, want %q among them", c.t, c.sentence, got, c.want)
		}
	}
}

func TestImperative(t *testing.T) {
	for _, c := range []struct {
		sentence string
		want     bool
	}{
		{"Unplug it: the motor is hot.", true},
		{"In damp rooms, defrost freezers weekly.", true},
		{"F9 means a sensor fault: contact the maker.", false}, // holds an instruction, opens with a condition
		{"Note: the drum is steel.", false},
		{"The fridge has a light.", false},
	} {
		if got := Imperative(c.sentence); got != c.want {
			t.Errorf("Imperative(%q) = %v, want %v", c.sentence, got, c.want)
		}
	}
}

// TestUnitDimension: "how many watts" asks for a measure of power: the
// unit word is frame (documents write "W"), and a measure in another
// dimension ("1.7 litres") does not answer it.
func TestUnitDimension(t *testing.T) {
	q := Classify("how many watts is the toaster")
	if q.Type != Quantity || q.Unit != "power" || !slices.Equal(q.Frame, []string{"watts"}) {
		t.Fatalf("Classify(how many watts ...) = %+v, want a quantity of power framed by \"watts\"", q)
	}
	if q.Describe() != "a measure of power" {
		t.Errorf("Describe() = %q", q.Describe())
	}
	for _, c := range []struct {
		sentence string
		want     string
	}{
		{"The toaster has a 900 W element.", "900 W"},
		{"It draws 2 kW at full heat.", "2 kW"},
		{"The toaster holds 1.7 litres.", ""},
		{"It has four slots.", ""},
	} {
		got := q.Find(c.sentence)
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("Find(%q) = %q, want %q", c.sentence, got, c.want)
		}
	}
	// Units that are counted things stay a count.
	if q := Classify("how many speeds does the mixer have"); q.Type != Count || q.Unit != "" {
		t.Errorf("how many speeds: %+v, want a count", q)
	}
}

// TestPronounOne: "one" after a demonstrative stands for a thing named
// before, so it is frame; the number "one" is not.
func TestPronounOne(t *testing.T) {
	if q := Classify("and the Z10 drum, how big is that one?"); !slices.Contains(q.Frame, "one") {
		t.Errorf("Frame = %q, want \"one\" among them", q.Frame)
	}
	if q := Classify("is one filter enough"); slices.Contains(q.Frame, "one") {
		t.Errorf("Frame = %q, want the number \"one\" left as content", q.Frame)
	}
}

// TestCondition: "when should I ..." asks when to act, answered by a time
// or by the condition to act on; "when does ..." still asks for a date.
func TestCondition(t *testing.T) {
	if q := Classify("when should we replace the drive belt"); q.Type != Condition {
		t.Errorf("when should we: %q, want %q", q.Type, Condition)
	}
	if q := Classify("when does the offer end"); q.Type != Date {
		t.Errorf("when does: %q, want %q", q.Type, Date)
	}
	for _, c := range []struct {
		sentence string
		want     string
	}{
		{"If the belt slips after tightening, replace it.", "If the belt slips after tightening"},
		{"Replace the belt once it squeals.", "once it squeals"},
		{"Replace the belt in March.", "in March"},
		{"The belt is made of rubber.", ""},
	} {
		got := Find(Condition, c.sentence)
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("Find(condition, %q) = %q, want %q", c.sentence, got, c.want)
		}
	}
}

// TestAskedNoun: the noun "what" or "which" asks for names the kind of
// answer, and is frame; a partitive before "of" is frame too.
func TestAskedNoun(t *testing.T) {
	for _, c := range []struct {
		q     string
		want  Type
		frame []string
	}{
		{"what's the serial number on the drum", Name, []string{"number"}},
		{"which error code means the door is open", Name, []string{"code"}},
		{"which website do I order filters from", Place, []string{"website", "i"}},
		{"what colour is the drum", Description, nil},
		{"which drum fits a new pair of hinges", Description, []string{"pair"}},
		{"is the fuse the commonest fault type of the Z10", YesNo, nil},
	} {
		got := Classify(c.q)
		if got.Type != c.want || !slices.Equal(got.Frame, c.frame) {
			t.Errorf("Classify(%q) = %q %q, want %q %q", c.q, got.Type, got.Frame, c.want, c.frame)
		}
	}
}

func TestCompares(t *testing.T) {
	for q, want := range map[string]bool{
		"which has more slots, the Z10 or the Z20":          true,
		"what did the 2019 terms cover that 2021 no longer": true,
		"what does F9 mean on the Z20":                      false,
	} {
		if got := Compares(q); got != want {
			t.Errorf("Compares(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestVerbs(t *testing.T) {
	tests := []struct {
		question     string
		asked, scene []string
	}{
		{"my X200 is showing E9 - can I fix that myself?", []string{"fix"}, []string{"showing"}},
		{"how long do I press the temperature dial for when pairing the kettle", []string{"press", "pairing"}, nil},
		{"I ran my kettle off a converter. Will the warranty pay for it?", nil, []string{"ran"}},
		{"which website do I use to book a repair", []string{"use", "book"}, nil},
		{"what reference do we have to put on a claim", []string{"put"}, nil},
		{"what is the way to the shop", nil, nil},
		{"how do I descale the X300 Pro", []string{"descale"}, nil},
		{"how many speeds does the X200 have", nil, nil},
		{"what is the price of a jar", nil, nil},
		{"should I usually descale it", []string{"descale"}, nil},
	}
	for _, tt := range tests {
		asked, scene := Verbs(tt.question)
		if !slices.Equal(asked, tt.asked) || !slices.Equal(scene, tt.scene) {
			t.Errorf("Verbs(%q) = %q, %q; want %q, %q", tt.question, asked, scene, tt.asked, tt.scene)
		}
	}
}

func TestWebAddress(t *testing.T) {
	q := Classify("which website do I use to book a repair")
	if q.Type != Place || !q.Web {
		t.Fatalf("Classify = %+v, want a place asking for a web address", q)
	}
	if got := q.Find("A repair shows as Booked, In workshop, then Dispatched."); len(got) != 0 {
		t.Errorf("Find = %q, want no web address", got)
	}
	if got := q.Find("Book a repair at fixit.example/book today."); len(got) != 1 || got[0] != "fixit.example/book" {
		t.Errorf("Find = %q, want the address", got)
	}
	if q := Classify("where is the repair centre"); q.Web {
		t.Errorf("Classify(where) = %+v, want any place", q)
	}
}

// TestClassifyUnitAnywhere: a unit named anywhere in the clause that asks
// for a measure fixes its dimension, and "what wattage" asks for a measure
// of power (v8; before, "how heavy is it in kilos" took any unit and
// "what wattage" no type at all).
func TestClassifyUnitAnywhere(t *testing.T) {
	for _, c := range []struct {
		q          string
		want       Type
		unit, find string
	}{
		{"how heavy is the mixer in kilos", Quantity, "mass", ""},
		{"how loud is the X300 Pro on full speed, in decibels?", Quantity, "loudness", ""},
		{"what wattage is the K50 kettle?", Quantity, "power", "3,000 W"},
		{"which voltage does it take", Quantity, "voltage", "230 V"},
		{"how much water does the tank hold", Quantity, "", "1.7 litres"},
		// A unit's own name asks what the unit is, not for a measure in it.
		{"what is a watt?", Description, "", ""},
		{"what kg", Description, "", ""},
		// A dimension noun that is no unit word stays a description (the
		// models have always read it so); DimensionNoun names its
		// dimension for the generator's v15.
		{"what temperature does the K50 hold the water at?", Description, "", ""},
		{"what weight is the mixer?", Description, "", ""},
	} {
		q := Classify(c.q)
		if q.Type != c.want || q.Unit != c.unit {
			t.Errorf("Classify(%q) = %+v, want %s in %q", c.q, q, c.want, c.unit)
		}
		got := q.Find("It holds 1.7 litres, draws 3,000 W and runs on 230 V.")
		if c.find != "" && !slices.Contains(got, c.find) || c.find == "" && len(got) > 0 {
			t.Errorf("Classify(%q).Find = %q, want %q", c.q, got, c.find)
		}
	}
	for w, want := range map[string]string{"temperature": "temperature", "weight": "mass", "capacity": "volume", "wattage": "power", "watt": ""} {
		if dim, ok := DimensionNoun(w); dim != want || ok != (want != "") {
			t.Errorf("DimensionNoun(%q) = %q, %v; want %q", w, dim, ok, want)
		}
	}
}

// TestClassifyForms: question forms the classifier misread on the
// development sets (issue 24, round 7), each asked of made-up products.
func TestClassifyForms(t *testing.T) {
	for _, c := range []struct {
		q     string
		want  Type
		frame []string
	}{
		// A contracted question word asks like the two words
		// ("whats", "where's").
		{"whats the postage on a filter order", Money, nil},
		{"For the quarterly report: what's our cost on a Z10 drum?", Money, []string{"our"}},
		{"Heard the depot is moving - where's it going?", Place, nil},
		// A clause opening with an auxiliary asks when it ends with a
		// question mark, a name after the auxiliary or not.
		{"I dropped my toaster and the lid split - will Acme replace it under the guarantee?", YesNo, []string{"i", "my"}},
		// "at what point": when something happens.
		{"at what point do I get a tracking email?", Condition, []string{"i"}},
		// The noun asked for: a place, a web page, a name, a person,
		// an instruction, a speed by a superlative.
		{"which town is the depot in these days?", Place, []string{"town"}},
		{"Which web page do I go to for ordering filters?", Place, []string{"web", "i"}},
		{"what was the name of the engineer who fixed my Z10?", Name, []string{"name", "my"}},
		{"which customer reported a cracked Z10 drum in May?", Name, nil},
		{"what are the steps to return a faulty toaster?", Procedure, []string{"steps"}},
		{"what's the process for claiming a refund?", Procedure, []string{"process"}},
		{"what's the fastest the Z10's fan will turn?", Speed, []string{"fastest"}},
		{"what is the toaster's slot called?", Name, []string{"called"}},
		// "how much" before an auxiliary: what a container takes is a
		// quantity, what one spends or gets is money.
		{"How much will the Z10 bowl take in one go?", Quantity, nil},
		{"How much do I have to spend before delivery is free?", Money, []string{"i"}},
		{"How much do we get for a home visit?", Money, []string{"we"}},
		{"how much is the callout fee", Money, nil},
		{"how much water does the tank hold", Quantity, nil},
		// "what is it" points back to the noun of the scene.
		{"The returns form wants the serial number of my Z10 - what is it?", Name, []string{"number", "my"}},
		{"The depot moved last year - what is it?", Description, nil},
	} {
		got := Classify(c.q)
		if got.Type != c.want || !slices.Equal(got.Frame, c.frame) {
			t.Errorf("Classify(%q) = %q %q, want %q %q", c.q, got.Type, got.Frame, c.want, c.frame)
		}
	}
}

// TestFractionIsNoMeasure: a number after a slash is a fraction's or a
// rating's ("rated 4/5"), not the start of a period, a speed or a count;
// and a duration is a speed only as the time something takes ("in about
// six minutes"), not as how long a cover lasts ("covered for 5 years").
func TestFractionIsNoMeasure(t *testing.T) {
	for _, c := range []struct {
		t        Type
		sentence string
		want     string
	}{
		{Speed, "Reviewers rated it 4/5 years running.", ""},
		{Period, "Reviewers rated it 4/5 years running.", ""},
		{Count, "Reviewers gave it 4/5 stars.", ""},
		{Speed, "The drum is covered for 5 years.", ""},
		{Speed, "It comes with a 3-year guarantee.", ""},
		{Speed, "The oven heats up in about six minutes.", "six minutes"},
		{Speed, "A full charge takes 3 hours.", "3 hours"},
		{Speed, "The fan turns at 1,400 RPM.", "1,400 RPM"},
		{Period, "The drum is covered for 5 years.", "5 years"},
	} {
		got := Find(c.t, c.sentence)
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("Find(%s, %q) = %q, want %q", c.t, c.sentence, got, c.want)
		}
	}
}

func TestAskingClauses(t *testing.T) {
	for _, tt := range []struct {
		question string
		want     int
	}{
		{"how many watts does the Z9 washer use?", 1},
		{"how many watts does the Z9 washer use, and how do I clean its filter?", 2},
		{"how many watts does the Z9 washer use and how do I clean its filter?", 2},
		{"how often should I descale it and is vinegar ok?", 2},
		{"Hi, how many watts does the Z9 washer use?", 1},
		{"I bought a Z10 last year. How long is it guaranteed for?", 1},
		{"if the lid cracks, is the repair free", 1},
		{"can you tell me how often to descale the kettle", 1},
		{"how do I clean the jug and lid?", 1},
		{"is the X200 or the X300 Pro quieter?", 1},
		// A follow-up asks about another case of the question.
		{"is a cracked Z9 drum covered, and what if it is from batch C-17", 2},
		{"is a cracked Z9 drum covered and what about the Z10?", 2},
		{"what if my drum is from batch C-17?", 1},
		{"I know what it is about, but how long does it last?", 1},
	} {
		if got := AskingClauses(tt.question); got != tt.want {
			t.Errorf("AskingClauses(%q) = %d; want %d", tt.question, got, tt.want)
		}
	}
}

// TestAskedDimension: "how heavy" asks for a mass, so a measure in watts
// does not answer it; an adjective of more than one dimension ("how big")
// or a question naming its unit names none here.
func TestAskedDimension(t *testing.T) {
	for q, want := range map[string]string{
		"How heavy is the X300 Pro?":                         "mass",
		"how powerful is the motor in the pro blender?":      "power",
		"We want a quiet one. How loud is the X200 at full?": "loudness",
		"how big is the jug on the X200":                     "",
		"How loud is the X300 Pro flat out, in decibels?":    "",
		"how long does descaling take":                       "",
	} {
		if got := AskedDimension(q); got != want {
			t.Errorf("AskedDimension(%q) = %q, want %q", q, got, want)
		}
	}
	q := Question{Type: Quantity, Unit: AskedDimension("How heavy is the X300 Pro?")}
	if got := q.Find("The X300 Pro has a 1,500 W motor and weighs 4.2 kg."); len(got) != 1 || got[0] != "4.2 kg" {
		t.Errorf("a mass question finds %q, want only the mass", got)
	}
}

// TestAskedDimensionUnits: every dimension a measure adjective asks for
// has units (Question.Find indexes dimensions by it), and a measure the
// generic reading finds in a unit of that dimension is found when the
// question asks by its adjective ("how heavy": "12 pounds" as "5.4 kg").
func TestAskedDimensionUnits(t *testing.T) {
	for adj, dim := range adjectiveDimensions {
		if dimensions[dim] == nil {
			t.Errorf("how %s asks for %q, which has no units", adj, dim)
		}
	}
	for q, s := range map[string]string{
		"How heavy is the X300 Pro?":      "The X300 Pro weighs 12 pounds without the jar.",
		"How light is the travel kettle?": "The travel kettle weighs 1 pound.",
		"How heavy is the X200?":          "The X200 weighs 9 lbs.",
	} {
		generic := Classify(q)
		asked := Question{Type: Quantity, Unit: AskedDimension(q)}
		if g, a := generic.Find(s), asked.Find(s); len(a) != 1 || len(g) > 0 && g[0] != a[0] {
			t.Errorf("%q in %q: the generic reading finds %q, the %s reading %q", q, s, g, asked.Unit, a)
		}
	}
}

func TestIsCode(t *testing.T) {
	for w, want := range map[string]bool{"X200": true, "HL-X200-UK": true, "B-2291": true, "E4": true, "2291": false, "kettle": false, "": false, "X٢٠٠": true} {
		if got := IsCode(w); got != want {
			t.Errorf("IsCode(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestMonthNames: the date pattern reads exactly the listed months, names
// and abbreviations, and nothing else spelled like one.
func TestMonthNames(t *testing.T) {
	for _, m := range append(slices.Clone(MonthNames), MonthAbbrevs...) {
		for _, s := range []string{"from " + m, "5 " + m + " 2026", strings.ToUpper(m[:1]) + m[1:] + " 2025"} {
			if got := reDate.FindString(s); got != s {
				t.Errorf("reDate in %q finds %q, want the whole date", s, got)
			}
		}
	}
	for _, d := range DayNames {
		for _, s := range []string{d, "by " + strings.ToUpper(d[:1]) + d[1:]} {
			if got := reDate.FindString(s); got != strings.TrimPrefix(s, "by ") {
				t.Errorf("reDate in %q finds %q, want the day", s, got)
			}
		}
	}
	// a word that starts like a month is none: only the year is a date
	for s, want := range map[string]string{"from marks": "", "5 junes": "", "mayday 2025": "2025", "5 decembers 2026": "2026"} {
		if got := reDate.FindString(s); got != want {
			t.Errorf("reDate in %q finds %q, want %q: not a month", s, got, want)
		}
	}
}

// TestDimensionSymbols: a temperature written with a bare "C" or "F", an
// ordinal indicator for the degree sign ("80ºC") or a space before it
// ("80 °F") is a temperature, and "fl oz" is a volume, not a mass; a
// capital "C" apart from the number ("press 2 C") is no temperature, nor
// is one right after it where no temperature is set or stated ("room
// 3F", "gate 2C").
func TestDimensionSymbols(t *testing.T) {
	for s, want := range map[string][2]string{
		"Use water at 80C.":                {"temperature", "80C"},
		"Use water at 80ºC.":               {"temperature", "80ºC"},
		"Use water at 80°C.":               {"temperature", "80°C"},
		"Heat it to 80 °F, no more.":       {"temperature", "80 °F"},
		"Keep it between 60 and 85°F":      {"temperature", "85°F"},
		"Hold it at 90 ºC":                 {"temperature", "90 ºC"},
		"The jug holds 64 fl oz of water.": {"volume", "64 fl oz"},
		"The jug holds 64 fl. oz.":         {"volume", "64 fl. oz"},
		"The jar weighs 12 oz.":            {"mass", "12 oz"},
	} {
		q := Question{Type: Quantity, Unit: want[0]}
		if got := q.Find(s); len(got) != 1 || got[0] != want[1] {
			t.Errorf("%s in %q: found %q, want [%s]", want[0], s, got, want[1])
		}
	}
	for s, dim := range map[string]string{
		"The jug holds 64 fl oz of water.": "mass",
		"Press 2 C to start.":              "temperature",
		"It weighs 80 oz.":                 "volume",
		"It has 3 Cs.":                     "temperature",
		"The desk is in room 3F.":          "temperature",
		"Board the coach at gate 2C.":      "temperature",
		"Rooms 3F and 4F are free.":        "temperature",
	} {
		q := Question{Type: Quantity, Unit: dim}
		if got := q.Find(s); len(got) > 0 {
			t.Errorf("%s in %q: found %q, want none", dim, s, got)
		}
	}
	if got := Find(Quantity, "The jug holds 64 fl oz and the kettle boils at 100C."); !slices.Contains(got, "64 fl oz") || !slices.Contains(got, "100C") {
		t.Errorf("Find(Quantity) = %q, want the volume and the temperature whole", got)
	}
	// a bare "C" or "F" is a temperature where one is set or stated
	for s, want := range map[string]string{
		"Heat it to 80C.":                   "80C",
		"Keep it at least 60F.":             "60F",
		"Set a temperature of 90C.":         "90C",
		"It must never exceed 40C.":         "40C",
		"Heat the water to 60-80C, no more": "60-80C",
	} {
		q := Question{Type: Quantity, Unit: "temperature"}
		if got := q.Find(s); !slices.Equal(got, []string{want}) {
			t.Errorf("temperature in %q: found %q, want [%s]", s, got, want)
		}
	}
	if got := Find(Quantity, "The desk in room 3F has 2 kg of paper."); !slices.Equal(got, []string{"2 kg"}) {
		t.Errorf("Find(Quantity) = %q, want only the mass: room 3F is no temperature", got)
	}
	// a range of bare temperatures: "between" and "from" state one, and
	// "and"/"or" carry on a temperature, not a room
	for s, want := range map[string][]string{
		"Store it between 5C and 25C.":   {"5C", "25C"},
		"It works from 5C to 40C.":       {"5C", "40C"},
		"Serve at 60C or 70C.":           {"60C", "70C"},
		"Keep it between 60 and 85F.":    {"85F"},
		"Rooms 3 and 4F are free.":       nil,
		"Rooms 3F and 4F are free.":      nil,
		"Use gate 2C or 3C for coaches.": nil,
	} {
		q := Question{Type: Quantity, Unit: "temperature"}
		if got := q.Find(s); !slices.Equal(got, want) {
			t.Errorf("temperature in %q: found %q, want %q", s, got, want)
		}
	}
}

// TestUnitsOneTable: a measure in a unit a question may ask by ("how many
// millimetres") is a measure of that unit's dimension and a measure of any
// unit (Find(Quantity)) alike: both read the one table of units (before
// it, the generic reading missed "5 millimetres", "5 amperes" and "5
// revolutions"). "A" is an ampere only when the question asks for amps.
func TestUnitsOneTable(t *testing.T) {
	for w, dim := range unitWords {
		if _, noun := dimensionNouns[w]; noun {
			continue // "wattage" names the dimension, not a unit
		}
		s := "It is 5 " + w + " here."
		want := "5 " + w
		if got := (Question{Type: Quantity, Unit: dim}).Find(s); !slices.Equal(got, []string{want}) {
			t.Errorf("%s in %q: found %q, want [%s]", dim, s, got, want)
		}
		if got := Find(Quantity, s); !slices.Equal(got, []string{want}) {
			t.Errorf("Find(Quantity) in %q = %q, want [%s]", s, got, want)
		}
	}
	if got := (Question{Type: Quantity, Unit: "current"}).Find("It takes a 13 A fuse."); !slices.Equal(got, []string{"13 A"}) {
		t.Errorf("current in a 13 A fuse: found %q", got)
	}
	if got := Find(Quantity, "Descale it 2 a day."); len(got) > 0 {
		t.Errorf("Find(Quantity) in 2 a day = %q, want none", got)
	}
}

// TestJoint: the joint words ask the same of each thing named; a
// comparative alone, or none, is no joint question.
func TestJoint(t *testing.T) {
	for q, want := range map[string]bool{
		"does E4 mean the same thing on the X200 as it does on the X300 Pro?": true,
		"Between the X200 and the X300 Pro, which has the beefier motor?":     true,
		"is the warranty similar for either blender?":                         true,
		"which is faster, the Z10 or the Z20?":                                false,
		"what does E4 mean on the X200?":                                      false,
	} {
		if got := Joint(q); got != want {
			t.Errorf("Joint(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestClauseSpansRepeatedDashes: dashes spaced one after another
// ("a - - b", "a – – b") end a clause each: the second dash's leading
// space is the first one's trailing space, and reading it again sliced
// the text backwards (a panic on any question so typed).
func TestClauseSpansRepeatedDashes(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"a - b", []string{"a", "b"}},
		{"a - - b", []string{"a", "b"}},
		{"how often - - - should I descale it", []string{"how often", "should I descale it"}},
		{"a – – b", []string{"a", "b"}},
		{"a — — b — c", []string{"a", "b", "c"}},
		{" - - ", nil},
	} {
		var got []string
		for _, sp := range clauseSpans(tt.text) {
			got = append(got, strings.TrimSpace(tt.text[sp[0]:sp[1]]))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("clauseSpans(%q) = %q, want %q", tt.text, got, tt.want)
		}
		_ = Classify(tt.text) // and no reader of the clauses panics
		_ = AskingClauses(tt.text)
	}
}

// TestIsUnit: units of time and of measures are units; the words that
// frame a time question, and content words, are not.
func TestIsUnit(t *testing.T) {
	for w, want := range map[string]bool{"day": true, "hours": true, "watts": true, "litres": true, "time": false, "while": false, "date": false, "request": false} {
		if got := IsUnit(w); got != want {
			t.Errorf("IsUnit(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestAskingParts: the parts that ask, as the generator (extractive-v20 on)
// reads them (builtin:coverage-v51's Parts judges each).
func TestAskingParts(t *testing.T) {
	for q, want := range map[string][]string{
		"What's the top speed of the X200, and how many speed settings has it got?":  {"What's the top speed of the X200,", "and how many speed settings has it got?"},
		"What's our hourly labour rate with Hollin and when does the agreement end?": {"What's our hourly labour rate with Hollin", "when does the agreement end?"},
		"How long is the X200 guaranteed for?":                                       {"How long is the X200 guaranteed for?"},
		"Can I put the jug and lid in the dishwasher?":                               {"Can I put the jug and lid in the dishwasher?"},
	} {
		if got := AskingParts(q); !slices.Equal(got, want) {
			t.Errorf("AskingParts(%q) = %q, want %q", q, got, want)
		}
	}
}
