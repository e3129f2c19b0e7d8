package devserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	workflowservice "go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// With DEVSERVER_FAKE_FRONTEND set, the test binary stands in for the
// Temporal CLI: it serves the frontend's health check on --port until
// killed.
func TestMain(m *testing.M) {
	if os.Getenv("DEVSERVER_FAKE_FRONTEND") != "" {
		i := slices.Index(os.Args, "--port")
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", os.Args[i+1]))
		if err != nil {
			os.Exit(3)
		}
		os.Exit(serveHealth(ln))
	}
	os.Exit(m.Run())
}

// serveHealth answers the health check the SDK's CheckHealth sends, as a
// Temporal frontend does, and GetSystemInfo, which the SDK's dial sends,
// with codes.Unimplemented (an older server's answer, which the SDK accepts).
func serveHealth(ln net.Listener) int {
	srv := grpc.NewServer()
	workflowservice.RegisterWorkflowServiceServer(srv, workflowservice.UnimplementedWorkflowServiceServer{})
	h := health.NewServer()
	h.SetServingStatus("temporal.api.workflowservice.v1.WorkflowService", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, h)
	if err := srv.Serve(ln); err != nil {
		return 4
	}
	return 0
}

func launchOpts(t *testing.T, bin string, port int) (Options, []string, *os.File, string) {
	t.Helper()
	opts := Options{Bin: bin, IP: "127.0.0.1", Port: port, Namespace: "default", ReadyTimeout: 20 * time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	logPath := filepath.Join(t.TempDir(), "temporal.log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"server", "start-dev", "--ip", opts.IP, "--port", strconv.Itoa(port)}
	return opts, args, f, logPath
}

// A frontend that answers is ready only when it is our server's: a
// stranger that took the port first (ours then fails to bind and exits)
// is a port race, not a ready server.
func TestReadyNeedsOwnServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go serveHealth(ln)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port

	// Ours loses the bind a second after it starts, as the CLI does.
	bin := filepath.Join(t.TempDir(), "temporal")
	script := "#!/bin/sh\nsleep 1\necho 'panic: listen tcp 127.0.0.1:" + strconv.Itoa(port) + ": bind: address already in use'\nexit 2\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	opts, args, f, logPath := launchOpts(t, bin, port)
	s, err := launch(context.Background(), opts, args, f, logPath)
	if err == nil {
		s.Kill()
		t.Fatal("launch was ready on a stranger's frontend")
	}
	var race *portRaceError
	if !errors.As(err, &race) {
		t.Errorf("launch error = %v, want a port race", err)
	}

	// Our own frontend on its port is ready.
	t.Setenv("DEVSERVER_FAKE_FRONTEND", "1")
	opts, args, f, logPath = launchOpts(t, os.Args[0], freePort(t))
	s, err = launch(context.Background(), opts, args, f, logPath)
	if err != nil {
		t.Fatalf("launch of a frontend that is ours: %v", err)
	}
	s.Kill()
	<-s.Done()
}

// A Temporal CLI started through a wrapper that does not exec it (a shell
// script that runs it as a child) holds the frontend port in a child of
// our process, in the process group launch gave it: that server is ours
// and ready. (Only checking the wrapper's own descriptors waited out the
// ready timeout.)
func TestReadyThroughWrapper(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "temporal")
	script := "#!/bin/sh\n\"" + os.Args[0] + "\" \"$@\"\nexit $?\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DEVSERVER_FAKE_FRONTEND", "1")
	opts, args, f, logPath := launchOpts(t, bin, freePort(t))
	opts.ReadyTimeout = 8 * time.Second
	s, err := launch(context.Background(), opts, args, f, logPath)
	if err != nil {
		t.Fatalf("launch of our own frontend behind a wrapper: %v", err)
	}
	if err := s.Stop(5 * time.Second); err != nil {
		t.Logf("stop: %v", err)
	}
}
