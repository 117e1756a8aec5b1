package main

import (
	"github.com/spf13/pflag"

	"github.com/ferridriver/ferridriver/config"
)

// remoteFlags are --connect and --connect-over-cdp of bdd, run, mcp and
// install: the remote browser ([browser] connect, connectOverCDP) given on
// the command line, over the environment and the file. One command runs
// per process, so they live here and loadProject applies them
// (withRemoteFlags).
var remoteFlags struct{ connect, connectOverCDP string }

func addRemoteFlags(fl *pflag.FlagSet) {
	fl.StringVar(&remoteFlags.connect, "connect", "", "WebSocket endpoint of a Playwright browser server to use instead of launching a browser ([browser] connect)")
	fl.StringVar(&remoteFlags.connectOverCDP, "connect-over-cdp", "", "Chrome DevTools endpoint to use instead of launching a browser ([browser] connectOverCDP)")
}

// remoteFlagOf names the flag that set (or cleared) a [browser] key (""
// when none did).
func remoteFlagOf(key string) string {
	if key != "browser.connect" && key != "browser.connectOverCDP" {
		return ""
	}
	switch {
	case remoteFlags.connect != "":
		return "connect"
	case remoteFlags.connectOverCDP != "":
		return "connect-over-cdp"
	}
	return ""
}

// applyRemoteFlags sets the remote browser of the command line over cfg.
// Either flag replaces both keys, so that it never conflicts with the
// other one set by the environment or the file.
func applyRemoteFlags(cfg *config.Config) error {
	if remoteFlags.connect == "" && remoteFlags.connectOverCDP == "" {
		return nil
	}
	cfg.Browser.Connect, cfg.Browser.ConnectOverCDP = remoteFlags.connect, remoteFlags.connectOverCDP
	return cfg.Browser.Validate()
}

// withRemoteFlags returns load with the remote browser flags applied over
// what it reads.
func withRemoteFlags(load func(dir, file string) (*config.Config, error)) func(dir, file string) (*config.Config, error) {
	return func(dir, file string) (*config.Config, error) {
		cfg, err := load(dir, file)
		if err != nil {
			return nil, err
		}
		if err := applyRemoteFlags(cfg); err != nil {
			return nil, err
		}
		return cfg, nil
	}
}
