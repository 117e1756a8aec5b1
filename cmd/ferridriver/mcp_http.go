package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"

	"github.com/ferridriver/ferridriver/mcp"
)

// serveMCPHTTP serves srv over streamable HTTP on host:port until ctx
// ends (mcp.Server.ServeHTTP). A bind address other than loopback
// requires a token.
func serveMCPHTTP(ctx context.Context, srv *mcp.Server, host string, port int, o mcp.HTTPOptions, log io.Writer) error {
	if !mcp.IsLoopback(host) && o.Token == "" {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("--host %s is not a loopback address: set a bearer token (env FERRIDRIVER_MCP_TOKEN, --token-file, [mcp] token or --token)", host)}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("mcp http: %w", err)}
	}
	fmt.Fprintf(log, "ferridriver mcp: serving streamable HTTP on http://%s/mcp\n", ln.Addr())
	if err := srv.ServeHTTP(ctx, ln, o); err != nil {
		return &ExitError{Code: exitFailed, Err: err}
	}
	return nil
}
