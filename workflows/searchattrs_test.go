package workflows

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.temporal.io/api/serviceerror"
)

func TestSearchAttributesPending(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{serviceerror.NewInvalidArgument("Namespace default has no mapping defined for search attribute AssayPrincipal"), true},
		{fmt.Errorf("start: %w", serviceerror.NewInvalidArgument("invalid query: column name 'AssayAttempts' is not a valid search attribute")), true},
		{serviceerror.NewNamespaceNotFound("default"), true},
		{serviceerror.NewUnavailable("connection refused"), true},
		{serviceerror.NewResourceExhausted(0, "busy"), true},
		{serviceerror.NewInvalidArgument("WorkflowId is not set"), false},
		{serviceerror.NewPermissionDenied("no", ""), false},
		{errors.New("AssayPrincipal"), false},
		{context.Canceled, false},
	} {
		if got := SearchAttributesPending(tc.err); got != tc.want {
			t.Errorf("SearchAttributesPending(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestSearchAttributesProbe: the probe names every attribute, with a
// value of its type, and can match no run.
func TestSearchAttributesProbe(t *testing.T) {
	q := searchAttributesProbe()
	for name := range searchAttributeTypes() {
		if !strings.Contains(q, name+" = ") {
			t.Errorf("probe %q does not name %s", q, name)
		}
	}
	if !strings.Contains(q, "AssayAttempts = 0") || !strings.Contains(q, "WorkflowId = 'assay-search-attribute-probe'") {
		t.Errorf("probe %q: want AssayAttempts compared with a number and a workflow id no run has", q)
	}
}
