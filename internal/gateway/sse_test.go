package gateway

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/assay-rag/assay/internal/apiclient"
)

// sseBodyDecoder lets kin-openapi check an event stream against the
// document, which describes a text/event-stream body as the array of its
// events as a client's parser delivers them: {event, id, data}, with data
// decoded when it is JSON, event absent for untyped ("message") events,
// and no entry for comments or the retry hint.
func sseBodyDecoder(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	out := []any{}
	err := apiclient.ReadSSE(body, func(e apiclient.StreamEvent) error {
		ev := map[string]any{}
		if e.Type != "message" {
			ev["event"] = e.Type
		}
		if e.ID != "" {
			ev["id"] = e.ID
		}
		var v any
		if json.Unmarshal(e.Data, &v) == nil {
			ev["data"] = v
		} else {
			ev["data"] = string(e.Data)
		}
		out = append(out, ev)
		return nil
	})
	return out, err
}
