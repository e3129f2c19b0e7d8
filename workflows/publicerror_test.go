package workflows

import (
	"context"
	"testing"

	"go.temporal.io/sdk/temporal"
)

// TestPublicErrorDeadline: context.DeadlineExceeded returned as is by an
// activity reaches the workflow, through the SDK's failure converter, as
// an application error of the SDK's naming; the caller is told "timeout"
// as for the SDK's own TimeoutError, not "internal".
func TestPublicErrorDeadline(t *testing.T) {
	fc := temporal.GetDefaultFailureConverter()
	err := fc.FailureToError(fc.ErrorToFailure(context.DeadlineExceeded))
	if got := publicError(err); got != "timeout" {
		t.Errorf("publicError(%v) = %q, want timeout", err, got)
	}
	fc2 := fc.FailureToError(fc.ErrorToFailure(context.Canceled))
	if got := publicError(fc2); got != "internal" {
		t.Errorf("publicError(%v) = %q, want internal", fc2, got)
	}
}
