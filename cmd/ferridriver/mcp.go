package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/mcp"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/browsing"
	"github.com/ferridriver/ferridriver/world/install"
)

// DefaultMaxContexts is --max-contexts' default: the browser contexts the
// MCP server keeps open at once.
const DefaultMaxContexts = 16

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
		tokenFile       string
		httpOrigins     []string
		idleTimeout     time.Duration
		readTimeout     time.Duration
		maxSessions     int
		maxContexts     int
		sandboxFlags    mcpSandboxFlags
		caps            []string
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
default; path /mcp), each client in its own session (VM, browser contexts).
Another address needs a bearer token (env FERRIDRIVER_MCP_TOKEN,
--token-file, [mcp] token or --token); requests without it get 401, and
requests from a web page whose Origin is not loopback or listed in
--http-origins get 403. Idle sessions expire (--session-idle-timeout).

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
			files, origins, err := sandboxFlags.grants(cmd, p.cfg)
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			t := timeout
			if t == 0 {
				t = -1 // none
			}
			// One Chromium for the server, launched in the background as
			// the server starts (a first call that comes before it is up
			// waits, with progress); each client gets its own contexts.
			launcher, err := world.NewLauncher(p.cfg.Browser, world.Options{InstallDriver: install.EnsureDriver, Logf: browserLog, Debugf: browserDebug()})
			if err != nil {
				return &ExitError{Code: exitUsage, Err: fmt.Errorf("[browser]: %w", err)}
			}
			defer launcher.Close()
			launcher.SetOriginFilter(origins)
			svc := browsing.NewService(launcher)
			svc.SetFileAccess(p.dir, files)
			defer svc.Close()
			svc.Start()
			mc := p.cfg.MCP
			fl := cmd.Flags()
			if !fl.Changed("max-contexts") && mc.MaxContexts != nil {
				maxContexts = *mc.MaxContexts
			}
			svc.SetContextLimit(maxContexts, "close one (browser_close), end a client, or raise --max-contexts ([mcp] maxContexts)")
			srv, err := mcp.New(mcp.Options{
				Dir: p.dir, Extensions: p.cfg.Extensions, Alias: p.cfg.Bundler.Alias, Env: p.env,
				ScriptCommands: p.scriptCommands, Files: files, Timeout: t, NoRunScript: noRunScript, Watch: !noWatch, Caps: caps,
				MemoryLimit: memoryLimitBytes(memoryLimit),
				Log:         cmd.ErrOrStderr(), Version: version, Browsing: svc, Steps: p.cfg.Test.Steps,
				Library: func() (*jsbridge.Library, error) { return builtinSteps(p.cfg) },
				Config: func() (any, error) {
					settings := map[string]any{
						"timeout": timeout.String(), "caps": caps, "transport": transport, "host": host, "port": port,
						"memory-limit": memoryLimit, "no-run-script": noRunScript, "no-watch": noWatch,
						"max-sessions": maxSessions, "max-contexts": maxContexts,
						"session-idle-timeout": idleTimeout.String(), "read-timeout": readTimeout.String(),
						"http-origins": httpOrigins, "token": token, "token-file": tokenFile,
					}
					flagged := map[string]bool{}
					for k := range settings {
						flagged[k] = fl.Changed(k)
					}
					return resolvedConfig(p.cfg, "server", settings, flagged), nil
				},
			})
			if err != nil {
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
				tok, err := mcpToken(fl.Changed("token"), token, tokenFile, mc)
				if err != nil {
					return &ExitError{Code: exitUsage, Err: err}
				}
				o := mcp.HTTPOptions{Token: tok, Origins: append(append([]string(nil), mc.HTTPOrigins...), httpOrigins...)}
				o.SessionIdleTimeout = durationSetting(fl.Changed("session-idle-timeout"), idleTimeout, mc.SessionIdleTimeout, mcp.DefaultSessionIdleTimeout)
				o.ReadTimeout = durationSetting(fl.Changed("read-timeout"), readTimeout, mc.ReadTimeout, mcp.DefaultReadTimeout)
				if !fl.Changed("max-sessions") && mc.MaxSessions != nil {
					maxSessions = *mc.MaxSessions
				}
				if o.MaxSessions = maxSessions; maxSessions == 0 {
					o.MaxSessions = -1
				}
				if err := serveMCPHTTP(ctx, srv, host, port, o, cmd.ErrOrStderr()); err != nil {
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
	fl.BoolVar(&noRunScript, "no-run-script", false, "do not offer the run_script and browser_run_code_unsafe tools")
	fl.StringSliceVar(&caps, "caps", nil, "tool groups to add (vision, pdf, network, storage, devtools, config) or, prefixed with -, to leave out (-testing, -bdd, -script); see docs/mcp.md")
	addRemoteFlags(fl)
	fl.BoolVar(&noWatch, "no-watch", false, "do not reload the extensions when their files change")
	fl.StringVar(&transport, "transport", "stdio", "stdio or http (streamable HTTP)")
	fl.StringVar(&host, "host", "127.0.0.1", "address the HTTP transport binds to; other than loopback needs a token")
	fl.IntVar(&port, "port", 8931, "port of the HTTP transport")
	fl.StringVar(&token, "token", "", "bearer token HTTP clients must send (visible in the process list: prefer --token-file or env FERRIDRIVER_MCP_TOKEN)")
	fl.StringVar(&tokenFile, "token-file", "", "file whose first line is the bearer token ([mcp] tokenFile)")
	fl.StringSliceVar(&httpOrigins, "http-origins", nil, "Origin header values (web pages) allowed besides loopback ones, e.g. https://app.example.com; * for any ([mcp] httpOrigins)")
	fl.DurationVar(&idleTimeout, "session-idle-timeout", mcp.DefaultSessionIdleTimeout, "close an HTTP session (its VM, browser contexts, processes) after this long without requests (0: never; [mcp] sessionIdleTimeout)")
	fl.IntVar(&maxSessions, "max-sessions", mcp.DefaultMaxSessions, "HTTP sessions open at once; a new client past it gets an error (0: no limit; [mcp] maxSessions)")
	fl.IntVar(&maxContexts, "max-contexts", DefaultMaxContexts, "browser contexts open at once across the clients (0: no limit; [mcp] maxContexts)")
	fl.DurationVar(&readTimeout, "read-timeout", mcp.DefaultReadTimeout, "time an HTTP request body may take to arrive, whole (0: none; [mcp] readTimeout)")
	sandboxFlags.add(cmd)
	rootCmd.AddCommand(cmd)
}

// mcpToken is the HTTP transport's bearer token: --token, else
// --token-file, else FERRIDRIVER_MCP_TOKEN or [mcp] token (the
// configuration, the environment over the file), else [mcp] tokenFile.
func mcpToken(flagSet bool, token, tokenFile string, mc config.MCP) (string, error) {
	switch {
	case flagSet:
		if token == "" {
			return "", fmt.Errorf("--token is empty")
		}
		return token, nil
	case tokenFile != "":
		return readTokenFile("--token-file", tokenFile)
	case mc.Token != "":
		return mc.Token, nil
	case mc.TokenFile != "":
		return readTokenFile("[mcp] tokenFile", mc.TokenFile)
	}
	return "", nil
}

// readTokenFile reads a token: the file's first line, trimmed.
func readTokenFile(what, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	tok, _, _ := strings.Cut(string(b), "\n")
	if tok = strings.TrimSpace(tok); tok == "" {
		return "", fmt.Errorf("%s: %s holds no token (its first line is empty)", what, path)
	}
	return tok, nil
}

// durationSetting is a duration flag when given, else its configuration
// key (validated when loaded) when set, else the default; 0 means none
// (negative for mcp.HTTPOptions).
func durationSetting(flagSet bool, flag time.Duration, key string, def time.Duration) time.Duration {
	d := def
	switch {
	case flagSet:
		d = flag
	case key != "":
		d, _ = time.ParseDuration(key)
	}
	if d == 0 {
		return -1
	}
	return d
}

// memoryLimitBytes is --memory-limit (MiB; 0: none) as mcp.Options takes it.
func memoryLimitBytes(mib int) int64 {
	if mib <= 0 {
		return -1
	}
	return int64(mib) << 20
}
