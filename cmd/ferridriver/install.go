package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/install"
)

func init() {
	var (
		opts       install.Options
		configFile string
	)
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install the Playwright driver and check for node and a browser",
		Long: `Install downloads the Playwright driver (npm playwright-core ` + install.DriverVersion + `) into
the cache directory if it is not there yet, using your npm registry settings,
then checks for Node.js and the browser of the project's [browser] section
(a Chrome/Chromium by default) and prints what it found. With a remote
browser configured ([browser] connect or connectOverCDP, or
FERRIDRIVER_BROWSER_CONNECT...), no local browser is needed and none is
looked for. It exits with status 1 only when something required is missing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Logf = func(format string, args ...any) {
				fmt.Fprintf(cmd.ErrOrStderr(), format+"\n", args...)
			}
			if opts.ExecutablePath != "" {
				if _, err := os.Stat(opts.ExecutablePath); err != nil {
					return &ExitError{Code: exitUsage, Err: fmt.Errorf("--browser-path: %w", err)}
				}
			}
			// The project's [browser] says which browser to check, or that
			// it is remote; --browser-path asks for a local one anyway.
			p, err := loadProject("", configFile)
			if err != nil {
				return err
			}
			b := p.cfg.Browser
			if opts.ExecutablePath == "" {
				opts.Browser, opts.Channel, opts.ExecutablePath = b.Browser, b.Channel, b.ExecutablePath
				if b.Remote() {
					opts.Remote = world.RedactEndpoint(b.Endpoint())
				}
			}
			if opts.CacheDir == "" {
				opts.CacheDir = b.CacheDir
			}
			r := install.Run(cmd.Context(), opts)
			if _, err := r.WriteTo(cmd.OutOrStdout()); err != nil {
				return err
			}
			// The html report renders with the official @cucumber/html-formatter.
			html := formatters.HTMLFormatterPackage + "@" + formatters.HTMLFormatterVersion
			if dir, err := install.FetchPackage(cmd.Context(), opts, formatters.HTMLFormatterPackage, formatters.HTMLFormatterVersion); err != nil {
				fmt.Fprintf(cmd.OutOrStdout(), "html report:  %s missing (%v); every other format works\n", html, err)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "html report:  %s in %s\n", html, dir)
			}
			if r.Err() != nil {
				return &ExitError{Code: exitFailed, Err: fmt.Errorf("something required is missing (see above)")}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.CacheDir, "cache-dir", "", "cache directory (default $"+install.EnvCacheDir+" or ~/.cache/ferridriver)")
	cmd.Flags().StringVar(&opts.ExecutablePath, "browser-path", "", "browser executable to check instead of the configured or discovered one")
	cmd.Flags().StringVarP(&configFile, "config", "c", "", "config file (default: ferridriver.toml/.yaml/.json in the current directory)")
	addRemoteFlags(cmd.Flags())
	rootCmd.AddCommand(cmd)
}
