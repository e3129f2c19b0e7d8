package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/workflows"
)

// How Temporal Worker Versioning (worker.versioning) moves each workflow
// type's runs when a new build becomes a deployment's current version:
//
//   - AnswerWorkflow and BatchWorkflow are Pinned: a run, and a batch's
//     questions, finish on the build they started on, so a deploy never
//     replays a run's history on other code; the old build's workers
//     drain them. They are short (a deadline of minutes).
//   - ReleaseWorkflow is AutoUpgrade: a release takes minutes to hours
//     and may wait days for approval, and a Pinned one would keep the old
//     build's workers alive until it ends. It moves to the current build
//     at its next workflow task; the replay tests (workflows/testdata/
//     release) and workflow.GetVersion guard that the new code replays
//     its history.
var versioningBehaviors = map[string]workflow.VersioningBehavior{
	workflows.AnswerWorkflowName:  workflow.VersioningBehaviorPinned,
	workflows.BatchWorkflowName:   workflow.VersioningBehaviorPinned,
	workflows.ReleaseWorkflowName: workflow.VersioningBehaviorAutoUpgrade,
}

// registerWorkflow registers wf on w under name with its versioning
// behavior (which an unversioned worker ignores).
func registerWorkflow(w worker.Registry, wf any, name string) {
	w.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: name, VersioningBehavior: versioningBehaviors[name]})
}

// deploymentOptions are the worker's Worker Versioning options: none
// unless worker.versioning is set.
func deploymentOptions(w config.Worker) worker.DeploymentOptions {
	if !w.Versioning {
		return worker.DeploymentOptions{}
	}
	return worker.DeploymentOptions{
		UseVersioning: true,
		Version:       worker.WorkerDeploymentVersion{DeploymentName: w.DeploymentName, BuildID: buildID(w)},
	}
}

// buildID is the worker's build id: worker.build_id, else the binary's
// version (`make build` links in `git describe`), else its VCS revision
// as `go build` records it ("-dirty" when modified), else "dev".
func buildID(w config.Worker) string {
	if w.BuildID != "" {
		return w.BuildID
	}
	if version != "dev" && version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision":
				rev = s.Value
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = "-dirty"
			}
		}
		if rev != "" {
			return rev[:min(12, len(rev))] + dirty
		}
	}
	return "dev"
}

// setCurrentBuild makes the worker's build the current version of its
// deployment, waiting for the server to know the version (it learns of it
// from the worker's first polls). `assay dev` does this: its one worker is
// the whole deployment.
func setCurrentBuild(ctx context.Context, c client.Client, w config.Worker) error {
	h := c.WorkerDeploymentClient().GetHandle(w.DeploymentName)
	id := buildID(w)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		_, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: id})
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("make build %s the current version of worker deployment %s: %w", id, w.DeploymentName, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// versioningSettings declares the Worker Versioning flags of the commands
// that run a worker.
func versioningSettings(f *flags) {
	f.setting("versioning", "worker.versioning", "`true` to poll as a build of a Temporal worker deployment (Worker Versioning; default false)")
	f.setting("deployment-name", "worker.deployment_name", "Temporal worker deployment `name` (default assay)")
	f.setting("build-id", "worker.build_id", "this worker's build `id` in the deployment (default: the binary's version)")
}
