package answertype

// PersonNoun reports whether a word (lower case) names a person that a
// question may ask for by name ("the name of the customer", "which
// agent"): one of personNouns that names no organisation or brand, whose
// name may be one word.
func PersonNoun(w string) bool { return personNouns[w] && !organisationNouns[w] }

// organisationNouns are the personNouns naming an organisation or a brand.
var organisationNouns = set("company", "companies", "firm", "manufacturer", "supplier", "retailer", "courier", "brand")
