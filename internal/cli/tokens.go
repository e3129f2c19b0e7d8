package cli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/gateway"
	"github.com/assay-rag/assay/internal/tokens"
)

// redisTokens is the answer-token transport of a standalone worker or
// gateway (role): Redis pub/sub when redis.addr is set, checked to answer
// now so a wrong address fails at start-up; otherwise nil, and the log
// says that no tokens will stream.
func redisTokens(ctx context.Context, cfg config.Config, log *slog.Logger, role string) (*tokens.Redis, error) {
	if cfg.Redis.Addr == "" {
		log.Info("answer tokens: off; set redis.addr (ASSAY_REDIS_ADDR) to carry a streaming model's answer from workers to gateways' event streams", "role", role)
		return nil, nil
	}
	r, err := tokens.NewRedis(tokens.RedisOptions{Addr: cfg.Redis.Addr, Password: cfg.Redis.Password.Reveal(), Logger: log})
	if err != nil {
		return nil, fmt.Errorf("redis.addr: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := r.Ping(pctx); err != nil {
		r.Close()
		return nil, fmt.Errorf("redis.addr: %w (answer tokens need it; unset redis.addr to run without them)", err)
	}
	log.Info("answer tokens: redis pub/sub", "addr", cfg.Redis.Addr, "role", role)
	return r, nil
}

// Both transports serve both ends.
var (
	_ activities.TokenPublisher = (*tokens.Hub)(nil)
	_ activities.TokenPublisher = (*tokens.Redis)(nil)
	_ gateway.Tokens            = (*tokens.Hub)(nil)
	_ gateway.Tokens            = (*tokens.Redis)(nil)
)
