package config

// Secret is a string that never prints.
type Secret string

const redacted = "[redacted]"

func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString keeps %#v from printing the value.
func (s Secret) GoString() string { return s.String() }

// MarshalYAML keeps the value out of YAML output.
func (s Secret) MarshalYAML() (any, error) { return s.String(), nil }

// MarshalText keeps the value out of JSON and text output.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Reveal returns the secret itself, for the one place that needs it.
func (s Secret) Reveal() string { return string(s) }
