package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, name, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadFormats(t *testing.T) {
	for name, content := range map[string]string{
		"ferridriver.toml": "extensions = [\"ext\"]\n[test]\nparallel = 2\ntags = \"@smoke\"\nformat = [\"junit:out.xml\"]\nworldParameters = { baseUrl = \"http://x\", Nested = { camelCase = 1 } }\n[bundler]\nalias = { \"MyLib\" = \"./lib.ts\" }\n",
		"ferridriver.yaml": "extensions: [ext]\ntest:\n  parallel: 2\n  tags: '@smoke'\n  format: ['junit:out.xml']\n  worldParameters: {baseUrl: 'http://x', Nested: {camelCase: 1}}\nbundler:\n  alias: {MyLib: ./lib.ts}\n",
		"ferridriver.json": `{"extensions":["ext"],"test":{"parallel":2,"tags":"@smoke","format":["junit:out.xml"],"worldParameters":{"baseUrl":"http://x","Nested":{"camelCase":1}}},"bundler":{"alias":{"MyLib":"./lib.ts"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := Load(write(t, name, content), "")
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Base(cfg.File) != name || cfg.Test.Parallel != 2 || !reflect.DeepEqual([]string(cfg.Test.Tags), []string{"@smoke"}) ||
				!reflect.DeepEqual(cfg.Extensions, []string{"ext"}) || !reflect.DeepEqual([]string(cfg.Test.Format), []string{"junit:out.xml"}) {
				t.Fatalf("%+v", cfg)
			}
			// Keys that are user data keep their case.
			if cfg.Test.WorldParameters["baseUrl"] != "http://x" || cfg.Bundler.Alias["MyLib"] != "./lib.ts" {
				t.Fatalf("case lost: %v %v", cfg.Test.WorldParameters, cfg.Bundler.Alias)
			}
			if n, ok := cfg.Test.WorldParameters["Nested"].(map[string]any); !ok || n["camelCase"] == nil {
				t.Fatalf("nested case lost: %v", cfg.Test.WorldParameters)
			}
			if !cfg.Test.StrictOrDefault() {
				t.Fatal("strict defaults to true")
			}
		})
	}
}

// [steps] values keep the case of their names; pages are globs.
func TestStepsSection(t *testing.T) {
	cfg, err := Load(write(t, "ferridriver.toml", "[steps]\npages = [\"ui/**/*.yaml\"]\n[steps.values]\nadminUser = \"ada\"\nLimits = { maxItems = 3 }\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Steps.Pages, []string{"ui/**/*.yaml"}) || cfg.Steps.Values["adminUser"] != "ada" {
		t.Fatalf("%+v", cfg.Steps)
	}
	if l, ok := cfg.Steps.Values["Limits"].(map[string]any); !ok || l["maxItems"] == nil {
		t.Fatalf("nested case lost: %v", cfg.Steps.Values)
	}
}

func TestNoFileIsFine(t *testing.T) {
	cfg, err := Load(t.TempDir(), "")
	if err != nil || cfg.File != "" || cfg.Test.Parallel != 0 {
		t.Fatalf("%+v %v", cfg, err)
	}
}

func TestErrorsNameFileAndKey(t *testing.T) {
	for _, tc := range []struct {
		name, file, content, want string
	}{
		{"unknown key", "ferridriver.toml", "[test]\nparalel = 2\n", `ferridriver.toml: test.paralel: unknown key (did you mean "parallel"?)`},
		{"wrong case", "ferridriver.toml", "[test]\ndryrun = true\n", `test.dryrun: unknown key (did you mean "dryRun"?)`},
		{"unknown section", "ferridriver.toml", "[tset]\nx = 1\n", `ferridriver.toml: tset: unknown key (did you mean "test"?)`},
		{"unknown browser key", "ferridriver.yaml", "browser:\n  headles: false\n", `ferridriver.yaml: browser.headles: unknown key (did you mean "headless"?)`},
		{"wrong type", "ferridriver.toml", "[test]\nparallel = \"two\"\n", `ferridriver.toml: test.parallel: expected an integer, got a string ("two")`},
		{"wrong type list", "ferridriver.toml", "[test]\nstrict = [1]\n", `ferridriver.toml: test.strict: expected true or false, got a list`},
		{"list of numbers", "ferridriver.json", `{"test":{"features":[1]}}`, `ferridriver.json: test.features: item 0: expected a string`},
		{"table expected", "ferridriver.toml", "[test]\nworldParameters = 3\n", `test.worldParameters: expected a table, got a number (3)`},
		{"negative", "ferridriver.toml", "[test]\nretry = -1\n", `ferridriver.toml: test.retry: must be >= 0, got -1`},
		{"negative attachment limit", "ferridriver.toml", "[test]\nattachmentLimit = -1\n", `ferridriver.toml: test.attachmentLimit: must be >= 0 (MiB; 0: no limit), got -1`},
		{"negative memory limit", "ferridriver.toml", "[test]\nmemoryLimit = -5\n", `ferridriver.toml: test.memoryLimit: must be >= 0 (MiB; 0: no limit), got -5`},
		{"syntax", "ferridriver.toml", "[test\n", `ferridriver.toml: `},
		{"steps key", "ferridriver.toml", "[steps]\npage = [\"p/*.yaml\"]\n", `ferridriver.toml: steps.page: unknown key (did you mean "pages"?)`},
		{"steps pages glob", "ferridriver.toml", "[steps]\npages = [\"p/[.yaml\"]\n", `ferridriver.toml: steps.pages[0]: "p/[.yaml" is not a valid glob`},
		{"steps values table", "ferridriver.yaml", "steps:\n  values: [1]\n", `ferridriver.yaml: steps.values: expected a table, got a list`},
		{"webServer item key", "ferridriver.toml", "[[webServer]]\ncomand = \"x\"\n", `webServer[0].comand: unknown key (did you mean "command"?)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, tc.file, tc.content), "")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestEnvironmentOverridesFile(t *testing.T) {
	dir := write(t, "ferridriver.toml", "[test]\nparallel = 2\nworldParameters = { a = 1 }\n")
	t.Setenv("FERRIDRIVER_TEST_PARALLEL", "4")
	t.Setenv("FERRIDRIVER_TEST_TAGS", "@ci")
	cfg, err := Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Test.Parallel != 4 || !reflect.DeepEqual([]string(cfg.Test.Tags), []string{"@ci"}) {
		t.Fatalf("%+v", cfg.Test)
	}
	t.Setenv("FERRIDRIVER_TEST_PARALLEL", "many")
	if _, err := Load(dir, ""); err == nil || !strings.Contains(err.Error(), "parallel") {
		t.Fatalf("bad env value: %v", err)
	}
}

// The limits of [test] are unset (the runner's defaults) unless the file
// or FERRIDRIVER_TEST_* sets them; 0 is kept (no limit).
func TestLimits(t *testing.T) {
	dir := write(t, "ferridriver.toml", "[test]\nattachmentLimit = 0\n")
	cfg, err := Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Test.AttachmentLimit == nil || *cfg.Test.AttachmentLimit != 0 || cfg.Test.MemoryLimit != nil {
		t.Fatalf("attachmentLimit %v, memoryLimit %v", cfg.Test.AttachmentLimit, cfg.Test.MemoryLimit)
	}
	t.Setenv("FERRIDRIVER_TEST_ATTACHMENTLIMIT", "8")
	t.Setenv("FERRIDRIVER_TEST_MEMORYLIMIT", "512")
	if cfg, err = Load(dir, ""); err != nil {
		t.Fatal(err)
	}
	if cfg.Test.AttachmentLimit == nil || *cfg.Test.AttachmentLimit != 8 || cfg.Test.MemoryLimit == nil || *cfg.Test.MemoryLimit != 512 {
		t.Fatalf("from the environment: attachmentLimit %v, memoryLimit %v", cfg.Test.AttachmentLimit, cfg.Test.MemoryLimit)
	}
	t.Setenv("FERRIDRIVER_TEST_UPDATESNAPSHOTS", "all")
	t.Setenv("FERRIDRIVER_BROWSER_VIDEO", "retain-on-failure")
	if cfg, err = Load(dir, ""); err != nil {
		t.Fatal(err)
	}
	if cfg.Test.UpdateSnapshots != "all" || cfg.Browser.Video != "retain-on-failure" {
		t.Fatalf("from the environment: updateSnapshots %q, video %q", cfg.Test.UpdateSnapshots, cfg.Browser.Video)
	}
	t.Setenv("FERRIDRIVER_TEST_UPDATESNAPSHOTS", "sometimes")
	if _, err = Load(dir, ""); err == nil || !strings.Contains(err.Error(), `test.updateSnapshots: "sometimes" (want all, changed, missing, none)`) {
		t.Fatalf("a bad updateSnapshots: %v", err)
	}
}

func TestExplicitFile(t *testing.T) {
	dir := write(t, "other.yaml", "test:\n  retry: 3\n")
	cfg, err := Load(dir, "other.yaml")
	if err != nil || cfg.Test.Retry != 3 {
		t.Fatalf("%+v %v", cfg, err)
	}
	if _, err := Load(dir, "missing.toml"); err == nil {
		t.Fatal("a missing explicit config file must be an error")
	}
}

// [browser] connectHeaders: ${NAME} in a value is read from the
// environment, the file keeps the header names' case, the environment's
// JSON object wins over the file, and no error ever quotes a value.
func TestConnectHeaders(t *testing.T) {
	const secret = "s3cret-Token"
	dir := write(t, "ferridriver.toml", "[browser]\nconnect = \"ws://grid:3000/\"\nconnectHeaders = { Authorization = \"Bearer ${GRID_TOKEN}\", X-Team = \"qa\" }\n")
	t.Setenv("GRID_TOKEN", secret)
	cfg, err := Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"Authorization": "Bearer " + secret, "X-Team": "qa"}; !reflect.DeepEqual(cfg.Browser.ConnectHeaders, want) {
		t.Fatalf("headers %v, want %v", cfg.Browser.ConnectHeaders, want)
	}

	t.Setenv("FERRIDRIVER_BROWSER_CONNECTHEADERS", `{"Authorization":"Basic ${GRID_TOKEN}"}`)
	if cfg, err = Load(dir, ""); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"Authorization": "Basic " + secret}; !reflect.DeepEqual(cfg.Browser.ConnectHeaders, want) {
		t.Fatalf("environment: headers %v, want %v", cfg.Browser.ConnectHeaders, want)
	}

	for _, tc := range []struct {
		name, content, env, want string
	}{
		{"unset variable", "[browser]\nconnectHeaders = { Authorization = \"Bearer ${NO_SUCH_VAR_FD}\" }\n", "",
			"ferridriver.toml: browser.connectHeaders.Authorization: the environment variable NO_SUCH_VAR_FD is not set"},
		{"not a table", "[browser]\nconnectHeaders = \"Bearer " + secret + "\"\n", "",
			"ferridriver.toml: browser.connectHeaders: expected a table, got a string"},
		{"env not JSON", "", "Bearer " + secret, "'browser.connectHeaders' expected a JSON object, got invalid JSON (at byte 1)"},
		{"env not an object", "", `"` + secret + `"`, "'browser.connectHeaders' expected a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, "ferridriver.toml", tc.content)
			if tc.env != "" {
				t.Setenv("FERRIDRIVER_BROWSER_CONNECTHEADERS", tc.env)
			} else {
				os.Unsetenv("FERRIDRIVER_BROWSER_CONNECTHEADERS")
			}
			_, err := Load(dir, "")
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), secret) {
				t.Fatalf("error %v, want it to contain %q and not the secret", err, tc.want)
			}
		})
	}
}

// The environment's JSON object wins over the file's table for every
// table it can set; without it the file's keys keep their case.
func TestEnvironmentTablesWinOverTheFile(t *testing.T) {
	dir := write(t, "ferridriver.toml", "[test]\nworldParameters = { Role = \"file\" }\n\n[steps.values]\nUser = \"file\"\n")
	for _, tc := range []struct {
		env  string
		json string
		got  func(*Config) map[string]any
	}{
		{"FERRIDRIVER_TEST_WORLDPARAMETERS", `{"Role":"env"}`, func(c *Config) map[string]any { return c.Test.WorldParameters }},
		{"FERRIDRIVER_STEPS_VALUES", `{"User":"env"}`, func(c *Config) map[string]any { return c.Steps.Values }},
	} {
		t.Run(tc.env, func(t *testing.T) {
			cfg, err := Load(dir, "")
			if err != nil {
				t.Fatal(err)
			}
			var file map[string]any
			if err := json.Unmarshal([]byte(strings.ReplaceAll(tc.json, "env", "file")), &file); err != nil {
				t.Fatal(err)
			}
			if got := tc.got(cfg); !reflect.DeepEqual(got, file) {
				t.Errorf("without the environment: %v, want %v", got, file)
			}
			t.Setenv(tc.env, tc.json)
			if cfg, err = Load(dir, ""); err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			if err := json.Unmarshal([]byte(tc.json), &want); err != nil {
				t.Fatal(err)
			}
			if got := tc.got(cfg); !reflect.DeepEqual(got, want) {
				t.Errorf("with %s: %v, want %v", tc.env, got, want)
			}
		})
	}
}
