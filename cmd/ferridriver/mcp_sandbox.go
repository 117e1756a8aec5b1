package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/sandbox"
)

// mcpSandboxFlags are the MCP clients' grants given on the command line;
// each replaces its [mcp] key when given (docs/mcp.md, "What clients may
// reach").
type mcpSandboxFlags struct {
	allowRead, allowWrite          []string
	unrestricted                   bool
	allowedOrigins, blockedOrigins string
}

func (f *mcpSandboxFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVar(&f.allowRead, "allow-read", nil, "folder (relative to the project) whose files MCP clients may read: uploads, file:// pages, run_script's fs (repeatable; [mcp] allowRead)")
	fl.StringArrayVar(&f.allowWrite, "allow-write", nil, "folder (relative to the project) MCP clients may write to, and read: run_script's fs, screenshots, storage state (repeatable; [mcp] allowWrite)")
	fl.BoolVar(&f.unrestricted, "allow-unrestricted-file-access", false, "let MCP clients read and write any file and open any file:// URL ([mcp] allowUnrestrictedFileAccess)")
	fl.StringVar(&f.allowedOrigins, "allowed-origins", "", "semicolon-separated origins the browser may request (https://example.com:8080, http://localhost:*); others are blocked. Not a security boundary ([mcp] allowedOrigins)")
	fl.StringVar(&f.blockedOrigins, "blocked-origins", "", "semicolon-separated origins the browser may not request; evaluated before --allowed-origins ([mcp] blockedOrigins)")
}

// grants returns the MCP clients' filesystem grant and the browser's
// origin filter: the flags over the configuration.
func (f *mcpSandboxFlags) grants(cmd *cobra.Command, cfg *config.Config) (*capability.FSPolicy, *sandbox.OriginFilter, error) {
	fl := cmd.Flags()
	changed := func(name string, v []string) []string {
		if !fl.Changed(name) {
			return nil
		}
		if v == nil {
			v = []string{}
		}
		return v
	}
	files, err := cfg.MCPFiles(changed("allow-read", f.allowRead), changed("allow-write", f.allowWrite), f.unrestricted)
	if err != nil {
		return nil, nil, err
	}
	origins, err := cfg.MCPOrigins(changed("allowed-origins", semicolonList(f.allowedOrigins)), changed("blocked-origins", semicolonList(f.blockedOrigins)))
	if err != nil {
		return nil, nil, err
	}
	return files, origins, nil
}

// semicolonList splits a flag's semicolon-separated list, as
// @playwright/mcp's --allowed-origins.
func semicolonList(s string) []string {
	var out []string
	for _, e := range strings.Split(s, ";") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}
