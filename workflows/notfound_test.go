package workflows

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/wire"
)

func TestNotFound(t *testing.T) {
	got := NotFound("do you sell electric scooters", []string{"electric scooters", "  ", "scooter products"})
	for _, want := range []string{"could not find", `"electric scooters"; "scooter products"`, "You could", "model"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("NotFound text %q does not contain %q", got.Text, want)
		}
	}
	if got.Model != wire.NotFoundModel || len(got.Citations) != 0 {
		t.Errorf("NotFound = model %q citations %v, want %q and none", got.Model, got.Citations, wire.NotFoundModel)
	}
}
