package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/assay-rag/assay/internal/wire"
)

// schemaRef points at a component schema of the OpenAPI document.
func schemaRef(name string) *jsonschema.Schema {
	return &jsonschema.Schema{Ref: "#/components/schemas/" + name}
}

// handWritten maps the types whose schemas the OpenAPI document writes by
// hand to their component names: generated schemas refer to them.
var handWritten = map[reflect.Type]string{
	reflect.TypeFor[wire.StopReason]():  "StopReason",
	reflect.TypeFor[CitationResponse](): "Citation",
	reflect.TypeFor[Filters]():          "Filters",
	reflect.TypeFor[StageEvent]():       "StageEvent",
}

// lenient lists the generated request schemas that allow fields they do
// not name: OpenAI clients send parameters assay ignores.
var lenient = map[string]bool{"ChatRequest": true, "ChatMessage": true}

// ChatSchemas returns the OpenAPI 3.0 component schemas of the
// OpenAI-compatible bodies, generated from the Go types of this package
// with invopop/jsonschema, so the document cannot drift from what the
// gateway encodes: a field without omitempty is required, unknown
// response fields are not allowed, and types documented by hand
// (StopReason, Citation, Filters, StageEvent) are referenced, not
// repeated. The result maps component names to schemas.
func ChatSchemas() (map[string]json.RawMessage, error) {
	r := jsonschema.Reflector{
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			if name, ok := handWritten[t]; ok {
				return schemaRef(name)
			}
			if t == reflect.TypeFor[ChatContent]() {
				return &jsonschema.Schema{
					Description: "A string, null, or an array of text parts.",
					OneOf: []*jsonschema.Schema{
						{Type: "string", Extras: map[string]any{"nullable": true}},
						{Type: "array", Items: schemaRef("ChatContentPart")},
					},
				}
			}
			return nil
		},
	}
	out := map[string]json.RawMessage{}
	for _, v := range []any{&ChatRequest{}, &ChatContentPart{}, &ChatCompletion{}, &ChatCompletionChunk{}, &ModelList{}, &OpenAIError{}} {
		s := r.Reflect(v)
		for name, def := range s.Definitions {
			b, err := json.Marshal(def)
			if err != nil {
				return nil, fmt.Errorf("api: schema of %s: %w", name, err)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(strings.ReplaceAll(string(b), "#/$defs/", "#/components/schemas/")), &m); err != nil {
				return nil, err
			}
			openAPI30(m)
			if lenient[name] {
				delete(m, "additionalProperties")
			}
			if b, err = json.Marshal(m); err != nil {
				return nil, err
			}
			out[name] = b
		}
	}
	return out, nil
}

// openAPI30 makes a generated schema valid OpenAPI 3.0: the nullable
// extra (a string from a struct tag) becomes a boolean, and a $ref stands
// alone.
func openAPI30(m map[string]any) {
	if v, ok := m["nullable"]; ok {
		m["nullable"] = v == true || v == "true"
	}
	if _, ok := m["$ref"]; ok {
		for k := range m {
			if k != "$ref" {
				delete(m, k)
			}
		}
	}
	for _, v := range m {
		switch v := v.(type) {
		case map[string]any:
			openAPI30(v)
		case []any:
			for _, x := range v {
				if xm, ok := x.(map[string]any); ok {
					openAPI30(xm)
				}
			}
		}
	}
}
