package main

import (
	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/runner"
)

// newEnvironment returns the browser environment of a bdd run (nil: none
// yet). The browser world plugs in here.
func newEnvironment(cfg *config.Config) (runner.Environment, error) {
	return nil, nil
}
