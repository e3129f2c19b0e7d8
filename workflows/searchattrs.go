package workflows

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
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
	// ReleaseKey is the release a run is pinned to (set at start), or
	// the release a ReleaseWorkflow drives.
	ReleaseKey = temporal.NewSearchAttributeKeyKeyword("AssayRelease")
)

// SearchAttributeTypes lists every assay search attribute and its type
// (a new map each call).
func SearchAttributeTypes() map[string]enumspb.IndexedValueType { return searchAttributeTypes() }

// searchAttributeTypes lists every assay search attribute and its type.
func searchAttributeTypes() map[string]enumspb.IndexedValueType {
	return map[string]enumspb.IndexedValueType{
		StopReasonKey.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		StatusKey.GetName():     enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		RouteKey.GetName():      enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		AttemptsKey.GetName():   enumspb.INDEXED_VALUE_TYPE_INT,
		PrincipalKey.GetName():  enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		ReleaseKey.GetName():    enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	}
}

// RegisterSearchAttributes adds assay's search attributes to namespace ns
// where they are missing, then waits until the frontend accepts them
// (AwaitSearchAttributes). It is idempotent, and it must run before any
// workflow upserts them: an unregistered attribute makes the workflow task
// fail and retry forever.
func RegisterSearchAttributes(ctx context.Context, c client.Client, ns string) error {
	if err := addSearchAttributes(ctx, c, ns); err != nil {
		return err
	}
	return AwaitSearchAttributes(ctx, c, ns, searchAttributesWait)
}

// searchAttributesWait bounds how long RegisterSearchAttributes waits for
// the frontend to accept attributes it has registered.
const searchAttributesWait = 2 * time.Minute

func addSearchAttributes(ctx context.Context, c client.Client, ns string) error {
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

// searchAttributesProbe is a visibility query that names every assay
// search attribute and matches no run. A frontend rejects it, as it
// rejects a start that sets them, until its caches know every attribute.
func searchAttributesProbe() string {
	names := slices.Sorted(maps.Keys(searchAttributeTypes()))
	parts := make([]string, 0, len(names)+1)
	for _, name := range names {
		if searchAttributeTypes()[name] == enumspb.INDEXED_VALUE_TYPE_INT {
			parts = append(parts, name+" = 0")
		} else {
			parts = append(parts, name+" = 'assay-probe'")
		}
	}
	return strings.Join(append(parts, "WorkflowId = 'assay-search-attribute-probe'"), " AND ")
}

// SearchAttributesAccepted asks namespace ns's frontend whether it
// accepts every assay search attribute now: nil when it does, otherwise
// the frontend's refusal. Registering attributes is not enough: a
// cluster's frontends learn of them when their caches refresh, and until
// then a start that sets them fails with "Namespace default has no
// mapping defined for search attribute AssayPrincipal".
func SearchAttributesAccepted(ctx context.Context, c client.Client, ns string) error {
	_, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Namespace: ns, Query: searchAttributesProbe()})
	if err != nil {
		return fmt.Errorf("the frontend does not accept assay's search attributes yet: %w", err)
	}
	return nil
}

// AwaitSearchAttributes waits, at most limit, until namespace ns's
// frontend accepts every assay search attribute. It returns at once an
// error that no wait can cure (permission denied, say); one that means
// "not yet" (SearchAttributesPending) is retried.
func AwaitSearchAttributes(ctx context.Context, c client.Client, ns string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	wait := 100 * time.Millisecond
	for {
		err := SearchAttributesAccepted(ctx, c, ns)
		if err == nil || !SearchAttributesPending(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("after %s: %w", limit, err)
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// SearchAttributesPending says err means "not yet": Temporal refused a
// call naming one of assay's search attributes as unknown (its caches
// have not caught up with the registration, or nobody registered them),
// or the namespace is not there yet, or the frontend is unavailable or
// busy. A caller may retry such an error later; it is not the caller's
// fault, nor a bug.
func SearchAttributesPending(err error) bool {
	var invalid *serviceerror.InvalidArgument
	var nsNotFound *serviceerror.NamespaceNotFound
	var unavailable *serviceerror.Unavailable
	var busy *serviceerror.ResourceExhausted
	switch {
	case errors.As(err, &nsNotFound), errors.As(err, &unavailable), errors.As(err, &busy):
		return true
	case errors.As(err, &invalid):
		for name := range searchAttributeTypes() {
			if strings.Contains(invalid.Error(), name) {
				return true
			}
		}
	}
	return false
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
	attrs := []temporal.SearchAttributeUpdate{
		StatusKey.ValueSet("running"),
		PrincipalKey.ValueSet(in.Principal.ID),
	}
	if in.Release != "" {
		attrs = append(attrs, ReleaseKey.ValueSet(in.Release))
	}
	return client.StartWorkflowOptions{
		ID:                       id,
		TaskQueue:                taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionTimeout: in.Budget.Deadline + time.Minute,
		Memo:                     map[string]any{"question": in.Question, "template": wire.TemplateDigest(in)},
		StaticSummary:            summary,
		StaticDetails:            StaticDetails(in),
		TypedSearchAttributes:    temporal.NewSearchAttributes(attrs...),
	}
}
