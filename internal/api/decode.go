package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/assay-rag/assay/internal/errs"
)

// StrictDecode decodes exactly one JSON value with no unknown fields. Its
// errors are errs.Invalid and name the field (body for the value as a
// whole).
func StrictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError("api.decode", err)
	}
	if dec.More() {
		return errs.FieldError("api.decode", "body", "has data after the JSON value")
	}
	return nil
}

// PrefixField re-roots a field error under prefix: "body" becomes prefix,
// "x" becomes prefix.x.
func PrefixField(prefix string, err error) error {
	f := errs.FieldOf(err)
	switch {
	case f == "" || f == "body":
		f = prefix
	case strings.HasPrefix(f, "["):
		f = prefix + f
	default:
		f = prefix + "." + f
	}
	return errs.FieldError("api.decode", f, errs.Reason(err))
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
