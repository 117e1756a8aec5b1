package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/mcp"
)

// serveMCPHTTP serves srv over streamable HTTP on host:port until ctx
// ends. Each client (MCP session) gets its own browser sessions. A bind
// address other than loopback requires token; with a token set, requests
// without "Authorization: Bearer <token>" get 401.
func serveMCPHTTP(ctx context.Context, srv *mcp.Server, host string, port int, token string, log io.Writer) error {
	if !isLoopback(host) && token == "" {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("--host %s is not a loopback address: set a bearer token (--token, FERRIDRIVER_MCP_TOKEN or [mcp] token)", host)}
	}
	// Bodies up to the stdio transport's line limit are read, so that a
	// call with oversized arguments gets the same tool error as over stdio
	// (mcp.MaxArgumentBytes) rather than a bare 413.
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv.SDK() }, &sdk.StreamableHTTPOptions{MaxRequestBodyBytes: mcp.MaxFrameBytes})
	var handler http.Handler = h
	if token != "" {
		handler = requireToken(token, h)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	mux.Handle("/", handler)
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("mcp http: %w", err)}
	}
	fmt.Fprintf(log, "ferridriver mcp: serving streamable HTTP on http://%s/mcp\n", ln.Addr())
	srv.WatchExtensions(ctx)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = hs.Shutdown(sctx)
		cancel()
	}
	cerr := srv.Close()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return &ExitError{Code: exitFailed, Err: err}
	}
	if cerr != nil {
		return &ExitError{Code: exitFailed, Err: cerr}
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// requireToken answers 401 to requests without the bearer token.
func requireToken(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ferridriver mcp"`)
			http.Error(w, "401 unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
