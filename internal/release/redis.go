package release

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/errs"
)

// RedisStore keeps releases in Redis (RediSearch mode), under Prefix:
//
//	PREFIX:manifest:NAME  one manifest, set once (SET NX)
//	PREFIX:status:NAME    its status
//	PREFIX:names          a list of the names, in creation order
//	PREFIX:active         the active set
type RedisStore struct {
	RDB    *redis.Client
	Prefix string
	// Own closes RDB on Close.
	Own bool
}

// RedisPrefix is the Prefix of the release store of the RediSearch
// index named index: every process of a deployment (and bench-scale,
// which restores its active set) reads the same keys.
func RedisPrefix(index string) string { return "assay:releases:" + index }

func (r *RedisStore) key(parts ...string) string {
	k := r.Prefix
	for _, p := range parts {
		k += ":" + p
	}
	return k
}

// Create implements Store.
func (r *RedisStore) Create(ctx context.Context, m Manifest) error {
	if err := CheckName(m.Name); err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	ok, err := r.RDB.SetNX(ctx, r.key("manifest", m.Name), b, 0).Result()
	if err != nil {
		return errs.E("release.Create", errs.Unavailable, err)
	}
	if !ok {
		return errs.Errorf("release.Create", errs.Conflict, "release %s exists; releases are immutable: create one with another name", m.Name)
	}
	if err := r.RDB.RPush(ctx, r.key("names"), m.Name).Err(); err != nil {
		return errs.E("release.Create", errs.Unavailable, err)
	}
	return nil
}

// Get implements Store.
func (r *RedisStore) Get(ctx context.Context, name string) (Manifest, error) {
	var m Manifest
	if err := CheckName(name); err != nil {
		return m, err
	}
	return m, r.get(ctx, r.key("manifest", name), "release "+name, &m)
}

// List implements Store.
func (r *RedisStore) List(ctx context.Context) ([]Manifest, error) {
	names, err := r.RDB.LRange(ctx, r.key("names"), 0, -1).Result()
	if err != nil {
		return nil, errs.E("release.List", errs.Unavailable, err)
	}
	var out []Manifest
	for _, n := range names {
		m, err := r.Get(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	sortByCreation(out)
	return out, nil
}

// Status implements Store.
func (r *RedisStore) Status(ctx context.Context, name string) (Status, error) {
	var st Status
	if err := CheckName(name); err != nil {
		return st, err
	}
	return st, r.get(ctx, r.key("status", name), "status of release "+name, &st)
}

// SetStatus implements Store.
func (r *RedisStore) SetStatus(ctx context.Context, st Status) error {
	if err := CheckName(st.Name); err != nil {
		return err
	}
	return r.set(ctx, r.key("status", st.Name), st)
}

// Active implements Store.
func (r *RedisStore) Active(ctx context.Context) (Active, error) {
	var a Active
	err := r.get(ctx, r.key("active"), "active releases", &a)
	if errs.Is(errs.NotFound, err) {
		return Active{}, nil
	}
	return a, err
}

// SetActive implements Store.
func (r *RedisStore) SetActive(ctx context.Context, a Active) error {
	return r.set(ctx, r.key("active"), a)
}

// Close implements Store.
func (r *RedisStore) Close() error {
	if r.Own {
		return r.RDB.Close()
	}
	return nil
}

func (r *RedisStore) get(ctx context.Context, key, what string, v any) error {
	b, err := r.RDB.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return errs.Errorf("release", errs.NotFound, "%s: not found", what)
	}
	if err != nil {
		return errs.E("release", errs.Unavailable, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errs.Errorf("release", errs.Invalid, "%s: key %s: %v", what, key, err)
	}
	return nil
}

func (r *RedisStore) set(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := r.RDB.Set(ctx, key, b, 0).Err(); err != nil {
		return errs.E("release", errs.Unavailable, err)
	}
	return nil
}
