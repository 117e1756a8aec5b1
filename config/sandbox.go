package config

import (
	"fmt"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/sandbox"
)

// The grants of the hosts whose code the project does not write itself
// in a test: `ferridriver run` scripts ([scripting.allow.fs]) and MCP
// clients ([mcp] allowRead, allowWrite, allowUnrestrictedFileAccess,
// allowedOrigins, blockedOrigins). docs/capabilities.md.

// Names of the settings, as denials show them.
var (
	scriptFilesGrant = capability.FSGrant{Read: "[scripting.allow.fs] read", Write: "[scripting.allow.fs] write"}
	mcpFilesGrant    = capability.FSGrant{Read: "[mcp] allowRead (--allow-read)", Write: "[mcp] allowWrite (--allow-write)"}
)

// ScriptFiles parses [scripting.allow.fs]: the folders `ferridriver run`
// scripts may read and write (none when absent). First-party code in the
// bdd host needs no grant: it has every path, as under Node.
func (c *Config) ScriptFiles() (*capability.FSPolicy, error) {
	allow, err := capability.ParseAllow(c.Scripting.Allow)
	if err != nil {
		return nil, fmt.Errorf("[scripting.allow]: %w", err)
	}
	return allow.FS.WithGrant(scriptFilesGrant), nil
}

// MCPFiles is the filesystem grant of MCP clients: [mcp] allowRead and
// allowWrite, each replaced by its flag's folders when given (non-nil),
// or every path with allowUnrestrictedFileAccess (or its flag).
func (c *Config) MCPFiles(read, write []string, unrestricted bool) (*capability.FSPolicy, error) {
	if unrestricted || c.MCP.AllowUnrestrictedFileAccess {
		return capability.UnrestrictedFS(), nil
	}
	if read == nil {
		read = c.MCP.AllowRead
	}
	if write == nil {
		write = c.MCP.AllowWrite
	}
	return capability.NewFSPolicy(read, write, mcpFilesGrant)
}

// MCPOrigins is the origin filter of the MCP server's browser: [mcp]
// allowedOrigins and blockedOrigins, each replaced by its flag's list when
// given (non-nil).
func (c *Config) MCPOrigins(allowed, blocked []string) (*sandbox.OriginFilter, error) {
	if allowed == nil {
		allowed = c.MCP.AllowedOrigins
	}
	if blocked == nil {
		blocked = c.MCP.BlockedOrigins
	}
	return sandbox.ParseOriginFilter(allowed, blocked)
}

// validateSandbox checks the grants' entries when the file is read, so a
// bad folder or origin is an error naming its key before any command runs.
func (c *Config) validateSandbox() error {
	if _, err := capability.NewFSPolicy(c.MCP.AllowRead, c.MCP.AllowWrite, capability.FSGrant{Read: "mcp.allowRead", Write: "mcp.allowWrite"}); err != nil {
		return &Error{Msg: err.Error()}
	}
	if _, err := sandbox.ParseOriginFilter(c.MCP.AllowedOrigins, nil); err != nil {
		return &Error{Key: "mcp.allowedOrigins", Msg: err.Error()}
	}
	if _, err := sandbox.ParseOriginFilter(nil, c.MCP.BlockedOrigins); err != nil {
		return &Error{Key: "mcp.blockedOrigins", Msg: err.Error()}
	}
	return nil
}
