package cucumberjs

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// splitArgv splits a command line as the string-argv package cucumber-js
// uses does: on whitespace, with '...' and "..." grouping (quotes removed).
func splitArgv(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote rune
	quoted := false
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, quoted, in = r, true, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in, quoted = false, false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in || quoted {
		out = append(out, cur.String())
	}
	return out
}

// argvOption is one cucumber-js command-line option.
type argvOption struct {
	key  string // configuration key ("" for the options a profile drops)
	kind string // "bool", "collect", "string", "count", "json", "tags", "value" (dropped with its value)
	neg  bool   // --no-strict: sets the key to false
}

// argvOptions are the options of cucumber-js 8 to 13, by flag (the union
// of their configuration/argv_parser.js): a profile written as a command
// line may use any of them. --loader came in 10, --plugin,
// --plugin-options and --shard in 12; --publish-quiet went in 12.
// --config, --profile, --i18n-keywords, --i18n-languages and --version
// are parsed and dropped, as cucumber-js drops them from a profile.
var argvOptions = map[string]argvOption{}

func init() {
	for _, o := range []struct {
		flags []string
		opt   argvOption
	}{
		{[]string{"-b", "--backtrace"}, argvOption{"backtrace", "bool", false}},
		{[]string{"-c", "--config"}, argvOption{"", "value", false}},
		{[]string{"-d", "--dry-run"}, argvOption{"dryRun", "bool", false}},
		{[]string{"--exit", "--force-exit"}, argvOption{"forceExit", "bool", false}},
		{[]string{"--fail-fast"}, argvOption{"failFast", "bool", false}},
		{[]string{"-f", "--format"}, argvOption{"format", "collect", false}},
		{[]string{"--format-options"}, argvOption{"formatOptions", "json", false}},
		{[]string{"--i18n-keywords"}, argvOption{"", "value", false}},
		{[]string{"--i18n-languages"}, argvOption{"", "bool", false}},
		{[]string{"-i", "--import"}, argvOption{"import", "collect", false}},
		{[]string{"-l", "--loader"}, argvOption{"loader", "collect", false}},
		{[]string{"--language"}, argvOption{"language", "string", false}},
		{[]string{"--name"}, argvOption{"name", "collect", false}},
		{[]string{"--order"}, argvOption{"order", "string", false}},
		{[]string{"-p", "--profile"}, argvOption{"", "value", false}},
		{[]string{"--parallel"}, argvOption{"parallel", "count", false}},
		{[]string{"--plugin"}, argvOption{"plugin", "collect", false}},
		{[]string{"--plugin-options"}, argvOption{"pluginOptions", "json", false}},
		{[]string{"--publish"}, argvOption{"publish", "bool", false}},
		{[]string{"--publish-quiet"}, argvOption{"publishQuiet", "bool", false}},
		{[]string{"-r", "--require"}, argvOption{"require", "collect", false}},
		{[]string{"--require-module"}, argvOption{"requireModule", "collect", false}},
		{[]string{"--retry"}, argvOption{"retry", "count", false}},
		{[]string{"--retry-tag-filter"}, argvOption{"retryTagFilter", "tags", false}},
		{[]string{"--shard"}, argvOption{"shard", "string", false}},
		{[]string{"--strict"}, argvOption{"strict", "bool", false}},
		{[]string{"--no-strict"}, argvOption{"strict", "bool", true}},
		{[]string{"-t", "--tags"}, argvOption{"tags", "tags", false}},
		{[]string{"-v", "--version"}, argvOption{"", "bool", false}},
		{[]string{"--world-parameters"}, argvOption{"worldParameters", "json", false}},
	} {
		for _, f := range o.flags {
			argvOptions[f] = o.opt
		}
	}
}

// Flags lists every flag a cucumber-js 8 to 13 profile may use.
func Flags() []string {
	out := make([]string, 0, len(argvOptions))
	for f := range argvOptions {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// parseArgv turns cucumber-js arguments into an options object;
// positional arguments are paths.
func parseArgv(args []string) (map[string]any, error) {
	out := map[string]any{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			// The rest are paths, as commander reads them.
			for _, p := range args[i+1:] {
				out["paths"] = append(toList(out["paths"]), p)
			}
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			out["paths"] = append(toList(out["paths"]), a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		opt, ok := argvOptions[name]
		if !ok && !strings.HasPrefix(a, "--") && len(a) > 2 {
			// -fprogress: a short option with its value attached.
			if o, short := argvOptions[a[:2]]; short && o.kind != "bool" {
				name, value, hasValue, opt, ok = a[:2], a[2:], true, o, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("unknown option %q", name)
		}
		if opt.kind == "bool" {
			if hasValue {
				return nil, fmt.Errorf("option %s takes no value", name)
			}
			if opt.key != "" {
				out[opt.key] = !opt.neg
			}
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("option %s needs a value", name)
			}
			i++
			value = args[i]
		}
		switch opt.kind {
		case "value":
			// Dropped, as cucumber-js drops it from a profile.
		case "collect":
			out[opt.key] = append(toList(out[opt.key]), value)
		case "string":
			out[opt.key] = value
		case "count":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%s must be a non-negative integer, got %q", name, value)
			}
			out[opt.key] = float64(n)
		case "json":
			var m map[string]any
			if err := json.Unmarshal([]byte(value), &m); err != nil {
				return nil, fmt.Errorf("%s must be a JSON object: %v", name, err)
			}
			if old, ok := out[opt.key].(map[string]any); ok {
				merge(old, m)
			} else {
				out[opt.key] = m
			}
		case "tags":
			merge(out, map[string]any{opt.key: value})
		}
	}
	return out, nil
}
