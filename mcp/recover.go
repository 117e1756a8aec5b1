package mcp

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// recoverMiddleware turns a panic in any request's handling (a tool call,
// a resource read, a listing...) into that request's failure: a tool call
// gets a tool error, any other request a JSON-RPC internal error. The SDK
// recovers nothing, so one client's input could otherwise end the server
// for every client. The panic and its stack go to the log.
func (s *Server) recoverMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			fmt.Fprintf(s.opts.Log, "ferridriver mcp: recovered from a panic in %s: %v\n%s", method, r, debug.Stack())
			pe := &PanicError{Value: r}
			if method == "tools/call" {
				res, err = errorResult(pe.Error()), nil
				return
			}
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: pe.Error()}
		}()
		return next(ctx, method, req)
	}
}

// codeSummary is code on one line, cut to a readable length, quoted.
func codeSummary(code string) string {
	s := strings.Join(strings.Fields(code), " ")
	const max = 120
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return "`" + s + "`"
}
