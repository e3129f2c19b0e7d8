package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// startPprof serves Go's profiler (net/http/pprof) on addr until ctx ends,
// when worker.pprof_addr is set: `go tool pprof
// http://ADDR/debug/pprof/profile?seconds=30` takes a CPU profile of the
// running worker (and gateway, in `assay dev`). Off by default; the
// handlers are on their own mux, never the gateway's.
func startPprof(ctx context.Context, addr string, log *slog.Logger) error {
	if addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("worker.pprof_addr: listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
			log.Warn("pprof server stopped", "error", err)
		}
	}()
	log.Warn("serving Go's profiler without authentication (worker.pprof_addr)", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	return nil
}
