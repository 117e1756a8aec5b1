package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/mcp"
)

func init() {
	var (
		configFile, dir, host string
		asJSON, withSchema    bool
	)
	cmd := &cobra.Command{
		Use:   "extensions",
		Short: "List the loaded extension files, their tools and declared capabilities",
		Long: `Load the configured extensions (ferridriver.toml: extensions = [...]) as the MCP
server does and report what loaded: every file, its tools with their descriptions,
whether each is exposed as an MCP tool, its timeoutMs, and its declared
capabilities: allow.net hosts and allow.commands with the full command specs
(SHELL lines run through sh -c; argv commands run without a shell).

The same data is the result of the ferridriver_extensions MCP tool.

Exit codes: 0 everything loaded; 1 a file failed to bundle or load (it is
listed under errors); 2 bad usage or configuration.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch host {
			case jsbridge.HostMCP, jsbridge.HostScript, jsbridge.HostBDD:
			default:
				return &ExitError{Code: exitUsage, Err: fmt.Errorf("--host must be mcp, script or bdd, got %q", host)}
			}
			p, err := loadProject(dir, configFile)
			if err != nil {
				return err
			}
			set, err := jsbridge.BuildExtensions(p.dir, p.cfg.Extensions, p.cfg.Bundler.Alias)
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			vm, err := p.newVM(host, cmd.ErrOrStderr(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer vm.Close()
			loadErrs := set.Load(vm)
			report := mcp.BuildReport(host, set, vm.Registry(), loadErrs, withSchema)
			out := cmd.OutOrStdout()
			if asJSON {
				b, _ := json.MarshalIndent(report, "", "  ")
				fmt.Fprintln(out, string(b))
			} else {
				fmt.Fprint(out, report.Text())
			}
			if len(report.Errors) > 0 {
				return &ExitError{Code: exitFailed}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&configFile, "config", "c", "", "config file (default: ferridriver.toml/.yaml/.json in the project directory)")
	fl.StringVar(&dir, "dir", "", "project directory (default: the current directory)")
	fl.StringVar(&host, "host", jsbridge.HostMCP, "ferridriver.host to evaluate the files under: mcp, script or bdd")
	fl.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fl.BoolVar(&withSchema, "include-schema", false, "include each tool's inputSchema")
	rootCmd.AddCommand(cmd)
}
