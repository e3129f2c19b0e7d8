package e2e

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/cli"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
)

// TestDevPortInUse: a port already taken is a clear error naming it, and
// nothing is left running.
func TestDevPortInUse(t *testing.T) {
	bin := devservertest.Binary(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"gateway", []string{"--http-addr", busy.Addr().String(), "--temporal-port", strconv.Itoa(stacktest.FreePort(t))},
			"listen on " + busy.Addr().String()},
		{"temporal", []string{"--http-addr", "127.0.0.1:" + strconv.Itoa(stacktest.FreePort(t)), "--temporal-port", strconv.Itoa(busyPort)},
			"temporal frontend port " + strconv.Itoa(busyPort) + " on 127.0.0.1 is in use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var stdout, stderr bytes.Buffer
			args := append([]string{"assay", "dev", "--data-dir", t.TempDir(), "--ui-port", "0", "--temporal-bin", bin}, tt.args...)
			err := cli.Run(ctx, args, func(string) string { return "" }, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("assay dev with a busy %s port: err = %v, want one containing %q", tt.name, err, tt.want)
			}
			// startDev retries on other ports only for this error.
			if !errors.Is(err, syscall.EADDRINUSE) {
				t.Errorf("assay dev with a busy %s port: err = %v does not wrap EADDRINUSE", tt.name, err)
			}
		})
	}
}

// TestStartDevNotFooledByAnotherGateway: when the port the harness picked
// is already another stack's gateway (answering /healthz), the harness
// reports this stack's clash, which startDev retries, instead of taking
// the other stack for this one.
func TestStartDevNotFooledByAnotherGateway(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK) // /healthz and everything else
	}))
	defer other.Close()
	port := other.Listener.Addr().(*net.TCPAddr).Port
	s, err := tryStartDev(t, port, stacktest.FreePort(t), t.TempDir())
	if err == nil {
		s.stop(t)
		t.Fatalf("tryStartDev on another gateway's port %d succeeded; want this stack's EADDRINUSE", port)
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("tryStartDev on another gateway's port: err = %v, want one wrapping EADDRINUSE", err)
	}
}
