package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/mcp"
)

func init() {
	var (
		configFile, dir string
		timeout         time.Duration
		noRunScript     bool
	)
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the extensions' tools to AI agents over MCP (stdio)",
		Long: `Run an MCP server on stdin/stdout for one client (Claude Desktop, Claude Code,
any MCP client). It loads the configured extensions (host "mcp") and serves:

  - every tool declared with exposeAsTool: true (its name, description and
    inputSchema are the tool contract; the schema is enforced);
  - ferridriver_extensions: what loaded, with every tool's declared
    capabilities (include_schema: true adds the schemas; action "reload"
    re-reads the files and notifies the client of the new tool list);
  - run_script: runs JavaScript in the session's VM (omit with --no-run-script).

Console output and the server's notes go to stderr. The session ends when
the client disconnects: persistent processes started by tools are killed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := loadProject(dir, configFile)
			if err != nil {
				return err
			}
			t := timeout
			if t == 0 {
				t = -1 // none
			}
			srv, err := mcp.New(mcp.Options{
				Dir: p.dir, Extensions: p.cfg.Extensions, Alias: p.cfg.Bundler.Alias, Env: p.env,
				ScriptCommands: p.scriptCommands, Timeout: t, NoRunScript: noRunScript,
				Log: cmd.ErrOrStderr(), Version: version,
			})
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			// The session's browser: launched when a tool or script first
			// touches page/context, closed when the server stops.
			browser, err := newScriptBrowser(p.cfg)
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			defer browser.Close()
			if err := srv.Session().SetBrowser(browser); err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := srv.Run(ctx, &mcp.StdioTransport{In: os.Stdin, Out: os.Stdout}); err != nil {
				return &ExitError{Code: exitFailed, Err: err}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&configFile, "config", "c", "", "config file (default: ferridriver.toml/.yaml/.json in the project directory)")
	fl.StringVar(&dir, "dir", "", "project directory (default: the current directory); useful for clients that cannot set one")
	fl.DurationVar(&timeout, "timeout", mcp.DefaultTimeout, "limit of one tool call or script run; tools' own timeoutMs apply within it (0: none)")
	fl.BoolVar(&noRunScript, "no-run-script", false, "do not offer the run_script tool")
	rootCmd.AddCommand(cmd)
}
