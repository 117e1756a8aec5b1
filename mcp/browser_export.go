package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/browsing"
)

// session_export: the session's recorded actions and checks as a
// feature file that `ferridriver bdd` runs.

type exportArgs struct {
	common
	Feature   string `json:"feature"`
	Scenario  string `json:"scenario"`
	Path      string `json:"path"`
	Overwrite bool   `json:"overwrite"`
}

func (s *Server) addExportTool() {
	s.browserTool(&sdk.Tool{
		Name:        "session_export",
		Description: "The session's recorded steps as a feature file for `ferridriver bdd`; path (.feature, in the project) also writes it (overwrite to replace one).",
		InputSchema: schema(nil, map[string]any{"feature": str, "scenario": str, "path": str, "overwrite": boolean}),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
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
			var err error
			if path, err = exportPath(s.opts.Dir, in.Path); err != nil {
				return nil, err
			}
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
			if err := writeExport(path, in.Path, text, in.Overwrite); err != nil {
				return nil, err
			}
			msg = fmt.Sprintf("Wrote %s\n\n%s", in.Path, text)
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}}, nil
	})
}

// exportGrant is session_export's filesystem grant: the project directory,
// through the same check as every other write (capability.FSPolicy), so
// that a symlink inside the project cannot lead the file out of it.
var exportGrant = capability.FSGrant{Read: "the project directory", Write: "the project directory"}

// exportPath checks rel (relative to the project directory dir) and
// returns the path to write, its symlinks resolved.
func exportPath(dir, rel string) (string, error) {
	p, err := capability.NewFSPolicy(nil, []string{"."}, exportGrant)
	if err != nil {
		return "", err
	}
	path, err := p.Check(dir, rel, capability.FSWrite)
	var fe *capability.FSError
	if errors.As(err, &fe) {
		return "", fmt.Errorf("path %q resolves to %s, outside the project directory: session_export writes only inside the project", rel, fe.Resolved)
	}
	return path, err
}

// writeExport writes the feature to path (resolved by exportPath): a new
// file, or with overwrite an existing one. The last component must not
// have become a symlink since the check (O_NOFOLLOW).
func writeExport(path, rel, text string, overwrite bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	flags := os.O_WRONLY | os.O_CREATE | syscall.O_NOFOLLOW
	if overwrite {
		flags |= os.O_TRUNC
	} else {
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists: pass overwrite: true to replace it", rel)
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
