package gateway

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
)

// openAPIBase is the API's OpenAPI 3 document, written by hand next to the
// handlers; openAPIChat adds the OpenAI-compatible routes, whose body
// schemas api.ChatSchemas generates from the Go types. TestOpenAPI keeps
// the whole true to the routes and response shapes.
var (
	//go:embed openapi.json
	openAPIBase []byte
	//go:embed openapi_chat.json
	openAPIChat []byte
)

// openAPI is the document served at /openapi.json.
var openAPI = func() []byte {
	b, err := buildOpenAPI()
	if err != nil {
		panic("gateway: the OpenAPI document does not build: " + err.Error()) // embedded and generated: a build bug
	}
	return b
}()

// buildOpenAPI merges the chat paths and schemas into the base document.
// A name defined twice is an error.
func buildOpenAPI() ([]byte, error) {
	var doc, chat struct {
		Paths      map[string]json.RawMessage `json:"paths"`
		Components map[string]json.RawMessage `json:"components"`
	}
	var base map[string]json.RawMessage
	if err := json.Unmarshal(openAPIBase, &base); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	if err := json.Unmarshal(openAPIBase, &doc); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	if err := json.Unmarshal(openAPIChat, &chat); err != nil {
		return nil, fmt.Errorf("openapi_chat.json: %w", err)
	}
	var schemas, chatSchemas map[string]json.RawMessage
	if err := json.Unmarshal(doc.Components["schemas"], &schemas); err != nil {
		return nil, fmt.Errorf("openapi.json components.schemas: %w", err)
	}
	if err := json.Unmarshal(chat.Components["schemas"], &chatSchemas); err != nil {
		return nil, fmt.Errorf("openapi_chat.json components.schemas: %w", err)
	}
	generated, err := api.ChatSchemas()
	if err != nil {
		return nil, err
	}
	add := func(into, from map[string]json.RawMessage, what string) error {
		for k, v := range from {
			if _, dup := into[k]; dup {
				return fmt.Errorf("%s %q is defined twice", what, k)
			}
			into[k] = v
		}
		return nil
	}
	if err := add(doc.Paths, chat.Paths, "path"); err != nil {
		return nil, err
	}
	if err := add(schemas, chatSchemas, "schema"); err != nil {
		return nil, err
	}
	if err := add(schemas, generated, "schema"); err != nil {
		return nil, err
	}
	if doc.Components["schemas"], err = json.Marshal(schemas); err != nil {
		return nil, err
	}
	if base["paths"], err = json.Marshal(doc.Paths); err != nil {
		return nil, err
	}
	if base["components"], err = json.Marshal(doc.Components); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(base); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// OpenAPI returns the OpenAPI 3 document served at /openapi.json.
func OpenAPI() []byte { return append([]byte(nil), openAPI...) }

func serveOpenAPI(c *gin.Context) {
	c.Data(http.StatusOK, "application/json", openAPI)
}
