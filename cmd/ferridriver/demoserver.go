package main

import (
	"fmt"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/demoapp"
)

func init() {
	var addr string
	cmd := &cobra.Command{
		Use:   "demo-server",
		Short: "Serve the embedded demo web app until interrupted",
		Long: `demo-server serves the demo app that the example suite tests (login form,
todo list, table, dialogs, popup, slow page, JSON API) and prints its URL.
It stops on SIGINT or SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			url, err := demoapp.Serve(ctx, addr)
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			fmt.Fprintln(cmd.OutOrStdout(), url)
			<-ctx.Done()
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:4173", "address to listen on (port 0 picks a free one)")
	rootCmd.AddCommand(cmd)
}
