package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/errs"
)

// strictDecode decodes exactly one JSON value with no unknown fields.
func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError("gateway.decode", err)
	}
	if dec.More() {
		return errs.FieldError("gateway.decode", "body", "has data after the JSON value")
	}
	return nil
}

// prefixField re-roots a field error under prefix: "body" becomes prefix,
// "x" becomes prefix.x.
func prefixField(prefix string, err error) error {
	f := errs.FieldOf(err)
	switch {
	case f == "" || f == "body":
		f = prefix
	case strings.HasPrefix(f, "["):
		f = prefix + f
	default:
		f = prefix + "." + f
	}
	return errs.FieldError("gateway.decode", f, publicMessage(err))
}

// decodeJSON reads exactly one JSON value into v: bounded size, valid
// UTF-8, no unknown fields, no trailing data. Errors name the field.
func decodeJSON(c *gin.Context, limit int64, v any) error {
	body, err := readBody(c, limit)
	if err != nil {
		return err
	}
	return strictDecode(body, v)
}

// readBody reads the whole request body, at most limit bytes of valid
// UTF-8.
func readBody(c *gin.Context, limit int64) ([]byte, error) {
	const op = "gateway.decode"
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &errs.Error{Op: op, Kind: errs.TooLarge, Field: "body", Err: fmt.Errorf("larger than %d bytes", limit)}
		}
		return nil, errs.FieldError(op, "body", "could not be read")
	}
	if !utf8.Valid(body) {
		return nil, errs.FieldError(op, "body", "is not valid UTF-8")
	}
	return body, nil
}

func jsonError(op string, err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var domainErr *errs.Error
	switch {
	case errors.As(err, &domainErr): // from a field's own UnmarshalJSON
		return err
	case errors.Is(err, io.EOF):
		return errs.FieldError(op, "body", "is empty; want a JSON object")
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "body"
		}
		return errs.FieldError(op, field, fmt.Sprintf("want %s, got JSON %s", jsonType(typeErr.Type.Kind().String()), typeErr.Value))
	case errors.As(err, &syntaxErr):
		return errs.FieldError(op, "body", fmt.Sprintf("is not valid JSON (offset %d): %v", syntaxErr.Offset, syntaxErr))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		if name == "" { // {"": ...}: no name to point at
			return errs.FieldError(op, "body", `has an unknown field with an empty name ""`)
		}
		return errs.FieldError(op, name, "unknown field")
	}
	return errs.FieldError(op, "body", "is not valid JSON: "+err.Error())
}

func jsonType(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64", "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return goKind
}
