package tokens

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisPrefix starts the name of every run's channel.
const DefaultRedisPrefix = "assay:tokens:"

// Timeouts of the Redis transport.
const (
	redisPublishTimeout   = 2 * time.Second
	redisSubscribeTimeout = 5 * time.Second
	redisDrainTimeout     = 2 * time.Second
)

// RedisOptions configure a Redis transport.
type RedisOptions struct {
	// Addr is the server's host:port (required).
	Addr     string
	Password string
	// Prefix starts channel names; default DefaultRedisPrefix. Runs
	// share nothing else, so deployments sharing a server need their own.
	Prefix string
	// Queue bounds the pieces waiting to be published; default 1024.
	// When it is full the oldest waiting piece is dropped.
	Queue int
	// Buffer bounds each subscription, as NewHub's buffer.
	Buffer int
	Logger *slog.Logger
}

// Redis carries pieces between processes over Redis pub/sub, one channel
// per run. Publish only queues: one goroutine sends the queue in order,
// so neither a slow server nor a slow subscriber holds up a model call.
// All subscriptions of a process share one connection and are fanned out
// by an in-process Hub; a run's channel is subscribed while somebody in
// the process follows it. Pub/sub keeps nothing: pieces published while
// nobody listens, or while the connection is down, are lost.
type Redis struct {
	client *redis.Client
	prefix string
	log    *slog.Logger

	queue     chan redisMsg
	dropped   atomic.Int64
	stop      chan struct{}
	published chan struct{} // closed when the publishing goroutine ends

	local *Hub

	mu       sync.Mutex
	closed   bool
	ps       *redis.PubSub
	received chan struct{} // closed when the receiving goroutine ends
	chans    map[string]*redisChan
}

type redisMsg struct {
	channel string
	data    []byte
}

// redisChan is a run's channel subscription; ready closes when the
// server confirms it.
type redisChan struct {
	ready     chan struct{}
	confirmed bool
}

// NewRedis returns a Redis transport. It does not connect: Ping checks
// the server. A bad option is an error naming it.
func NewRedis(opts RedisOptions) (*Redis, error) {
	if opts.Addr == "" {
		return nil, errors.New("tokens.NewRedis: addr must not be empty")
	}
	if _, _, err := net.SplitHostPort(opts.Addr); err != nil {
		return nil, fmt.Errorf("tokens.NewRedis: addr: want host:port, got %q", opts.Addr)
	}
	if opts.Queue < 0 || opts.Buffer < 0 {
		return nil, errors.New("tokens.NewRedis: queue and buffer must not be negative")
	}
	if opts.Prefix == "" {
		opts.Prefix = DefaultRedisPrefix
	}
	if opts.Queue == 0 {
		opts.Queue = 1024
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	r := &Redis{
		client:    redis.NewClient(&redis.Options{Addr: opts.Addr, Password: opts.Password}),
		prefix:    opts.Prefix,
		log:       opts.Logger.With("component", "tokens.redis"),
		queue:     make(chan redisMsg, opts.Queue),
		stop:      make(chan struct{}),
		published: make(chan struct{}),
		local:     NewHub(opts.Buffer),
		chans:     map[string]*redisChan{},
	}
	r.local.onIdle = r.release
	go r.publishLoop()
	return r, nil
}

// Ping checks that the server answers.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("tokens: redis at %s: %w", r.client.Options().Addr, err)
	}
	return nil
}

// Dropped is how many pieces were dropped before publishing because the
// queue was full.
func (r *Redis) Dropped() int64 { return r.dropped.Load() }

// Publish queues p for run's channel and returns at once; when the queue
// is full the oldest queued piece is dropped. Errors: an empty run id,
// ErrClosed.
func (r *Redis) Publish(run string, p Piece) error {
	if run == "" {
		return errNoRun
	}
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	select {
	case <-r.stop:
		return ErrClosed
	default:
	}
	m := redisMsg{channel: r.prefix + run, data: data}
	for {
		select {
		case r.queue <- m:
			return nil
		default:
		}
		select {
		case <-r.queue:
			r.dropped.Add(1)
		default:
		}
	}
}

// publishLoop sends the queue in order until Close, then what is left
// within redisDrainTimeout. A failing server is logged when it starts and
// stops failing, not once per piece.
func (r *Redis) publishLoop() {
	defer close(r.published)
	failing := false
	send := func(m redisMsg) {
		ctx, cancel := context.WithTimeout(context.Background(), redisPublishTimeout)
		err := r.client.Publish(ctx, m.channel, m.data).Err()
		cancel()
		switch {
		case err != nil && !failing:
			r.log.Warn("publishing answer tokens failed; dropping them until redis answers", "error", err)
		case err == nil && failing:
			r.log.Info("publishing answer tokens again")
		}
		failing = err != nil
	}
	for {
		select {
		case m := <-r.queue:
			send(m)
		case <-r.stop:
			for deadline := time.Now().Add(redisDrainTimeout); time.Now().Before(deadline); {
				select {
				case m := <-r.queue:
					send(m)
				default:
					return
				}
			}
			return
		}
	}
}

// Subscribe returns a subscription to run's pieces once the server has
// confirmed the channel subscription, so that every piece published after
// Subscribe returns is delivered (connection trouble aside). The caller
// must Close it. Errors: an empty run id, ErrClosed, a server that does
// not confirm within ctx or 5 seconds.
func (r *Redis) Subscribe(ctx context.Context, run string) (*Subscription, error) {
	if run == "" {
		return nil, errNoRun
	}
	sub, err := r.local.Subscribe(ctx, run)
	if err != nil {
		return nil, err
	}
	ready, err := r.acquire(ctx, run)
	if err != nil {
		sub.Close()
		return nil, err
	}
	wait, cancel := context.WithTimeout(ctx, redisSubscribeTimeout)
	defer cancel()
	select {
	case <-ready:
		return sub, nil
	case <-wait.Done():
		sub.Close()
		return nil, fmt.Errorf("tokens: redis did not confirm the subscription to %s: %w", r.prefix+run, wait.Err())
	}
}

// acquire makes sure run's channel is subscribed and returns the channel
// that closes once it is confirmed. Subscribe and unsubscribe commands
// are written under r.mu, so they reach the server in the order of the
// decisions.
func (r *Redis) acquire(ctx context.Context, run string) (<-chan struct{}, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if c := r.chans[run]; c != nil {
		return c.ready, nil
	}
	if r.ps == nil {
		r.ps = r.client.Subscribe(ctx)
		r.received = make(chan struct{})
		go r.receiveLoop(r.ps.ChannelWithSubscriptions(redis.WithChannelSize(1024)))
	}
	if err := r.ps.Subscribe(ctx, r.prefix+run); err != nil {
		return nil, fmt.Errorf("tokens: redis subscribe %s: %w", r.prefix+run, err)
	}
	c := &redisChan{ready: make(chan struct{})}
	r.chans[run] = c
	return c.ready, nil
}

// release unsubscribes run's channel when the process's last subscription
// to it has closed (the Hub calls it).
func (r *Redis) release(run string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.chans[run] == nil || r.local.Subscribers(run) > 0 {
		return
	}
	delete(r.chans, run)
	ctx, cancel := context.WithTimeout(context.Background(), redisPublishTimeout)
	defer cancel()
	if err := r.ps.Unsubscribe(ctx, r.prefix+run); err != nil {
		r.log.Warn("redis unsubscribe failed", "channel", r.prefix+run, "error", err)
	}
}

// receiveLoop hands received pieces to the local hub and marks
// subscriptions confirmed, until the pubsub closes.
func (r *Redis) receiveLoop(msgs <-chan any) {
	defer close(r.received)
	for m := range msgs {
		switch m := m.(type) {
		case *redis.Subscription:
			if m.Kind != "subscribe" {
				continue
			}
			r.mu.Lock()
			if c := r.chans[strings.TrimPrefix(m.Channel, r.prefix)]; c != nil && !c.confirmed {
				c.confirmed = true
				close(c.ready)
			}
			r.mu.Unlock()
		case *redis.Message:
			var p Piece
			if err := json.Unmarshal([]byte(m.Payload), &p); err != nil {
				r.log.Warn("ignoring a malformed token message", "channel", m.Channel, "error", err)
				continue
			}
			_ = r.local.Publish(strings.TrimPrefix(m.Channel, r.prefix), p)
		}
	}
}

// Close publishes what is queued (for up to 2 seconds), ends the
// subscriptions' connection and closes the client. Open subscriptions
// stay open but receive nothing more; their owners close them.
func (r *Redis) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	ps, received := r.ps, r.received
	r.mu.Unlock()
	close(r.stop)
	<-r.published
	var err error
	if ps != nil {
		err = ps.Close()
		<-received
	}
	return errors.Join(err, r.client.Close())
}
