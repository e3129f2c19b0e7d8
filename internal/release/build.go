package release

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/router"
)

// Runtime is the manifest of what a process configured with cfg and
// routing policy runs, without an index: its models and prompt digests,
// routing policy, reranker, loop defaults and thesaurus. A worker
// compares it with a release's (Compatible); Create completes it.
func Runtime(cfg config.Config, policy router.Policy) (Manifest, error) {
	pol, err := DigestJSON(policy)
	if err != nil {
		return Manifest{}, err
	}
	reranker, ok := rerank.Model(nil, cfg.Loop.Reranker)
	if !ok {
		return Manifest{}, fmt.Errorf("loop.reranker: unknown builtin reranker %q", cfg.Loop.Reranker)
	}
	rr, err := DigestJSON(reranker.Weights())
	if err != nil {
		return Manifest{}, err
	}
	backendName := cfg.Index.Backend
	if backendName == "" {
		backendName = config.BackendBleve
	}
	m := Manifest{
		Index:     IndexRef{Backend: backendName},
		Reranker:  "builtin/" + rr,
		Assessor:  ModelRef{Model: router.BuiltinAssessModel},
		Generator: ModelRef{Model: cfg.Loop.GeneratorModel()},
		Router:    router.PolicyVersion + "/" + pol,
		Loop:      LoopOf(cfg.Loop),
		Thesaurus: cfg.Loop.Thesaurus,
	}
	if cfg.LLM.BaseURL != "" {
		m.Assessor = ModelRef{Model: cfg.LLM.SmallModel, Prompt: prompt.AssessVersion()}
		m.Generator = ModelRef{Model: cfg.LLM.LargeModel, Prompt: prompt.Version()}
	}
	return m, nil
}

// LoopOf is the loop defaults configured in l, as a release records them.
func LoopOf(l config.Loop) Loop {
	return Loop{MaxAttempts: l.MaxAttempts, Threshold: l.Threshold, MaxTokens: l.MaxTokens,
		MaxCostUSD: l.MaxCostUSD, Deadline: l.Deadline, TopK: l.TopK}
}

// Source says where a new release's index version comes from.
type Source struct {
	// Corpus, when set, is built into an index version of the release's
	// own (bleve: the store's indexes/NAME; RediSearch: INDEX-rel-NAME).
	Corpus string
	// Served, without Corpus, makes the release use the served index
	// itself (IndexRef.Served); otherwise a bleve release gets a copy of
	// it, which later rebuilds leave alone (RediSearch releases always
	// name the served index then).
	Served bool
}

// Create makes release name from the runtime manifest rt and the index
// version src says, stores its manifest and a created status.
func Create(ctx context.Context, s Store, cfg config.Config, rt Manifest, name string, src Source, note string, log *slog.Logger) (Manifest, error) {
	if err := CheckName(name); err != nil {
		return Manifest{}, err
	}
	if _, err := s.Get(ctx, name); err == nil {
		return Manifest{}, errs.Errorf("release.Create", errs.Conflict, "release %s exists; releases are immutable: create one with another name", name)
	}
	m := rt
	m.Name, m.Note, m.CreatedAt = name, note, time.Now().UTC()
	var err error
	if m.Index, err = indexVersion(ctx, s, cfg, name, src, log); err != nil {
		return Manifest{}, err
	}
	m.Digest = ContentDigest(m)
	if err := s.Create(ctx, m); err != nil {
		return Manifest{}, err
	}
	return m, s.SetStatus(ctx, Status{Name: name, State: Created, UpdatedAt: m.CreatedAt})
}

func indexVersion(ctx context.Context, s Store, cfg config.Config, name string, src Source, log *slog.Logger) (IndexRef, error) {
	corpusPath := src.Corpus
	if cfg.Index.Backend == config.BackendRediSearch {
		return redisVersion(ctx, cfg, name, corpusPath, log)
	}
	if corpusPath == "" && src.Served {
		ix, err := bleveindex.Open(cfg.IndexDir())
		if err != nil {
			return IndexRef{}, err
		}
		defer ix.Close()
		return IndexRef{Backend: config.BackendBleve, Dir: cfg.IndexDir(), Served: true, Version: ix.Version(), Manifest: ix.Manifest()}, nil
	}
	fs, ok := s.(*FileStore)
	if !ok {
		return IndexRef{}, errs.Errorf("release.Create", errs.Invalid, "a bleve release needs the data dir's release store")
	}
	dir := fs.IndexDir(name)
	if err := os.RemoveAll(dir); err != nil { // a leftover of a failed create
		return IndexRef{}, err
	}
	if corpusPath != "" {
		set, err := live.DefaultBuild(cfg)
		if err != nil {
			return IndexRef{}, err
		}
		_, st, err := live.Build(ctx, corpusPath, dir, set)
		if err != nil {
			return IndexRef{}, fmt.Errorf("release %s: build its index from %s: %w", name, corpusPath, err)
		}
		log.Info("release index built", "release", name, "dir", dir, "documents", st.Documents, "chunks", st.Chunks, "took", st.Took.Round(time.Millisecond))
	} else if err := os.CopyFS(dir, os.DirFS(cfg.IndexDir())); err != nil {
		return IndexRef{}, fmt.Errorf("release %s: copy the served index %s: %w", name, cfg.IndexDir(), err)
	}
	ix, err := bleveindex.Open(dir)
	if err != nil {
		return IndexRef{}, err
	}
	defer ix.Close()
	return IndexRef{Backend: config.BackendBleve, Dir: dir, Version: ix.Version(), Manifest: ix.Manifest()}, nil
}

// redisVersion builds release name's own RediSearch index (named
// INDEX-rel-NAME) from corpusPath, or refers to the served index.
func redisVersion(ctx context.Context, cfg config.Config, name, corpusPath string, log *slog.Logger) (IndexRef, error) {
	if corpusPath != "" {
		cfg.Index.Name = cfg.Index.Name + "-rel-" + name
	}
	src, err := live.NewSource(ctx, cfg)
	if err != nil {
		return IndexRef{}, err
	}
	defer src.Close()
	if corpusPath != "" {
		set, err := live.DefaultBuild(cfg)
		if err != nil {
			return IndexRef{}, err
		}
		if _, _, err := src.BuildRediSearch(ctx, corpusPath, set); err != nil {
			return IndexRef{}, fmt.Errorf("release %s: build its index from %s: %w", name, corpusPath, err)
		}
		log.Info("release index built in Redis", "release", name, "name", cfg.Index.Name)
	}
	ix, err := src.Open(ctx, log, false)
	if err != nil {
		return IndexRef{}, err
	}
	defer ix.Close()
	return IndexRef{Backend: config.BackendRediSearch, Name: cfg.Index.Name, Served: corpusPath == "", Version: ix.Version(), Manifest: ix.Manifest()}, nil
}
