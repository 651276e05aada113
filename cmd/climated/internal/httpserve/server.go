package httpserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"
)

// Server limits.
const (
	shutdownTimeout   = 10 * time.Second
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
)

// Listen opens the hub's port, with a hint at the usual cause when it is
// taken.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("listen on %s: %w: another climated running? (systemctl status climated) Stop it, or choose another address with --listen HOST:PORT or listen: in the configuration", addr, err)
	}
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// Server is the hub's HTTP server on a listener.
type Server struct {
	Listener net.Listener
	Handler  http.Handler
	// Closing is called as the server begins to shut down, before the
	// requests' contexts end (the MCP server closes its sessions).
	Closing func()
	Log     *slog.Logger
}

// Run is the HTTP server as a part of the hub: it serves until ctx ends,
// then calls Closing, ends every request's context (so that event streams
// clients hold open do not hold up the shutdown) and waits for the
// requests in flight.
func (s Server) Run(ctx context.Context) error {
	log := s.Log
	baseCtx, cancelRequests := context.WithCancel(context.Background())
	defer cancelRequests()
	httpSrv := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
		Handler:           s.Handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(s.Listener) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	if s.Closing != nil {
		s.Closing()
	}
	cancelRequests()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := httpSrv.Shutdown(sctx); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	<-served
	return nil
}
