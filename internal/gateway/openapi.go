package gateway

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPI is the API's OpenAPI 3 document, written by hand next to the
// handlers; TestOpenAPI keeps it true to the routes and response shapes.
//
//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the OpenAPI 3 document served at /openapi.json.
func OpenAPI() []byte { return append([]byte(nil), openAPI...) }

func serveOpenAPI(c *gin.Context) {
	c.Data(http.StatusOK, "application/json", openAPI)
}
