package assess

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/errs"
)

func TestSchemaShape(t *testing.T) {
	var s struct {
		Type                 string                     `json:"type"`
		Required             []string                   `json:"required"`
		AdditionalProperties *bool                      `json:"additionalProperties"`
		Properties           map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatalf("Schema() is not JSON: %v", err)
	}
	if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
		t.Errorf("schema type %q additionalProperties %v; want a closed object", s.Type, s.AdditionalProperties)
	}
	for _, f := range []string{"score", "sufficient", "rewrite", "reason"} {
		if _, ok := s.Properties[f]; !ok {
			t.Errorf("schema has no property %q", f)
		}
		if !strings.Contains(strings.Join(s.Required, ","), f) {
			t.Errorf("property %q is not required", f)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		reply   string
		want    Assessment
		wantErr string // substring; "" means success
	}{
		{"valid", `{"score":0.8,"sufficient":true,"rewrite":"","reason":"covers it"}`,
			Assessment{Score: 0.8, Sufficient: true, Reason: "covers it"}, ""},
		{"fenced", "```json\n{\"score\":0.2,\"sufficient\":false,\"rewrite\":\"x300 motor warranty\",\"reason\":\"weak\"}\n```",
			Assessment{Score: 0.2, Rewrite: "x300 motor warranty", Reason: "weak"}, ""},
		{"not json", `The evidence is sufficient.`, Assessment{}, "not JSON"},
		{"score above one", `{"score":1.5,"sufficient":true,"rewrite":"","reason":"r"}`, Assessment{}, "/score"},
		{"score as string", `{"score":"high","sufficient":true,"rewrite":"","reason":"r"}`, Assessment{}, "/score"},
		{"missing field", `{"score":0.5,"sufficient":false,"reason":"r"}`, Assessment{}, "rewrite"},
		{"extra field", `{"score":0.5,"sufficient":false,"rewrite":"","reason":"r","confidence":1}`, Assessment{}, "confidence"},
		{"sufficient with rewrite", `{"score":0.9,"sufficient":true,"rewrite":"other query","reason":"r"}`, Assessment{}, "must not propose a rewrite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.reply)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Parse(%q) error %v", tt.reply, err)
				}
				if got != tt.want {
					t.Errorf("Parse(%q) = %+v, want %+v", tt.reply, got, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Parse(%q) error = %v, want one mentioning %q", tt.reply, err, tt.wantErr)
			}
			if k := errs.KindOf(err); k != errs.Schema {
				t.Errorf("Parse(%q) error kind = %q, want %q", tt.reply, k, errs.Schema)
			}
		})
	}
}
