package config

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ferridriver/ferridriver/config/cucumberjs"
)

// CucumberSource is the cucumber-js configuration read under
// ferridriver.toml.
type CucumberSource struct {
	// File is the file read, relative to the project directory.
	File string
	// Profiles are the profiles merged, in order.
	Profiles []string
	// Notes are the options read but not applied (publish, requireModule...),
	// one line each, for the user to see once.
	Notes []string
	// Env is process.env as a JavaScript configuration file left it (nil
	// for JSON and YAML): what dotenv loaded there, step code sees.
	Env map[string]string
}

// LoadOptions are the inputs of LoadWith besides the directory and file.
type LoadOptions struct {
	// Profiles are cucumber-js profiles to merge (--profile/-p); none means
	// the default profile.
	Profiles []string
	// Env is process.env for a JavaScript cucumber-js configuration file
	// (nil: the real environment).
	Env map[string]string
}

// Value sources, as Sources reports them.
const (
	SourceDefault  = "default"
	SourceFile     = "file"     // ferridriver.toml (Config.File)
	SourceEnv      = "env"      // FERRIDRIVER_*
	SourceCucumber = "cucumber" // the cucumber-js configuration (Config.Cucumber)
)

// cucumberKeys maps the [test] keys onto the cucumber-js options that fill
// them when ferridriver.toml and the environment do not.
var cucumberKeys = []struct {
	key      string   // test.<key>
	cucumber []string // cucumber-js options
}{
	{"features", []string{"paths"}},
	{"steps", []string{"require", "import"}},
	{"tags", []string{"tags"}},
	{"name", []string{"name"}},
	{"parallel", []string{"parallel"}},
	{"retry", []string{"retry"}},
	{"retryTagFilter", []string{"retryTagFilter"}},
	{"strict", []string{"strict"}},
	{"dryRun", []string{"dryRun"}},
	{"failFast", []string{"failFast"}},
	{"order", []string{"order"}},
	{"language", []string{"language"}},
	{"worldParameters", []string{"worldParameters"}},
	{"format", []string{"format"}},
	{"formatOptions", []string{"formatOptions"}},
	{"shard", []string{"shard"}},
	{"timeout", nil}, // cucumber-js has none: setDefaultTimeout in code
}

// TestKeys are the [test] keys, in the documented order.
func TestKeys() []string {
	out := make([]string, len(cucumberKeys))
	for i, k := range cucumberKeys {
		out[i] = k.key
	}
	return out
}

// CucumberOptionsOf returns the cucumber-js options that map to a [test] key.
func CucumberOptionsOf(key string) []string {
	for _, k := range cucumberKeys {
		if k.key == key {
			return k.cucumber
		}
	}
	return nil
}

// cucumberNotes explain the cucumber-js options ferridriver reads but does
// not apply.
var cucumberNotes = map[string]string{
	"requireModule":  "requireModule is ignored: ferridriver compiles TypeScript and modern JavaScript itself (ts-node, tsx, @babel/register are not needed)",
	"loader":         "loader is ignored: ferridriver compiles TypeScript and modern JavaScript itself (ts-node/esm, tsx are not needed)",
	"publish":        "publish is ignored: ferridriver does not publish reports to reports.cucumber.io",
	"publishQuiet":   "publishQuiet is ignored: it only hid cucumber-js's banner about publishing (cucumber-js 12 removed it), and ferridriver publishes nothing",
	"backtrace":      "backtrace is ignored: ferridriver always shows the stack of a failure, mapped to your sources",
	"forceExit":      "forceExit is ignored: ferridriver always exits when the run ends",
	"workerOptions":  "workerOptions is ignored: ferridriver's workers are not Node processes",
	"plugin":         "plugin is not supported: cucumber-js's coordinator plugins (pickle filters and orders, publish hooks) are not loaded; a formatter plugin ({ type: 'formatter' }) runs when given to format",
	"pluginOptions":  "pluginOptions is ignored (plugins are not supported)",
	"snippetSyntax":  "snippetSyntax is not supported",
	"requireModules": "requireModules is ignored",
}

// CucumberNote says why ferridriver does not apply the cucumber-js option
// ("" for an option it applies or does not know).
func CucumberNote(option string) string {
	note := cucumberNotes[option]
	if _, why, ok := strings.Cut(note, " is ignored: "); ok {
		return "ignored: " + why
	}
	if _, why, ok := strings.Cut(note, " is not supported: "); ok {
		return "not supported: " + why
	}
	return note
}

// LoadWith is Load that also reads the project's cucumber-js configuration
// (cucumber.js/.cjs/.mjs/.json/.yaml/.yml, or config/cucumber.*, or the
// file given when it is one) into the same configuration, under
// ferridriver.toml and the environment: a [test] key that neither sets
// takes the cucumber-js option's value.
func LoadWith(dir, file string, opts LoadOptions) (*Config, error) {
	cucumberFile := ""
	if file != "" && cucumberjs.IsConfigFile(file) {
		cucumberFile, file = file, ""
	}
	cfg, err := Load(dir, file)
	if err != nil {
		return nil, err
	}
	if cucumberFile == "" {
		cucumberFile = cucumberjs.Locate(dir)
	}
	if cucumberFile == "" {
		if len(opts.Profiles) > 0 {
			return nil, &Error{Key: "--profile", Msg: fmt.Sprintf("no cucumber-js configuration file (%s, in the project or config/) defines profile %q", strings.Join(cucumberjs.FileNames, ", "), opts.Profiles[0])}
		}
		cfg.Sources = sourcesOf(cfg, nil)
		return cfg, nil
	}
	env := opts.Env
	if env == nil {
		env = map[string]string{}
		for _, kv := range os.Environ() {
			if k, v, ok := strings.Cut(kv, "="); ok {
				env[k] = v
			}
		}
	}
	res, err := cucumberjs.Load(dir, cucumberFile, opts.Profiles, env)
	if err != nil {
		return nil, err
	}
	cfg.Cucumber = &CucumberSource{File: res.File, Profiles: res.Profiles, Env: res.Env}
	applied, err := cfg.applyCucumber(res)
	if err != nil {
		return nil, err
	}
	cfg.Sources = sourcesOf(cfg, applied)
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// setByFileOrEnv says where a [test] key was set: the file, the
// environment, or neither ("").
func setByFileOrEnv(cfg *Config, raw map[string]any, key string) string {
	if _, ok := os.LookupEnv("FERRIDRIVER_TEST_" + strings.ToUpper(key)); ok {
		return SourceEnv
	}
	if t, ok := raw["test"].(map[string]any); ok {
		if _, ok := t[key]; ok {
			return SourceFile
		}
	}
	return ""
}

// rawFile re-reads ferridriver.toml's keys (nil when there is none).
func rawFile(cfg *Config) map[string]any {
	if cfg.File == "" {
		return nil
	}
	raw, _ := readRaw(cfg.File)
	return raw
}

// applyCucumber fills the [test] keys that ferridriver.toml and the
// environment leave unset from the cucumber-js options, and records notes
// for the options it does not apply. It returns the keys it set.
func (cfg *Config) applyCucumber(res *cucumberjs.Result) (map[string]bool, error) {
	raw := rawFile(cfg)
	o := res.Options
	bad := func(opt, want string) error {
		return &Error{File: res.File, Key: opt, Msg: fmt.Sprintf("expected %s, got %s", want, describe(o[opt]))}
	}
	known := map[string]bool{}
	for _, k := range cucumberKeys {
		for _, c := range k.cucumber {
			known[c] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if known[k] {
			continue
		}
		if note, ok := cucumberNotes[k]; ok {
			if !isEmpty(o[k]) {
				cfg.Cucumber.Notes = append(cfg.Cucumber.Notes, note)
			}
			continue
		}
		cfg.Cucumber.Notes = append(cfg.Cucumber.Notes, fmt.Sprintf("%s is not a cucumber-js option ferridriver knows: ignored", k))
	}
	applied := map[string]bool{}
	t := &cfg.Test
	for _, k := range cucumberKeys {
		present := false
		for _, c := range k.cucumber {
			if v, ok := o[c]; ok && !absent(v) {
				present = true
			}
		}
		if !present || setByFileOrEnv(cfg, raw, k.key) != "" {
			continue
		}
		var err error
		switch k.key {
		case "features":
			t.Features, err = stringList(o, "paths", bad)
		case "steps":
			var req, imp []string
			if req, err = stringList(o, "require", bad); err == nil {
				imp, err = stringList(o, "import", bad)
			}
			t.Steps = append(req, imp...)
		case "tags":
			var s string
			if s, err = stringOpt(o, "tags", bad); s != "" {
				t.Tags = StringList{s}
			}
		case "name":
			var l []string
			l, err = stringList(o, "name", bad)
			t.Name = StringList(l)
		case "parallel":
			t.Parallel, err = intOpt(o, "parallel", bad)
		case "retry":
			t.Retry, err = intOpt(o, "retry", bad)
		case "retryTagFilter":
			t.RetryTagFilter, err = stringOpt(o, "retryTagFilter", bad)
		case "strict":
			var b bool
			b, err = boolOpt(o, "strict", bad)
			t.Strict = &b
		case "dryRun":
			t.DryRun, err = boolOpt(o, "dryRun", bad)
		case "failFast":
			t.FailFast, err = boolOpt(o, "failFast", bad)
		case "order":
			t.Order, err = stringOpt(o, "order", bad)
		case "language":
			t.Language, err = stringOpt(o, "language", bad)
		case "shard":
			t.Shard, err = stringOpt(o, "shard", bad)
		case "worldParameters":
			m, ok := o["worldParameters"].(map[string]any)
			if !ok {
				err = bad("worldParameters", "an object")
			}
			t.WorldParameters = m
		case "formatOptions":
			m, ok := o["formatOptions"].(map[string]any)
			if !ok {
				err = bad("formatOptions", "an object")
			}
			t.FormatOptions = m
		case "format":
			t.Format, err = formats(o, bad)
		}
		if err != nil {
			return nil, err
		}
		applied[k.key] = true
	}
	return applied, nil
}

// formats converts cucumber-js's format list: "name", "name:path" or
// ["name", "path"].
func formats(o map[string]any, bad func(string, string) error) (StringList, error) {
	var out StringList
	for _, f := range toAnyList(o["format"]) {
		switch x := f.(type) {
		case string:
			out = append(out, x)
		case []any:
			if len(x) == 0 || len(x) > 2 {
				return nil, bad("format", `"name", "name:path" or ["name", "path"] items`)
			}
			name, ok := x[0].(string)
			if !ok {
				return nil, bad("format", `"name", "name:path" or ["name", "path"] items`)
			}
			if len(x) == 2 {
				path, ok := x[1].(string)
				if !ok {
					return nil, bad("format", `"name", "name:path" or ["name", "path"] items`)
				}
				// cucumber-js's quoted form keeps a colon in either part
				// (a file: URL naming a custom formatter).
				if strings.Contains(name, ":") || strings.Contains(path, ":") {
					name = `"` + name + `":"` + path + `"`
				} else {
					name += ":" + path
				}
			}
			out = append(out, name)
		default:
			return nil, bad("format", `"name", "name:path" or ["name", "path"] items`)
		}
	}
	return out, nil
}

// sourcesOf says where each [test] key's value came from.
func sourcesOf(cfg *Config, fromCucumber map[string]bool) map[string]string {
	raw := rawFile(cfg)
	out := map[string]string{}
	for _, k := range cucumberKeys {
		switch {
		case fromCucumber[k.key]:
			out[k.key] = SourceCucumber
		default:
			if s := setByFileOrEnv(cfg, raw, k.key); s != "" {
				out[k.key] = s
			} else {
				out[k.key] = SourceDefault
			}
		}
	}
	return out
}

func toAnyList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	}
	return []any{v}
}

func stringList(o map[string]any, key string, bad func(string, string) error) ([]string, error) {
	var out []string
	for _, v := range toAnyList(o[key]) {
		s, ok := v.(string)
		if !ok {
			return nil, bad(key, "a list of strings")
		}
		if key == "paths" || key == "require" || key == "import" {
			s = filepath.ToSlash(s)
		}
		out = append(out, s)
	}
	return out, nil
}

func stringOpt(o map[string]any, key string, bad func(string, string) error) (string, error) {
	if o[key] == nil {
		return "", nil
	}
	s, ok := o[key].(string)
	if !ok {
		return "", bad(key, "a string")
	}
	return s, nil
}

func intOpt(o map[string]any, key string, bad func(string, string) error) (int, error) {
	f, ok := o[key].(float64)
	if !ok || f != float64(int(f)) || f < 0 {
		return 0, bad(key, "a non-negative integer")
	}
	return int(f), nil
}

func boolOpt(o map[string]any, key string, bad func(string, string) error) (bool, error) {
	b, ok := o[key].(bool)
	if !ok {
		return false, bad(key, "true or false")
	}
	return b, nil
}

// absent says whether an option's value sets nothing (cucumber-js's
// defaults: "", [], {}); false is a value (strict: false).
func absent(v any) bool {
	if _, ok := v.(bool); ok {
		return false
	}
	return isEmpty(v)
}

// isEmpty says whether an option is unset or at its default, false
// included (publish: false deserves no note).
func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	case bool:
		return !x
	}
	return false
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("a string (%q)", x)
	case bool:
		return fmt.Sprintf("%v", x)
	case float64:
		return fmt.Sprintf("%v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("%T", v)
}
