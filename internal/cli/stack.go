package cli

import (
	"context"
	"os"
	"time"

	"go.temporal.io/sdk/interceptor"

	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/workflows"
)

// StartStack starts the embedded default's back end: a local Temporal dev
// server on Config.Dev's ports with its data in Config.DataDir, a client
// of it with assay's search attributes registered, the index (BuildIndex
// is set) and a worker over it with the given interceptors. `assay dev`
// serves the gateway over it; StartTemporaryStack is the same on free
// ports. Close stops it all.
func (r *Root) StartStack(ctx context.Context, ics ...interceptor.WorkerInterceptor) (*devserver.Server, error) {
	srv, err := devserver.Start(ctx, r.devOptions())
	if err != nil {
		return nil, err
	}
	r.Config.Temporal.Address = srv.Address()
	r.onClose(func() error { return srv.Stop(15 * time.Second) })
	c, err := r.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := workflows.RegisterSearchAttributes(ctx, c, r.Config.Temporal.Namespace); err != nil {
		return nil, err
	}
	r.BuildIndex = true
	if _, err := r.StartWorker(ctx, ics...); err != nil {
		return nil, err
	}
	if r.Config.Worker.Versioning {
		// The dev stack's one worker is its whole deployment.
		if err := setCurrentBuild(ctx, c, r.Config.Worker); err != nil {
			return nil, err
		}
	}
	return srv, nil
}

// devOptions are the dev server's options from the configuration.
func (r *Root) devOptions() devserver.Options {
	return devserver.Options{
		Bin:       r.Config.Dev.TemporalBin,
		DataDir:   r.Config.DataDir,
		Port:      r.Config.Dev.TemporalPort,
		UIPort:    r.Config.Dev.UIPort,
		Namespace: r.Config.Temporal.Namespace,
		Logger:    r.Log,
		// With encrypted payloads the Web UI decodes them through the
		// gateway's codec endpoint, when there is a gateway.
		CodecEndpoint:         r.codecEndpoint,
		SearchAttributes:      workflows.SearchAttributeTypes(),
		KeepVisibilityIndexes: r.Config.Dev.KeepVisibilityIndexes,
	}
}

// StartTemporaryStack starts the stack in a fresh directory on a free
// port (the dev server's choice: devserver.Options.Port 0, chosen again
// should another process take it during start-up), without the Web UI and
// with the index in that directory (`assay eval answers`, `assay bench
// --embedded`). Close also removes the directory.
func (r *Root) StartTemporaryStack(ctx context.Context) (*devserver.Server, error) {
	dir, err := os.MkdirTemp("", "assay-eval-")
	if err != nil {
		return nil, err
	}
	r.onClose(func() error { return os.RemoveAll(dir) })
	r.Config.DataDir, r.Config.Index.Dir = dir, ""
	r.Config.Dev.TemporalPort, r.Config.Dev.UIPort = 0, 0
	return r.StartStack(ctx)
}
