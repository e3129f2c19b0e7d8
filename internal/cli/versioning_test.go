package cli

import (
	"context"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"log/slog"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/workflows"
)

// TestVersioningBehaviors: answer and batch runs are pinned to their
// build, release runs move to the current one; no workflow assay
// registers is left without a behavior.
func TestVersioningBehaviors(t *testing.T) {
	want := map[string]workflow.VersioningBehavior{
		workflows.AnswerWorkflowName:  workflow.VersioningBehaviorPinned,
		workflows.BatchWorkflowName:   workflow.VersioningBehaviorPinned,
		workflows.ReleaseWorkflowName: workflow.VersioningBehaviorAutoUpgrade,
	}
	for name, b := range want {
		if got := versioningBehaviors[name]; got != b {
			t.Errorf("%s: versioning behavior %v, want %v", name, got, b)
		}
	}
	if len(versioningBehaviors) != len(want) {
		t.Errorf("versioning behaviors for %d workflow types, want %d", len(versioningBehaviors), len(want))
	}
	if o := deploymentOptions(config.Worker{DeploymentName: "assay"}); o.UseVersioning {
		t.Error("an unversioned worker's options use versioning")
	}
	o := deploymentOptions(config.Worker{Versioning: true, DeploymentName: "assay", BuildID: "b7"})
	if !o.UseVersioning || o.Version.DeploymentName != "assay" || o.Version.BuildID != "b7" {
		t.Errorf("deployment options %+v; want versioning as assay/b7", o)
	}
	if id := buildID(config.Worker{}); id == "" {
		t.Error("the default build id is empty")
	}
}

// TestWorkerVersioningPinned runs Worker Versioning on the pinned dev
// server (bin/temporal): two workers of deployment assay-test, builds A
// and B, on one task queue, registering stand-ins under assay's workflow
// type names with assay's registration (registerWorkflow, and
// workerOptions for the deployment). Each stand-in runs an activity that
// names the build it ran on, waits for a signal, and runs it again.
// Started while A is current, then B made current
// (SetCurrentVersion, what `temporal worker deployment
// set-current-version` calls), then signalled:
//   - the AnswerWorkflow run (Pinned) runs both activities on A;
//   - the ReleaseWorkflow run (AutoUpgrade) runs the second on B;
//   - an AnswerWorkflow run started after the switch runs on B.
func TestWorkerVersioningPinned(t *testing.T) {
	bin := devservertest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := devserver.Start(ctx, devserver.Options{Bin: bin, DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(5 * time.Second)
	c, err := client.DialContext(ctx, client.Options{HostPort: srv.Address(), Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	const queue, deployment = "versioning-test", "assay-test"
	start := func(build string) worker.Worker {
		cfg := config.Worker{Versioning: true, DeploymentName: deployment, BuildID: build}
		w := worker.New(c, queue, workerOptions(cfg, nil))
		registerWorkflow(w, probeWorkflow, workflows.AnswerWorkflowName)
		registerWorkflow(w, probeWorkflow, workflows.ReleaseWorkflowName)
		w.RegisterActivityWithOptions(func(context.Context) (string, error) { return build, nil }, activity.RegisterOptions{Name: "Build"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
		return w
	}
	start("A")
	if err := setCurrentBuild(ctx, c, config.Worker{DeploymentName: deployment, BuildID: "A"}); err != nil {
		t.Fatal(err)
	}
	run := func(id, typ string) client.WorkflowRun {
		r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, typ)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	answer := run("answer-1", workflows.AnswerWorkflowName)
	rel := run("release-1", workflows.ReleaseWorkflowName)
	for _, id := range []string{"answer-1", "release-1"} {
		waitFirstBuild(ctx, t, c, id)
	}
	start("B")
	if err := setCurrentBuild(ctx, c, config.Worker{DeploymentName: deployment, BuildID: "B"}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"answer-1", "release-1"} {
		if err := c.SignalWorkflow(ctx, id, "", "go", nil); err != nil {
			t.Fatal(err)
		}
	}
	later := run("answer-2", workflows.AnswerWorkflowName)
	if err := c.SignalWorkflow(ctx, "answer-2", "", "go", nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		run  client.WorkflowRun
		want [2]string
		what string
	}{
		{answer, [2]string{"A", "A"}, "AnswerWorkflow started on A, B made current mid-run (Pinned)"},
		{rel, [2]string{"A", "B"}, "ReleaseWorkflow started on A, B made current mid-run (AutoUpgrade)"},
		{later, [2]string{"B", "B"}, "AnswerWorkflow started after B was made current"},
	} {
		var got [2]string
		if err := tc.run.Get(ctx, &got); err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		if got != tc.want {
			t.Errorf("%s: ran on builds %v, want %v", tc.what, got, tc.want)
		} else {
			t.Logf("%s: builds %v", tc.what, got)
		}
	}
}

// probeWorkflow names the build its activity ran on before and after a
// "go" signal; the query "first" answers once the first has run.
func probeWorkflow(ctx workflow.Context) ([2]string, error) {
	var out [2]string
	if err := workflow.SetQueryHandler(ctx, "first", func() (string, error) { return out[0], nil }); err != nil {
		return out, err
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteActivity(actx, "Build").Get(ctx, &out[0]); err != nil {
		return out, err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	err := workflow.ExecuteActivity(actx, "Build").Get(ctx, &out[1])
	return out, err
}

// waitFirstBuild waits until run id has run its first activity.
func waitFirstBuild(ctx context.Context, t *testing.T, c client.Client, id string) {
	t.Helper()
	for {
		v, err := c.QueryWorkflow(ctx, id, "", "first")
		var s string
		if err == nil && v.Get(&s) == nil && s != "" {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s did not run its first activity: %v", id, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
