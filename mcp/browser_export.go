package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// session_export: the session's recorded actions and checks as a
// feature file that `ferridriver bdd` runs.

type exportArgs struct {
	common
	Feature  string `json:"feature"`
	Scenario string `json:"scenario"`
	Path     string `json:"path"`
}

func (s *Server) addExportTool() {
	s.browserTool(&sdk.Tool{
		Name:  "session_export",
		Title: "Export the session as a feature",
		Description: "Returns the session's recorded actions and checks (browser_verify_*) as a Gherkin feature with one scenario, in the " +
			"built-in steps' phrasing, which `ferridriver bdd` runs against the same app. With path (relative to the project " +
			"directory, ending in .feature) the file is written there too.",
		InputSchema: schema(nil, map[string]any{
			"feature":  map[string]any{"type": "string", "description": "Feature name (default \"Recorded session\")"},
			"scenario": map[string]any{"type": "string", "description": "Scenario name (default \"Recorded session\")"},
			"path":     map[string]any{"type": "string", "description": "Where to write the file, e.g. features/login.feature"},
		}),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func() any { return &exportArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*exportArgs)
		dir := s.opts.Dir
		var path string
		if in.Path != "" {
			if filepath.IsAbs(in.Path) || !filepath.IsLocal(in.Path) {
				return nil, fmt.Errorf("path %q must be relative and inside the project directory", in.Path)
			}
			if !strings.HasSuffix(in.Path, ".feature") {
				return nil, fmt.Errorf("path %q must end in .feature", in.Path)
			}
			path = filepath.Join(s.opts.Dir, in.Path)
			dir = filepath.Dir(path)
		}
		if dir != "" {
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
		}
		text := ss.Export(in.Feature, in.Scenario, dir)
		msg := text
		if path != "" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				return nil, err
			}
			msg = fmt.Sprintf("Wrote %s\n\n%s", in.Path, text)
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}}, nil
	})
}
