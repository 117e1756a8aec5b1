package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/mcp"
	"github.com/ferridriver/ferridriver/world/browsing"
)

func init() {
	var (
		configFile, dir string
		timeout         time.Duration
		memoryLimit     int
		noRunScript     bool
		noWatch         bool
		transport, host string
		port            int
		token           string
	)
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve browser tools and the extensions' tools to AI agents over MCP (stdio or HTTP)",
		Long: `Run an MCP server on stdin/stdout for one client (Claude Desktop, Claude Code,
any MCP client). It loads the configured extensions (host "mcp") and serves:

  - every tool declared with exposeAsTool: true (its name, description and
    inputSchema are the tool contract; the schema is enforced);
  - ferridriver_extensions: what loaded, with every tool's declared
    capabilities (include_schema: true adds the schemas; action "reload"
    re-reads the files and notifies the client of the new tool list);
  - run_script: runs JavaScript in the session's VM (omit with --no-run-script);
  - the browser tools (browser_navigate, browser_snapshot, browser_click...,
    browser_verify_*) and session_export, which returns the session's actions
    as a feature file of built-in steps (docs/mcp.md).

--transport http serves streamable HTTP on --host:--port (127.0.0.1 by
default; path /mcp). Another address needs a bearer token (--token, env
FERRIDRIVER_MCP_TOKEN or [mcp] token); requests without it get 401.

Console output and the server's notes go to stderr. The session ends when
the client disconnects: persistent processes started by tools are killed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if os.Getenv("GOGC") == "" {
				// The MCP SDK's JSON decoding allocates a 32 KB buffer per
				// message decoded (several per call): with the default
				// GOGC the collector runs every few dozen calls and puts
				// its pauses in the calls' latency tail. The heap is small;
				// collecting less often halves p95 (make bench, mcp-latency).
				debug.SetGCPercent(400)
			}
			p, err := loadProject(dir, configFile)
			if err != nil {
				return err
			}
			t := timeout
			if t == 0 {
				t = -1 // none
			}
			// The session's browser: launched when a tool or script first
			// touches page/context, closed when the server stops. The
			// browser tools share its Chromium.
			browser, err := newScriptBrowser(p.cfg)
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			defer browser.Close()
			svc := browsing.NewService(browser.Launcher())
			defer svc.Close()
			srv, err := mcp.New(mcp.Options{
				Dir: p.dir, Extensions: p.cfg.Extensions, Alias: p.cfg.Bundler.Alias, Env: p.env,
				ScriptCommands: p.scriptCommands, Timeout: t, NoRunScript: noRunScript, Watch: !noWatch,
				MemoryLimit: memoryLimitBytes(memoryLimit),
				Log:         cmd.ErrOrStderr(), Version: version, Browsing: svc, Steps: p.cfg.Test.Steps,
				Library: func() (*jsbridge.Library, error) { return builtinSteps(p.cfg) },
			})
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			if err := srv.Session().SetBrowser(browser); err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			switch transport {
			case "stdio", "":
				if err := srv.Run(ctx, &mcp.StdioTransport{In: os.Stdin, Out: os.Stdout}); err != nil {
					return &ExitError{Code: exitFailed, Err: err}
				}
			case "http":
				if token == "" {
					token = p.cfg.MCP.Token
				}
				if err := serveMCPHTTP(ctx, srv, host, port, token, cmd.ErrOrStderr()); err != nil {
					return err
				}
			default:
				return &ExitError{Code: exitUsage, Err: fmt.Errorf("--transport %q: want stdio or http", transport)}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&configFile, "config", "c", "", "config file (default: ferridriver.toml/.yaml/.json in the project directory)")
	fl.StringVar(&dir, "dir", "", "project directory (default: the current directory); useful for clients that cannot set one")
	fl.DurationVar(&timeout, "timeout", mcp.DefaultTimeout, "limit of one tool call or script run; tools' own timeoutMs apply within it (0: none)")
	fl.IntVar(&memoryLimit, "memory-limit", mcp.DefaultMemoryLimit>>20, "MiB the server's heap may reach while an extension tool or a script runs; past it the call is stopped and its VM rebuilt (0: none)")
	fl.BoolVar(&noRunScript, "no-run-script", false, "do not offer the run_script tool")
	addRemoteFlags(fl)
	fl.BoolVar(&noWatch, "no-watch", false, "do not reload the extensions when their files change")
	fl.StringVar(&transport, "transport", "stdio", "stdio or http (streamable HTTP)")
	fl.StringVar(&host, "host", "127.0.0.1", "address the HTTP transport binds to; other than loopback needs a token")
	fl.IntVar(&port, "port", 8931, "port of the HTTP transport")
	fl.StringVar(&token, "token", os.Getenv("FERRIDRIVER_MCP_TOKEN"), "bearer token HTTP clients must send (env FERRIDRIVER_MCP_TOKEN, [mcp] token)")
	rootCmd.AddCommand(cmd)
}

// memoryLimitBytes is --memory-limit (MiB; 0: none) as mcp.Options takes it.
func memoryLimitBytes(mib int) int64 {
	if mib <= 0 {
		return -1
	}
	return int64(mib) << 20
}
