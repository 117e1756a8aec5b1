package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/world/install"
)

func init() {
	var opts install.Options
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install the Playwright driver and check for node and a browser",
		Long: `Install downloads the Playwright driver (npm playwright-core ` + install.DriverVersion + `) into
the cache directory if it is not there yet, using your npm registry settings,
then checks for Node.js and a Chrome/Chromium and prints what it found.
It exits with status 1 only when something required is missing.`,
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
	cmd.Flags().StringVar(&opts.ExecutablePath, "browser-path", "", "browser executable to use instead of searching")
	rootCmd.AddCommand(cmd)
}
