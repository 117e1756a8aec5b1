package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEnvMode: a suite configured by a cucumber-js configuration file sees
// the whole environment (with what the file set) unless ferridriver.toml
// has a [scripting] table or FERRIDRIVER_SCRIPTING_ALLOWENV is set; every
// other project sees [scripting] allowEnv.
func TestEnvMode(t *testing.T) {
	environ := []string{"HOME=/home/u", "ENV=local", "SECRET=s"}
	for _, tc := range []struct {
		name     string
		files    map[string]string
		envVar   string // FERRIDRIVER_SCRIPTING_ALLOWENV, "" unset
		node     bool
		why      string
		wantEnv  string // sorted KEY=VALUE, comma-separated
		wantHide string
	}{
		{"no configuration", nil, "", false, "no cucumber-js configuration file", "", "ENV,HOME,SECRET"},
		{"ferridriver.toml only", map[string]string{"ferridriver.toml": "[scripting]\nallowEnv = [\"ENV\"]\n"}, "", false, "no cucumber-js configuration file", "ENV=local", "HOME,SECRET"},
		{"cucumber.js only", map[string]string{"cucumber.js": "process.env.FROM_FILE = 'yes'\nmodule.exports = { default: {} }\n"}, "", true, "configured by cucumber.js, no ferridriver.toml",
			"ENV=local,FROM_FILE=yes,HOME=/home/u,SECRET=s", ""},
		{"cucumber.json only", map[string]string{"cucumber.json": `{"default": {}}`}, "", true, "configured by cucumber.json", "ENV=local,HOME=/home/u,SECRET=s", ""},
		{"ferridriver.toml without [scripting]", map[string]string{"cucumber.json": `{"default": {}}`, "ferridriver.toml": "[test]\nparallel = 2\n"}, "", true,
			"ferridriver.toml has no [scripting] table", "ENV=local,HOME=/home/u,SECRET=s", ""},
		{"ferridriver.toml with [scripting]", map[string]string{"cucumber.js": "process.env.FROM_FILE = 'yes'\nmodule.exports = {}\n", "ferridriver.toml": "[scripting]\nallowEnv = [\"FROM_FILE\", \"ENV\"]\n"}, "", false,
			"ferridriver.toml has a [scripting] table", "ENV=local,FROM_FILE=yes", "HOME,SECRET"},
		{"FERRIDRIVER_SCRIPTING_ALLOWENV", map[string]string{"cucumber.json": `{"default": {}}`}, `["HOME"]`, false, "FERRIDRIVER_SCRIPTING_ALLOWENV is set", "HOME=/home/u", "ENV,SECRET"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, c := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tc.envVar != "" {
				t.Setenv("FERRIDRIVER_SCRIPTING_ALLOWENV", tc.envVar)
			}
			env := map[string]string{}
			for _, kv := range environ {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			cfg, err := LoadWith(dir, "", LoadOptions{Env: env})
			if err != nil {
				t.Fatal(err)
			}
			m := cfg.EnvMode()
			if m.Node != tc.node || !strings.Contains(m.Why, tc.why) {
				t.Errorf("EnvMode() = %+v, want node=%v (%s)", m, tc.node, tc.why)
			}
			var got []string
			for k, v := range cfg.ProcessEnv(environ) {
				got = append(got, k+"="+v)
			}
			if g := strings.Join(slices.Sorted(slices.Values(got)), ","); g != tc.wantEnv {
				t.Errorf("ProcessEnv = %s, want %s", g, tc.wantEnv)
			}
			var hidden []string
			for k := range cfg.HiddenEnv(environ) {
				hidden = append(hidden, k)
			}
			if h := strings.Join(slices.Sorted(slices.Values(hidden)), ","); h != tc.wantHide {
				t.Errorf("HiddenEnv = %s, want %s", h, tc.wantHide)
			}
		})
	}
}
