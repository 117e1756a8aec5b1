package mcp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Files the tools write where the agent asks (filename arguments, as
// @playwright/mcp has them): relative to the project directory and
// inside it, symbolic links resolved before the check, never through a
// symbolic link.

// outputPath resolves a filename argument for writing.
func (s *Server) outputPath(name string) (string, error) {
	if filepath.IsAbs(name) || !filepath.IsLocal(name) {
		return "", fmt.Errorf("filename %q must be relative and inside the project directory", name)
	}
	root, err := filepath.EvalSymlinks(s.opts.Dir)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, filepath.Dir(name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("filename %q: %w", name, err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("filename %q: %w", name, err)
	}
	if rel, err := filepath.Rel(root, real); err != nil || (rel != "." && !filepath.IsLocal(rel)) {
		return "", fmt.Errorf("filename %q leads out of the project directory", name)
	}
	path := filepath.Join(real, filepath.Base(name))
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return "", fmt.Errorf("filename %q is a symbolic link: not written through", name)
	}
	return path, nil
}

// saveOutput writes data to the filename argument and returns the text
// result that says so.
func (s *Server) saveOutput(name string, data []byte) (*sdk.CallToolResult, error) {
	path, err := s.outputPath(name)
	if err != nil {
		return nil, err
	}
	// O_NOFOLLOW: the name may have become a link since outputPath looked.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err == nil {
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return nil, errors.New("writing " + name + ": " + err.Error())
	}
	return textOnly(fmt.Sprintf("Saved to %s (%d bytes)", name, len(data))), nil
}

// textOnly is a result of one text.
func textOnly(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}
