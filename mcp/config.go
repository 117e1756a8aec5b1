package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// @playwright/mcp's config group (--caps config): browser_get_config.

// addConfigTool registers browser_get_config when the group is on and the
// server was given its configuration (Options.Config).
func (s *Server) addConfigTool() {
	if !s.caps["config"] || s.opts.Config == nil {
		return
	}
	s.server.AddTool(&sdk.Tool{
		Name:        "browser_get_config",
		Description: "The resolved configuration (flags > env > file > defaults) as JSON, secrets hidden.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		Annotations: annRead,
	}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		if err := decodeArgs(req.Params.Arguments, &struct{}{}); err != nil {
			return errorResult("invalid arguments for browser_get_config: " + err.Error()), nil
		}
		v, err := s.opts.Config()
		if err != nil {
			return errorResult("browser_get_config: " + err.Error()), nil
		}
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return errorResult(fmt.Sprintf("browser_get_config: %v", err)), nil
		}
		return textOnly(b.String()), nil
	})
}
