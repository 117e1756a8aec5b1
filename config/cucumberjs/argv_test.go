package cucumberjs

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitArgv(t *testing.T) {
	for in, want := range map[string][]string{
		`--tags @a`:                      {"--tags", "@a"},
		`  --tags   "@a or @b"  x `:      {"--tags", "@a or @b", "x"},
		`--world-parameters '{"a": 1}'`:  {"--world-parameters", `{"a": 1}`},
		`--name ""`:                      {"--name", ""},
		`--format=json:"out dir/r.json"`: {"--format=json:out dir/r.json"},
		``:                               nil,
	} {
		if got := splitArgv(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitArgv(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseArgv(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want map[string]any
		err  string
	}{
		{[]string{"a.feature", "-r", "s.js", "--import=i.mjs", "-f", "progress", "--format", "json:r.json"},
			map[string]any{"paths": []any{"a.feature"}, "require": []any{"s.js"}, "import": []any{"i.mjs"}, "format": []any{"progress", "json:r.json"}}, ""},
		{[]string{"-t", "@a", "--tags", "@b", "--retry-tag-filter", "@flaky"},
			map[string]any{"tags": "(@a) and (@b)", "retryTagFilter": "@flaky"}, ""},
		{[]string{"--parallel", "2", "--retry", "1", "-d", "--fail-fast", "--no-strict", "--order", "random:3", "--language", "fr", "--shard", "1/2"},
			map[string]any{"parallel": float64(2), "retry": float64(1), "dryRun": true, "failFast": true, "strict": false, "order": "random:3", "language": "fr", "shard": "1/2"}, ""},
		{[]string{"--world-parameters", `{"a":{"b":1}}`, "--world-parameters", `{"a":{"c":2}}`},
			map[string]any{"worldParameters": map[string]any{"a": map[string]any{"b": float64(1), "c": float64(2)}}}, ""},
		{[]string{"--require-module", "ts-node/register", "--publish"}, map[string]any{"requireModule": []any{"ts-node/register"}, "publish": true}, ""},
		{[]string{"--parallel", "two"}, nil, "--parallel must be a non-negative integer"},
		{[]string{"--tags"}, nil, "--tags needs a value"},
		{[]string{"--world-parameters", "[1]"}, nil, "must be a JSON object"},
		{[]string{"--nope"}, nil, `unknown option "--nope"`},
		{[]string{"--publish-quiet", "-fprogress", "-b", "--exit", "-l", "ts-node/esm", "--plugin", "p", "--plugin-options", `{"a":1}`},
			map[string]any{"publishQuiet": true, "format": []any{"progress"}, "backtrace": true, "forceExit": true, "loader": []any{"ts-node/esm"}, "plugin": []any{"p"}, "pluginOptions": map[string]any{"a": float64(1)}}, ""},
		// What cucumber-js drops from a profile: --config, --profile, i18n, --version.
		{[]string{"-c", "x.json", "--profile", "ci", "--i18n-keywords", "fr", "--i18n-languages", "-v", "-p", "x"}, map[string]any{}, ""},
		{[]string{"-t", "@a", "--", "--not-a-flag.feature"}, map[string]any{"tags": "@a", "paths": []any{"--not-a-flag.feature"}}, ""},
	} {
		got, err := parseArgv(tc.args)
		if tc.err != "" {
			if err == nil || !contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q = %v (%v), want %v", tc.args, got, err, tc.want)
		}
	}
}

// cucumberJSFlags are the flags of cucumber-js 8.11, 9.6, 10.9, 11.3,
// 12.9 and 13.3 together, as their configuration/argv_parser.js define
// them (read from the npm packages): a profile string may use any.
var cucumberJSFlags = []string{
	"-b", "--backtrace", "-c", "--config", "-d", "--dry-run", "--exit", "--force-exit", "--fail-fast",
	"-f", "--format", "--format-options", "--i18n-keywords", "--i18n-languages", "-i", "--import",
	"-l", "--loader", "--language", "--name", "--order", "-p", "--profile", "--parallel", "--plugin",
	"--plugin-options", "--publish", "--publish-quiet", "-r", "--require", "--require-module", "--retry",
	"--retry-tag-filter", "--shard", "--strict", "--no-strict", "-t", "--tags", "-v", "--version",
	"--world-parameters",
}

// TestEveryCucumberJSFlagParses: every flag of cucumber-js 8 to 13 is
// accepted in a profile string, with a value where it takes one.
func TestEveryCucumberJSFlagParses(t *testing.T) {
	values := map[string]string{
		"--format-options": `{"a":1}`, "--world-parameters": `{"a":1}`, "--plugin-options": `{"a":1}`,
		"--parallel": "2", "--retry": "1", "--i18n-keywords": "fr", "--shard": "1/2", "--order": "random:1",
	}
	for _, f := range cucumberJSFlags {
		opt, ok := argvOptions[f]
		if !ok {
			t.Errorf("%s: not accepted", f)
			continue
		}
		args := []string{f}
		if opt.kind != "bool" {
			v, ok := values[f]
			if !ok {
				v = "x"
			}
			args = append(args, v)
		}
		if _, err := parseArgv(args); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if got, want := len(Flags()), len(cucumberJSFlags); got != want {
		t.Errorf("Flags() has %d flags, cucumber-js 8-13 %d: %q", got, want, Flags())
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
