package gateway

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/sync/singleflight"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// Quota bounds what one principal may have running and spend; zero
// fields are unlimited (config.Quota documents each).
type Quota struct {
	MaxQuestionsInFlight int
	MaxBatchesInFlight   int
	MaxCostPerDayUSD     float64
}

// quotaError is a 429 naming the quota that refused a run and when to
// retry.
type quotaError struct {
	quota string // the config key, e.g. quota.max_batches_in_flight
	msg   string
	retry time.Duration
}

func (e *quotaError) Error() string { return e.quota + ": " + e.msg }

// asErr is the quota refusal as the API's error (429, field the quota).
func (e *quotaError) asErr() error {
	return &errs.Error{Op: "gateway.quota", Kind: errs.RateLimited, Field: e.quota, Err: fmt.Errorf("%s", e.msg)}
}

// writeQuotaError answers a quota refusal: 429 with Retry-After.
func writeQuotaError(c *gin.Context, e *quotaError) {
	c.Header("Retry-After", strconv.Itoa(max(int(math.Ceil(e.retry.Seconds())), 1)))
	writeError(c, e.asErr())
}

// inFlightRetry is the Retry-After of an in-flight cap: a run ends within
// seconds to minutes.
const inFlightRetry = 5 * time.Second

// inFlightFresh is how old a principal's count of runs in flight may be
// when the estimate built on it stays below the cap.
const inFlightFresh = time.Second

// inFlightCounts spares a start the visibility query behind an in-flight
// cap while a principal is well below it. A count of a principal's runs
// from Temporal is reused for inFlightFresh, plus the runs this gateway
// admitted since; an estimate at or past the cap is always counted again,
// so a refusal is decided on a fresh count (runs that ended free their
// place at once). Starts that need a count at the same time share one
// query. Between two counts, runs other gateways started are not seen:
// the cap can be passed by what they start within that second.
// Measured on assay dev (Hollin, builtin models, assay bench --embedded):
// a visibility count on every start cost 15% of throughput at 1 in
// flight and 20% at 8, and multiplied p99 at 8 by about five. On a
// Temporal cluster on PostgreSQL with 32 in flight, a count per start
// whose estimate was stale (without the shared query) took up to 6.8 s:
// the frontend rate-limits visibility queries (docs/operations-cluster.md).
type inFlightCounts struct {
	mu     sync.Mutex
	m      map[inFlightKey]*inFlightCount
	shared singleflight.Group
	seq    atomic.Uint64 // orders the counts
}

type inFlightKey struct {
	principal string
	kind      Kind
}

type inFlightCount struct {
	n, since int // the last count, and runs admitted after it
	at       time.Time
	seq      uint64
}

// inFlightCountFor bounds a shared count: it outlives the request that
// began it, since others wait on it.
const inFlightCountFor = 30 * time.Second

// count returns the principal's runs of kind in flight (an estimate below
// limit, a fresh count otherwise) and counts the run being admitted in
// the estimates that follow when it is below limit.
func (c *inFlightCounts) count(ctx context.Context, eng Engine, principal string, kind Kind, limit int, now time.Time) (int, error) {
	key := inFlightKey{principal, kind}
	c.mu.Lock()
	if e := c.m[key]; e != nil && now.Sub(e.at) < inFlightFresh && e.n+e.since < limit {
		n := e.n + e.since
		e.since++
		c.mu.Unlock()
		return n, nil
	}
	c.mu.Unlock()
	ch := c.shared.DoChan(string(kind)+"\x00"+principal, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), inFlightCountFor)
		defer cancel()
		seq := c.seq.Add(1)
		n, err := eng.Running(ctx, principal, kind)
		return &inFlightCount{n: n, at: now, seq: seq}, err
	})
	var counted *inFlightCount
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return 0, r.Err
		}
		counted = r.Val.(*inFlightCount)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 10000 {
		c.m = map[inFlightKey]*inFlightCount{} // a bound, not an eviction policy: entries live a second
	}
	e := c.m[key]
	if e == nil || e.seq < counted.seq {
		// The first of the starts that shared this count to get here
		// keeps it; the others add to what it admitted since.
		e = counted
		c.m[key] = e
	}
	n := e.n + e.since
	if n < limit {
		e.since++
	}
	return n, nil
}

// costLedger keeps each principal's reserved cost for the current UTC
// day. It is this process's: gateways behind one balancer each keep their
// own (docs/operations.md says so).
type costLedger struct {
	mu    sync.Mutex
	day   string
	spent map[string]float64
}

// reserve adds cost to principal's day at now unless that passes limit;
// it returns the cost to give back if the run does not start.
func (l *costLedger) reserve(principal string, cost, limit float64, now time.Time) (func(), *quotaError) {
	now = now.UTC()
	day := now.Format(time.DateOnly)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.day != day {
		l.day, l.spent = day, map[string]float64{}
	}
	if have := l.spent[principal]; have+cost > limit+1e-9 {
		midnight := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
		return nil, &quotaError{quota: "quota.max_cost_per_day_usd", retry: midnight.Sub(now),
			msg: fmt.Sprintf("principal %q has reserved $%.4f of its $%.4f a day, and this request needs $%.4f (each run reserves its whole cost budget); retry after 00:00 UTC, or lower max_cost_usd", principal, have, limit, cost)}
	}
	l.spent[principal] += cost
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.day == day {
			l.spent[principal] -= cost
		}
	}, nil
}

// admit applies the principal's quotas to a new run of kind asking
// questions questions (1 for a question) with input in: the key's rate
// (one unit per question; the request itself spent the first), the
// in-flight caps, and the daily cost. A replayed idempotency key that
// names an existing run is not a new run and passes. release gives back
// the cost reserved if the run then fails to start.
func (s *Server) admit(ctx context.Context, p auth.Principal, kind Kind, id, key string, in wire.AnswerInput, questions int) (release func(), err error) {
	release = func() {}
	if key != "" {
		if _, err := s.opts.Engine.Describe(ctx, id); err == nil {
			return release, nil
		} else if !errs.Is(errs.NotFound, err) {
			return release, err
		}
	}
	if questions > 1 {
		if burst := s.opts.Keyring.Burst(p.ID); burst > 0 && questions > burst {
			return release, errs.FieldError("gateway.quota", "questions", fmt.Sprintf(
				"has %d questions; key %q may ask %d a minute (auth.keys[].rate_per_minute; each question counts): split the batch", questions, p.ID, burst))
		}
		if ok, wait := s.opts.Keyring.AllowN(p.ID, s.opts.Now(), questions-1); !ok {
			return release, &quotaError{quota: "rate_per_minute", retry: wait, msg: fmt.Sprintf(
				"rate limit of key %q spent: a batch counts each of its %d questions; retry in %ds", p.ID, questions, max(int(math.Ceil(wait.Seconds())), 1))}
		}
	}
	q := s.opts.Quota
	limit, name, what := q.MaxQuestionsInFlight, "quota.max_questions_in_flight", "questions"
	if kind == KindBatch {
		limit, name, what = q.MaxBatchesInFlight, "quota.max_batches_in_flight", "batches"
	}
	if limit > 0 {
		n, err := s.inFlight.count(ctx, s.opts.Engine, p.ID, kind, limit, s.opts.Now())
		if err != nil {
			return release, err
		}
		if n >= limit {
			return release, &quotaError{quota: name, retry: inFlightRetry, msg: fmt.Sprintf(
				"principal %q has %d %s running, the most it may (%s = %d); retry when one ends", p.ID, n, what, name, limit)}
		}
	}
	if q.MaxCostPerDayUSD > 0 {
		cost := in.Budget.MaxCostUSD * float64(questions)
		if cost <= 0 {
			return release, &quotaError{quota: "quota.max_cost_per_day_usd", retry: time.Hour,
				msg: "a run without a cost budget cannot be admitted under a daily cost quota; set loop.max_cost_usd"}
		}
		r, qerr := s.costs.reserve(p.ID, cost, q.MaxCostPerDayUSD, s.opts.Now())
		if qerr != nil {
			return release, qerr
		}
		release = r
	}
	return release, nil
}

// admitOrAnswer runs admit and answers its refusal; it reports whether
// the run may start.
func (s *Server) admitOrAnswer(c *gin.Context, kind Kind, id, key string, in wire.AnswerInput, questions int) (func(), bool) {
	release, err := s.admit(c.Request.Context(), principal(c), kind, id, key, in, questions)
	if err == nil {
		return release, true
	}
	if qe, ok := err.(*quotaError); ok {
		writeQuotaError(c, qe)
	} else {
		writeError(c, err)
	}
	return nil, false
}
