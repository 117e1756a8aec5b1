package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/world"
)

// printConfig prints the resolved [test] configuration of `bdd`, each value
// with where it came from (flag, environment, ferridriver.toml, the
// cucumber-js configuration and its profiles, default), as TOML.
func printConfig(w io.Writer, cmd *cobra.Command, cfg *config.Config, opts runner.Options, specs []formatters.Spec, formatOptions map[string]any) error {
	changed := cmd.Flags().Changed
	flagOf := map[string][]string{
		"features": nil, "steps": {"import", "require"}, "tags": {"tags"}, "name": {"name"},
		"parallel": {"parallel"}, "retry": {"retry"}, "retryTagFilter": {"retry-tag-filter"},
		"strict": {"strict", "no-strict"}, "dryRun": {"dry-run"}, "failFast": {"fail-fast"},
		"order": {"order"}, "language": {"language"}, "worldParameters": {"world-parameters"},
		"format": {"format"}, "formatOptions": {"format-options"}, "shard": {"shard"}, "timeout": {"timeout"},
	}
	source := func(key string) string {
		if key == "features" && len(cmd.Flags().Args()) > 0 {
			return "command line (paths)"
		}
		for _, fl := range flagOf[key] {
			if changed(fl) {
				return "flag --" + fl
			}
		}
		switch cfg.Sources[key] {
		case config.SourceFile:
			return relTo(cfg.Dir, cfg.File)
		case config.SourceEnv:
			return "env FERRIDRIVER_TEST_" + strings.ToUpper(key)
		case config.SourceCucumber:
			cc := cfg.Cucumber
			return fmt.Sprintf("%s (%s %s: %s)", cc.File, profileWord(cc.Profiles), strings.Join(quoteAll(cc.Profiles), ", "), strings.Join(config.CucumberOptionsOf(key), ", "))
		}
		return "default"
	}
	var formats []string
	for _, s := range specs {
		formats = append(formats, s.String())
	}
	paths := opts.Paths
	if len(paths) == 0 {
		paths = runner.DefaultFeaturePaths
	}
	steps := opts.Steps
	if len(steps) == 0 {
		steps = runner.DefaultStepPaths
	}
	values := map[string]any{
		"features": paths, "steps": steps, "tags": nonNil(opts.Tags), "name": nonNil(opts.Names),
		"parallel": opts.Parallel, "retry": opts.Retry, "retryTagFilter": opts.RetryTagFilter,
		"strict": opts.Strict, "dryRun": opts.DryRun, "failFast": opts.FailFast, "order": orDefault(opts.Order, "defined"),
		"language": orDefault(opts.Language, "en"), "worldParameters": nonNilMap(opts.WorldParameters),
		"format": formats, "formatOptions": nonNilMap(formatOptions), "shard": opts.Shard,
		"timeout": timeoutMs(opts.StepTimeout),
	}
	fmt.Fprintln(w, "# ferridriver bdd: resolved configuration (precedence: flags > env > ferridriver.toml > cucumber-js configuration > defaults)")
	if cfg.File != "" {
		fmt.Fprintf(w, "# ferridriver configuration: %s\n", relTo(cfg.Dir, cfg.File))
	} else {
		fmt.Fprintln(w, "# ferridriver configuration: none")
	}
	if cc := cfg.Cucumber; cc != nil {
		fmt.Fprintf(w, "# cucumber-js configuration: %s, %s %s\n", cc.File, profileWord(cc.Profiles), strings.Join(quoteAll(cc.Profiles), ", "))
	} else {
		fmt.Fprintln(w, "# cucumber-js configuration: none")
	}
	mode := cfg.EnvMode()
	name := "allowEnv"
	if mode.Node {
		name = "node"
	}
	fmt.Fprintf(w, "# environment mode: %s (%s)\n", name, mode.Why)
	fmt.Fprintln(w, "[test]")
	for _, key := range config.TestKeys() {
		b, _ := json.Marshal(values[key])
		fmt.Fprintf(w, "%s = %s  # %s\n", key, b, source(key))
	}
	// Secrets (connectHeaders values, tokens in an endpoint) are hidden.
	printable := *cfg
	printable.Browser = cfg.Browser.Printable()
	if printable.MCP.Token != "" {
		printable.MCP.Token = world.Hidden
	}
	printOtherSections(w, &printable)
	if cc := cfg.Cucumber; cc != nil && len(cc.Notes) > 0 {
		fmt.Fprintln(w, "# not applied:")
		for _, n := range cc.Notes {
			fmt.Fprintf(w, "#   %s: %s\n", cc.File, n)
		}
	}
	return nil
}

// timeoutMs shows runner.Options's StepTimeout as [test] timeout: ms, 0
// for none.
func timeoutMs(d time.Duration) int64 {
	switch {
	case d == 0:
		return jsbridge.DefaultStepTimeout.Milliseconds()
	case d < 0:
		return 0
	}
	return d.Milliseconds()
}

func quoteAll(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// relTo returns path relative to dir when it is inside it.
func relTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}

func profileWord(profiles []string) string {
	if len(profiles) == 1 {
		return "profile"
	}
	return "profiles"
}

// printOtherSections prints the keys outside [test] that are not at their
// default (the cucumber-js configuration has none of them), with their
// source.
func printOtherSections(w io.Writer, cfg *config.Config) {
	source := func(key string) string {
		if fl := remoteFlagOf(key); fl != "" {
			return "flag --" + fl
		}
		if cfg.SourceOf(key) == config.SourceEnv {
			return "env FERRIDRIVER_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
		}
		return relTo(cfg.Dir, cfg.File)
	}
	v := reflect.ValueOf(cfg).Elem()
	t := v.Type()
	var sections []string
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("mapstructure")
		if tag == "" || tag == "-" || tag == "test" {
			continue
		}
		fv := v.Field(i)
		if fv.Kind() != reflect.Struct {
			// extensions, webServer: whole values.
			if cfg.SourceOf(tag) != config.SourceDefault {
				b, _ := json.Marshal(fv.Interface())
				fmt.Fprintf(w, "%s = %s  # %s\n", tag, b, source(tag))
			}
			continue
		}
		sections = append(sections, tag)
	}
	for _, section := range sections {
		var sv reflect.Value
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).Tag.Get("mapstructure") == section {
				sv = v.Field(i)
			}
		}
		printed := false
		st := sv.Type()
		for j := 0; j < st.NumField(); j++ {
			tag := st.Field(j).Tag.Get("mapstructure")
			if tag == "" || tag == "-" || !st.Field(j).IsExported() {
				continue
			}
			key := section + "." + tag
			if cfg.SourceOf(key) == config.SourceDefault && remoteFlagOf(key) == "" {
				continue
			}
			if !printed {
				fmt.Fprintf(w, "[%s]  # keys not listed are at their defaults\n", section)
				printed = true
			}
			b, _ := json.Marshal(sv.Field(j).Interface())
			fmt.Fprintf(w, "%s = %s  # %s\n", tag, b, source(key))
		}
	}
}
