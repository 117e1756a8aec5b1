package cucumberjs

import (
	"encoding/json"
	"fmt"
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
	key  string // configuration key
	kind string // "bool", "collect", "string", "count", "json", "tags"
	neg  bool   // --no-strict: sets the key to false
}

// argvOptions are cucumber-js's options, by flag (its argv_parser).
var argvOptions = map[string]argvOption{
	"-b": {"backtrace", "bool", false}, "--backtrace": {"backtrace", "bool", false},
	"-d": {"dryRun", "bool", false}, "--dry-run": {"dryRun", "bool", false},
	"--exit": {"forceExit", "bool", false}, "--force-exit": {"forceExit", "bool", false},
	"--fail-fast": {"failFast", "bool", false},
	"-f":          {"format", "collect", false}, "--format": {"format", "collect", false},
	"--format-options": {"formatOptions", "json", false},
	"-i":               {"import", "collect", false}, "--import": {"import", "collect", false},
	"-l": {"loader", "collect", false}, "--loader": {"loader", "collect", false},
	"--language":       {"language", "string", false},
	"--name":           {"name", "collect", false},
	"--order":          {"order", "string", false},
	"--parallel":       {"parallel", "count", false},
	"--plugin":         {"plugin", "collect", false},
	"--plugin-options": {"pluginOptions", "json", false},
	"--publish":        {"publish", "bool", false},
	"-r":               {"require", "collect", false}, "--require": {"require", "collect", false},
	"--require-module":   {"requireModule", "collect", false},
	"--retry":            {"retry", "count", false},
	"--retry-tag-filter": {"retryTagFilter", "tags", false},
	"--shard":            {"shard", "string", false},
	"--strict":           {"strict", "bool", false},
	"--no-strict":        {"strict", "bool", true},
	"-t":                 {"tags", "tags", false}, "--tags": {"tags", "tags", false},
	"--world-parameters": {"worldParameters", "json", false},
}

// parseArgv turns cucumber-js arguments into an options object;
// positional arguments are paths.
func parseArgv(args []string) (map[string]any, error) {
	out := map[string]any{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			out["paths"] = append(toList(out["paths"]), a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		opt, ok := argvOptions[name]
		if !ok {
			return nil, fmt.Errorf("unknown option %q", name)
		}
		if opt.kind == "bool" {
			if hasValue {
				return nil, fmt.Errorf("option %s takes no value", name)
			}
			out[opt.key] = !opt.neg
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
