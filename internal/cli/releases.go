package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/internal/rollout"
	"github.com/assay-rag/assay/workflows"
)

// How releases reach assay's parts: the store every process reads
// (releaseStore), the worker's release.Set that serves each run's
// release (serveReleases), the gateway's pinner (releasePinner), the
// ReleaseWorkflow on the worker (registerReleases), and the "initial"
// release `assay dev` makes (ensureInitialRelease).

// releaseStore opens the release store of cfg: Redis in RediSearch mode
// (keys under assay:releases:INDEX), <data_dir>/releases otherwise.
func releaseStore(ctx context.Context, cfg config.Config) (release.Store, error) {
	if cfg.Index.Backend == config.BackendRediSearch {
		rdb := redisearch.NewClient(cfg.Redis.Addr, cfg.Redis.Password.Reveal())
		if err := redisearch.Ping(ctx, rdb); err != nil {
			rdb.Close()
			return nil, fmt.Errorf("release store: %w", err)
		}
		return &release.RedisStore{RDB: rdb, Prefix: release.RedisPrefix(cfg.Index.Name), Own: true}, nil
	}
	return release.NewFileStore(filepath.Join(cfg.DataDir, "releases"))
}

// releasePinner pins each new run to a release from cfg's store, which
// it opens on first use and keeps for the process's life.
func releasePinner(cfg config.Config) *release.Pinner {
	return &release.Pinner{Open: func(ctx context.Context) (release.Store, error) { return releaseStore(ctx, cfg) }, TTL: release.DefaultTTL}
}

// workerRuntime is the manifest of what this worker runs besides an
// index: its models, prompts and routing policy.
func workerRuntime(cfg config.Config, acts *activities.Activities) (release.Manifest, error) {
	return release.Runtime(cfg, acts.Routing)
}

// serveReleases makes the worker's searches, chunk reads and builtin
// assessments go to the index of each run's release (a run without one
// uses ix, as before releases).
func (r *Root) serveReleases(ctx context.Context, acts *activities.Activities, ix *live.Index) error {
	store, err := releaseStore(ctx, r.Config)
	if err != nil {
		return err
	}
	rt, err := workerRuntime(r.Config, acts)
	if err != nil {
		store.Close()
		return err
	}
	set := &release.Set{Base: ix, Store: store, Cfg: r.Config, Worker: rt, Log: r.Log}
	r.onClose(func() error { return errors.Join(set.Close(), store.Close()) })
	acts.Searcher, acts.Chunks, acts.Models.BuiltinAssessor = set, set, set
	return nil
}

// registerReleases puts the ReleaseWorkflow and its activities on w.
func (r *Root) registerReleases(ctx context.Context, w worker.Worker, c client.Client) error {
	store, err := releaseStore(ctx, r.Config)
	if err != nil {
		return err
	}
	r.onClose(store.Close)
	signer, err := r.Config.PrincipalSigner()
	if err != nil {
		return err
	}
	ra := &rollout.Activities{
		Store: store, Keep: release.DefaultKeep, Client: c, Namespace: r.Config.Temporal.Namespace,
		TaskQueue: r.Config.Temporal.TaskQueue, Template: r.Config.Loop.Template(), Concurrency: r.Config.Batch.Concurrency, Signer: signer,
	}
	if fs, ok := store.(*release.FileStore); ok {
		ra.Prune = fs.Prune
	}
	registerWorkflow(w, workflows.ReleaseWorkflow, workflows.ReleaseWorkflowName)
	w.RegisterActivity(ra)
	return nil
}

// ensureInitialRelease makes release "initial" from the index served and
// promotes it, when no release was ever promoted: the first `assay dev`.
// The release follows the served index (release.IndexRef.Served).
func (r *Root) ensureInitialRelease(ctx context.Context) error {
	store, err := releaseStore(ctx, r.Config)
	if err != nil {
		return err
	}
	defer store.Close()
	a, err := store.Active(ctx)
	if err != nil {
		return err
	}
	if a.Stable != "" {
		r.warnLoopDefaults(ctx, store, a.Stable)
		return nil
	}
	acts, err := r.Activities(ctx)
	if err != nil {
		return err
	}
	rt, err := workerRuntime(r.Config, acts)
	if err != nil {
		return err
	}
	const name = "initial"
	m, err := store.Get(ctx, name)
	if errs.Is(errs.NotFound, err) {
		m, err = release.Create(ctx, store, r.Config, rt, name, release.Source{Served: true}, "what the first assay dev served", r.Log)
	}
	if err != nil {
		return fmt.Errorf("release %s: %w", name, err)
	}
	if _, err := release.Promote(ctx, store, name, "the first release", release.DefaultKeep); err != nil {
		return err
	}
	r.Log.Info("release initial created and promoted", "digest", m.Digest, "index", m.Index.Version)
	return nil
}

// warnLoopDefaults says so when the stable release's loop defaults, which
// its runs start from, differ from the configured loop.*: a changed
// loop.max_attempts reaches runs through a new release, not a restart.
func (r *Root) warnLoopDefaults(ctx context.Context, store release.Store, stable string) {
	m, err := store.Get(ctx, stable)
	if err != nil {
		return
	}
	if cfg := release.LoopOf(r.Config.Loop); m.Loop != cfg && m.Loop != (release.Loop{}) {
		r.Log.Warn("runs start from the stable release's loop defaults, not the configured loop.*: create and promote a release to change them",
			"release", stable, "release_loop", fmt.Sprintf("%+v", m.Loop), "configured_loop", fmt.Sprintf("%+v", cfg))
	}
}
