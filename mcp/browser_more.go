package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// @playwright/mcp's tools for finding and inspecting: browser_find,
// browser_network_request; and browser_drop.

type findArgs struct {
	common
	Text     string `json:"text"`
	Regex    string `json:"regex"`
	Filename string `json:"filename"`
}

type requestArgs struct {
	common
	Index    float64 `json:"index"`
	Part     string  `json:"part"`
	Filename string  `json:"filename"`
}

type dropArgs struct {
	common
	snapArg
	targetArgs
	Paths []string          `json:"paths"`
	Data  map[string]string `json:"data"`
}

// projectPaths makes paths absolute, relative ones from the project
// directory.
func (s *Server) projectPaths(in []string) ([]string, error) {
	out := make([]string, len(in))
	for i, p := range in {
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.opts.Dir, p)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("path %s: %w", p, err)
		}
		out[i] = abs
	}
	return out, nil
}

func (s *Server) addInspectTools() {
	s.browserTool(&sdk.Tool{
		Name:        "browser_find",
		Description: "Finds text (case-insensitive) or a regex (/re/i) in the snapshot: each match with its path and refs.",
		InputSchema: schema(nil, map[string]any{"text": str, "regex": str, "filename": filenameProp}),
		Annotations: annRead,
	}, func() any { return &findArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*findArgs)
		res, err := ss.Find(ctx, in.Text, in.Regex)
		if err != nil || in.Filename == "" {
			return textResult(res, err)
		}
		return s.saveOutput(in.Filename, []byte(res.Output))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_network_request",
		Description: "Headers and bodies of request index (from browser_network_requests), or only part.",
		InputSchema: schema([]string{"index"}, map[string]any{
			"index": map[string]any{"type": "integer", "minimum": 1},
			"part":  enum("request-headers", "request-body", "response-headers", "response-body"), "filename": filenameProp,
		}),
		Annotations: annRead,
	}, func() any { return &requestArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*requestArgs)
		out, err := ss.RequestDetails(ctx, int(in.Index), in.Part)
		if err != nil {
			return nil, err
		}
		if in.Filename != "" {
			return s.saveOutput(in.Filename, []byte(out))
		}
		return textOnly(out), nil
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_drop",
		Description: "Drops files (paths) or data (MIME type to text) onto an element from outside the page.",
		InputSchema: schema(nil, targetProps, map[string]any{
			"paths": strList, "data": map[string]any{"type": "object", "additionalProperties": str},
		}),
		Annotations: annAct,
	}, func() any { return &dropArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*dropArgs)
		if len(in.Paths) == 0 && len(in.Data) == 0 {
			return nil, errors.New("give paths or data")
		}
		paths, err := s.projectPaths(in.Paths)
		if err != nil {
			return nil, err
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.Drop(ctx, in.target(), paths, in.Data, mode))
	})
}
