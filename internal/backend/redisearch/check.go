package redisearch

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/errs"
)

// A Check is one request's staleness check of one version (Index.Check):
// the GET of the current pointer rides in the pipeline of the first
// command the request sends to Redis through that version (do, exec), so
// it costs no round trip of its own. Stale, asked once the request is
// done, reads that GET's answer, or sends the GET then when no command
// carried it (every chunk the request read was cached). The GET runs
// after the request began and before it is answered: a pointer that
// still names this version there names it at the request's start too
// (the pointer only moves forward), so an answer kept is never from a
// version older than the newest whole one when the request began; when
// the pointer moved, the caller discards the answer and runs the request
// again on the newest version.
type Check struct {
	ix       *Index
	claimed  atomic.Bool      // a command carries the GET
	get      *redis.StringCmd // the GET, set by the claimer
	answered atomic.Bool      // get holds Redis's answer
}

type checkKey struct{}

// Check returns ctx carrying a new staleness check of ix for a request's
// commands. When ix already knows a newer version is current, or a
// request's riding check found Redis not answering and no GET has been
// answered since (suspect), it returns ctx and nil: the caller checks
// first (Stale, bounded by staleWait), so a Redis that hangs fails the
// next requests within staleWait instead of each holding its first
// command until its deadline.
func (ix *Index) Check(ctx context.Context) (context.Context, *Check) {
	if ix.stale.Load() || ix.suspect.Load() {
		return ctx, nil
	}
	c := &Check{ix: ix}
	return context.WithValue(ctx, checkKey{}, c), c
}

// Stale reports whether a newer version than the one checked is current,
// from the GET a command of the request carried, or from a GET sent now
// when none did (Index.Stale). A GET that failed, or found no pointer, is
// an errs.Unavailable error: the caller fails the request. A version
// found gone by a read after the GET (its FT index or its statistics
// dropped: two builds during the request) is stale whatever the GET
// read: the caller runs the request again on the newest version.
func (c *Check) Stale(ctx context.Context) (bool, error) {
	if c.ix.stale.Load() {
		return true, nil
	}
	if !c.answered.Load() {
		return c.ix.Stale(ctx)
	}
	v, err := versionOf(c.get, c.ix.rdb, c.ix.name, "redisearch.Stale")
	return c.ix.verdict(v, err)
}

// Rode reports whether a command of the request carried the check's GET.
func (c *Check) Rode() bool { return c.answered.Load() }

// claim is ctx's check of ix when no command has carried it yet; the
// caller adds its GET to the pipeline it sends next.
func (ix *Index) claim(ctx context.Context) *Check {
	c, _ := ctx.Value(checkKey{}).(*Check)
	if c == nil || c.ix != ix || !c.claimed.CompareAndSwap(false, true) {
		return nil
	}
	return c
}

// dead is the error of a command of a request whose check (ctx's, of ix)
// already rode with a command and whose GET failed (Redis did not
// answer, or no pointer): Check.Stale fails such a request whatever its
// commands read, so do and exec send nothing more for it and fail at
// once, instead of each waiting for a Redis that hangs until the
// request's deadline. nil otherwise.
func (ix *Index) dead(ctx context.Context) error {
	c, _ := ctx.Value(checkKey{}).(*Check)
	if c == nil || c.ix != ix || !c.answered.Load() {
		return nil
	}
	if err := c.get.Err(); err != nil {
		return errs.Errorf("redisearch.Check", errs.Unavailable, "cannot confirm that %s is the current version (%s): the request's other commands are not sent", ix.vn, errs.Reason(err))
	}
	return nil
}

// done records that c's GET was answered, or failed: a failure other
// than a missing pointer or the request's own cancellation makes ix
// suspect (Check), an answer clears it.
func (c *Check) done() {
	switch err := c.get.Err(); {
	case err == nil || errors.Is(err, redis.Nil):
		c.ix.suspect.Store(false)
	case !errors.Is(err, context.Canceled):
		c.ix.suspect.Store(true)
	}
	c.answered.Store(true)
}

// do sends one command for a request; when ctx carries ix's check that no
// command carried yet, the check's GET goes in the same pipeline.
func (ix *Index) do(ctx context.Context, args ...any) *redis.Cmd {
	if err := ix.dead(ctx); err != nil {
		cmd := redis.NewCmd(ctx, args...)
		cmd.SetErr(err)
		return cmd
	}
	c := ix.claim(ctx)
	if c == nil {
		return ix.rdb.Do(ctx, args...)
	}
	pipe := ix.rdb.Pipeline()
	cmd := pipe.Do(ctx, args...)
	c.get = pipe.Get(ctx, currentKey(ix.name))
	pipe.Exec(ctx) // each command holds its own error
	c.done()
	return cmd
}

// exec sends pipe for a request as pipe.Exec does, with ctx's check's GET
// after its commands when no command carried it yet. Its error is the
// first of pipe's own commands', never the GET's (Check.Stale reports
// that).
func (ix *Index) exec(ctx context.Context, pipe redis.Pipeliner) error {
	if err := ix.dead(ctx); err != nil {
		pipe.Discard()
		return err
	}
	c := ix.claim(ctx)
	if c == nil {
		_, err := pipe.Exec(ctx)
		return err
	}
	n := pipe.Len()
	c.get = pipe.Get(ctx, currentKey(ix.name))
	cmds, err := pipe.Exec(ctx)
	c.done()
	if err == nil || len(cmds) < n {
		return err
	}
	for _, cmd := range cmds[:n] {
		if err := cmd.Err(); err != nil {
			return err
		}
	}
	return nil
}

// verdict is Stale's answer from the current pointer's value v (or the
// failure to read it).
func (ix *Index) verdict(v int, err error) (bool, error) {
	if err != nil {
		return false, errs.Errorf("redisearch.Stale", errs.Unavailable, "cannot confirm that %s is the current version: %s", ix.vn, errs.Reason(err))
	}
	if v != ix.m.Version {
		ix.stale.Store(true)
		return true, nil
	}
	return false, nil
}
