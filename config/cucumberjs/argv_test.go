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

func contains(s, sub string) bool { return strings.Contains(s, sub) }
