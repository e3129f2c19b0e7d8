package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisServer is a throwaway redis-server with the RediSearch module on a
// free loopback port, without persistence.
type redisServer struct {
	*service
	addr string
}

func startRedis(dir string, moduleArgs []string, work string, log io.Writer) (*redisServer, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", work, "--loadmodule", filepath.Join(abs, "redisearch.so")}, moduleArgs...)
	s, err := startService(log, filepath.Join(abs, "redis-server"), args...)
	if err != nil {
		return nil, err
	}
	r := &redisServer{service: s, addr: "127.0.0.1:" + strconv.Itoa(port)}
	c := redis.NewClient(&redis.Options{Addr: r.addr})
	defer c.Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if done, err := s.exited(); done {
			return nil, fmt.Errorf("redis-server exited: %v (see the log)", err)
		}
		if c.Ping(context.Background()).Err() == nil {
			return r, nil
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("redis-server on %s did not answer PING within 30s", r.addr)
		}
	}
}

// usedMemory is INFO memory's used_memory, in bytes.
func (r *redisServer) usedMemory(ctx context.Context) (int64, error) {
	c := redis.NewClient(&redis.Options{Addr: r.addr})
	defer c.Close()
	info, err := c.Info(ctx, "memory").Result()
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("INFO memory has no used_memory")
}

// memory is what holds Redis's memory after a build (-costs): INFO
// memory's used_memory, used_memory_dataset and used_memory_overhead,
// the key count (dbsize), and every numeric field of FT.INFO for the
// index (inverted_sz_mb, vector_index_sz_mb, doc_table_size_mb, ...).
func (r *redisServer) memory(ctx context.Context, index string) (map[string]float64, error) {
	c := redis.NewClient(&redis.Options{Addr: r.addr, Protocol: 2})
	defer c.Close()
	out := map[string]float64{}
	info, err := c.Info(ctx, "memory").Result()
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(info, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		if k == "used_memory" || k == "used_memory_dataset" || k == "used_memory_overhead" {
			if out[k], err = strconv.ParseFloat(v, 64); err != nil {
				return nil, fmt.Errorf("INFO memory %s: %w", k, err)
			}
		}
	}
	keys, err := c.DBSize(ctx).Result()
	if err != nil {
		return nil, err
	}
	out["dbsize"] = float64(keys)
	ft, err := c.Do(ctx, "FT.INFO", index).Slice()
	if err != nil {
		return nil, fmt.Errorf("FT.INFO %s: %w", index, err)
	}
	for k, x := range ftNumbers(ft) {
		out["ft."+k] = x
	}
	// The ACL groups' own vector graphs (indexes named VERSION:vg:N) are
	// indexes of their own: their FT.INFO numbers are summed apart.
	vn := ftString(ft, "index_name")
	names, err := c.Do(ctx, "FT._LIST").StringSlice()
	if err != nil || vn == "" {
		return out, nil // an older server or reply: the main index alone
	}
	for _, n := range names {
		if !strings.HasPrefix(n, vn+":vg:") {
			continue
		}
		g, err := c.Do(ctx, "FT.INFO", n).Slice()
		if err != nil {
			return nil, fmt.Errorf("FT.INFO %s: %w", n, err)
		}
		out["ft.graphs.count"]++
		for k, x := range ftNumbers(g) {
			out["ft.graphs."+k] += x
		}
	}
	return out, nil
}

// ftString is FT.INFO's string field k ("" if there is none).
func ftString(ft []any, k string) string {
	for i := 0; i+1 < len(ft); i += 2 {
		if ft[i] == k {
			s, _ := ft[i+1].(string)
			return s
		}
	}
	return ""
}

// ftNumbers are FT.INFO's numeric fields (a reply of name, value pairs).
// A value that is not a finite number is left out: an index made with
// NOOFFSETS reports offset_bits_per_record_avg as "nan", which the JSON
// report cannot hold.
func ftNumbers(ft []any) map[string]float64 {
	out := map[string]float64{}
	for i := 0; i+1 < len(ft); i += 2 {
		k, ok := ft[i].(string)
		if !ok {
			continue
		}
		var x float64
		switch v := ft[i+1].(type) {
		case int64:
			x = float64(v)
		case string:
			var err error
			if x, err = strconv.ParseFloat(v, 64); err != nil {
				continue // a name or a flag, not a size
			}
		default:
			continue
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		out[k] = x
	}
	return out
}
