package gateway

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/errs"
)

// decodeJSON reads exactly one JSON value into v: bounded size, valid
// UTF-8, no unknown fields, no trailing data. Errors name the field.
func decodeJSON(c *gin.Context, limit int64, v any) error {
	body, err := readBody(c, limit)
	if err != nil {
		return err
	}
	return api.StrictDecode(body, v)
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
