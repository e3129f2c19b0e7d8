package workflows

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/assay-rag/assay/internal/wire"
)

// Search attributes assay sets on its workflows, so operators can filter
// runs in the Web UI and with `temporal workflow list --query`.
var (
	StopReasonKey = temporal.NewSearchAttributeKeyKeyword("AssayStopReason")
	StatusKey     = temporal.NewSearchAttributeKeyKeyword("AssayStatus")
	RouteKey      = temporal.NewSearchAttributeKeyKeyword("AssayRoute")
	AttemptsKey   = temporal.NewSearchAttributeKeyInt64("AssayAttempts")
	PrincipalKey  = temporal.NewSearchAttributeKeyKeyword("AssayPrincipal")
)

// searchAttributeTypes lists every assay search attribute and its type.
func searchAttributeTypes() map[string]enumspb.IndexedValueType {
	return map[string]enumspb.IndexedValueType{
		StopReasonKey.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		StatusKey.GetName():     enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		RouteKey.GetName():      enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		AttemptsKey.GetName():   enumspb.INDEXED_VALUE_TYPE_INT,
		PrincipalKey.GetName():  enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	}
}

// RegisterSearchAttributes adds assay's search attributes to namespace ns
// where they are missing. It is idempotent, and it must run before any
// workflow upserts them: an unregistered attribute makes the workflow task
// fail and retry forever.
func RegisterSearchAttributes(ctx context.Context, c client.Client, ns string) error {
	existing, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
	if err != nil {
		return fmt.Errorf("list search attributes: %w", err)
	}
	missing := map[string]enumspb.IndexedValueType{}
	for name, typ := range searchAttributeTypes() {
		have, ok := existing.GetCustomAttributes()[name]
		switch {
		case !ok:
			missing[name] = typ
		case have != typ:
			return fmt.Errorf("search attribute %s exists with type %s, assay needs %s", name, have, typ)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace: ns, SearchAttributes: missing,
	})
	if err != nil {
		return fmt.Errorf("add search attributes: %w", err)
	}
	return nil
}

// StartOptions are the options every AnswerWorkflow start uses: the id, a
// memo holding the question and its TemplateDigest, the search attributes known at start, and an
// execution timeout a little past the run's own deadline (the workflow
// enforces its deadline itself; the timeout is the backstop).
func StartOptions(id, taskQueue string, in wire.AnswerInput) client.StartWorkflowOptions {
	summary := in.Question
	if r := []rune(summary); len(r) > 200 {
		summary = string(r[:200]) + "…"
	}
	return client.StartWorkflowOptions{
		ID:                       id,
		TaskQueue:                taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionTimeout: in.Budget.Deadline + time.Minute,
		Memo:                     map[string]any{"question": in.Question, "template": wire.TemplateDigest(in)},
		StaticSummary:            summary,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			StatusKey.ValueSet("running"),
			PrincipalKey.ValueSet(in.Principal.ID),
		),
	}
}
