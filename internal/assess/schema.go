package assess

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/assay-rag/assay/internal/errs"
)

// SchemaName names the assessment schema in a response_format.
const SchemaName = "assessment"

// schemaURL only names the schema inside the validator; nothing is fetched.
const schemaURL = "https://assay.invalid/assessment.json"

// schemaState is built once: the schema is a pure function of the type.
var schemaState = sync.OnceValues(func() (*schemaPair, error) {
	r := jsonschema.Reflector{
		DoNotReference:             true,
		ExpandedStruct:             true,
		RequiredFromJSONSchemaTags: false, // every field without omitempty is required
	}
	s := r.Reflect(&Assessment{})
	s.Version = "" // model endpoints want a bare object schema
	s.ID = ""
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	doc, err := validator.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := validator.NewCompiler()
	c.DefaultDraft(validator.Draft2020)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, err
	}
	return &schemaPair{raw: raw, compiled: compiled}, nil
})

type schemaPair struct {
	raw      json.RawMessage
	compiled *validator.Schema
}

// Schema returns the JSON schema of Assessment, generated from the Go type.
// It is sent to models as the response format and used to validate every
// reply, so the two can never disagree.
func Schema() json.RawMessage {
	s, err := schemaState()
	if err != nil {
		// The schema is derived from a fixed Go type; failing is a build bug.
		panic("assess: cannot build the assessment schema: " + err.Error())
	}
	return s.raw
}

// Parse validates a model's raw reply against the schema and the semantic
// checks, and decodes it. Every failure is an errs.Schema error whose text
// says what was wrong, fit to quote back to the model in a repair request.
func Parse(reply string) (Assessment, error) {
	const op = "assess.Parse"
	s, err := schemaState()
	if err != nil {
		return Assessment{}, errs.E(op, errs.Internal, err)
	}
	body := strings.TrimSpace(stripFence(reply))
	doc, err := validator.UnmarshalJSON(strings.NewReader(body))
	if err != nil {
		return Assessment{}, errs.E(op, errs.Schema, fmt.Errorf("the reply is not JSON: %v", err))
	}
	if err := s.compiled.Validate(doc); err != nil {
		var ve *validator.ValidationError
		if errors.As(err, &ve) {
			return Assessment{}, errs.E(op, errs.Schema, errors.New(flatten(ve)))
		}
		return Assessment{}, errs.E(op, errs.Schema, err)
	}
	var a Assessment
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		return Assessment{}, errs.E(op, errs.Schema, err)
	}
	if err := a.Check(); err != nil {
		return Assessment{}, err
	}
	return a, nil
}

// flatten puts the validator's multi-line report on one line.
func flatten(ve *validator.ValidationError) string {
	var parts []string
	for _, line := range strings.Split(ve.Error(), "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "- ")
		if line != "" && !strings.HasPrefix(line, "jsonschema validation failed") {
			parts = append(parts, line)
		}
	}
	return "schema violation: " + strings.Join(parts, "; ")
}

// stripFence removes a Markdown code fence some models wrap JSON in.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimPrefix(s, "json")
	return strings.TrimSuffix(strings.TrimSpace(s), "```")
}
