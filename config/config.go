// Package config loads ferridriver's configuration: ferridriver.toml (or
// .yaml/.yml/.json) in the project directory, then FERRIDRIVER_* environment
// variables, then command-line flags (applied by the CLI), each layer
// winning over the previous one.
//
// Files are read with viper. Viper folds keys to lower case, so the
// free-form tables whose keys are user data (test.worldParameters,
// test.formatOptions, bundler.alias, webServer env) are re-read from the
// file with their case kept. Unknown keys and values of the wrong type are
// errors naming the file and the key.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-viper/mapstructure/v2"
	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/webserver"
)

// FileNames are the config files looked for in the project directory, in
// order of preference.
var FileNames = []string{"ferridriver.toml", "ferridriver.yaml", "ferridriver.yml", "ferridriver.json"}

// Config is the whole configuration.
type Config struct {
	// Extensions are extension files or directories (walked recursively).
	Extensions []string           `mapstructure:"extensions"`
	Test       Test               `mapstructure:"test"`
	Bundler    Bundler            `mapstructure:"bundler"`
	Scripting  Scripting          `mapstructure:"scripting"`
	Browser    world.Config       `mapstructure:"browser"`
	WebServer  []webserver.Config `mapstructure:"webServer"`
	MCP        MCP                `mapstructure:"mcp"`
	Steps      Steps              `mapstructure:"steps"`

	// File is the config file that was read ("" when there was none).
	File string `mapstructure:"-"`
	// Cucumber is the cucumber-js configuration read under File (nil: none;
	// see LoadWith).
	Cucumber *CucumberSource `mapstructure:"-"`
	// Sources says where each [test] key's value came from: SourceDefault,
	// SourceFile, SourceEnv or SourceCucumber (filled by LoadWith).
	Sources map[string]string `mapstructure:"-"`
	// Dir is the project directory.
	Dir string `mapstructure:"-"`
}

// Test is the [test] section: how `ferridriver bdd` runs.
type Test struct {
	Features        []string       `mapstructure:"features"`
	Steps           []string       `mapstructure:"steps"`
	Tags            StringList     `mapstructure:"tags"`
	Name            StringList     `mapstructure:"name"`
	Parallel        int            `mapstructure:"parallel"`
	Retry           int            `mapstructure:"retry"`
	RetryTagFilter  string         `mapstructure:"retryTagFilter"`
	Strict          *bool          `mapstructure:"strict"`
	DryRun          bool           `mapstructure:"dryRun"`
	FailFast        bool           `mapstructure:"failFast"`
	Order           string         `mapstructure:"order"`
	Language        string         `mapstructure:"language"`
	WorldParameters map[string]any `mapstructure:"worldParameters"`
	Format          StringList     `mapstructure:"format"`
	FormatOptions   map[string]any `mapstructure:"formatOptions"`
	Shard           string         `mapstructure:"shard"`
	// BuiltinSteps loads the built-in step library (default true).
	BuiltinSteps *bool `mapstructure:"builtinSteps"`
	// AttachmentLimit is the largest attachment step code may make, in
	// MiB (unset: the runner's default; 0: no limit).
	AttachmentLimit *int `mapstructure:"attachmentLimit"`
	// MemoryLimit is how much a step or hook may grow ferridriver's heap
	// while it runs, in MiB (unset: the runner's default; 0: no limit).
	MemoryLimit *int `mapstructure:"memoryLimit"`
	// Timeout is the default timeout of steps and hooks in milliseconds
	// (0: none; nil: cucumber-js's 5000); setDefaultTimeout in a support
	// file and a definition's own { timeout } win over it.
	Timeout *float64 `mapstructure:"timeout"`
	// UpdateSnapshots is Playwright's updateSnapshots: which baselines of
	// toHaveScreenshot and toMatchSnapshot a run writes: "missing" (the
	// default), "all", "changed" or "none".
	UpdateSnapshots string `mapstructure:"updateSnapshots"`
	// SnapshotDir is where baselines go ({snapshotDir}; default: the
	// project directory), relative to the project.
	SnapshotDir string `mapstructure:"snapshotDir"`
	// SnapshotPathTemplate names baselines with Playwright's tokens
	// (default: {snapshotDir}/{testFileDir}/{testFileName}-snapshots/{arg}{-projectName}{-snapshotSuffix}{ext}).
	SnapshotPathTemplate string `mapstructure:"snapshotPathTemplate"`
}

// UpdateSnapshotModes are the values of [test] updateSnapshots.
var UpdateSnapshotModes = []string{"all", "changed", "missing", "none"}

// Steps is the [steps] section: the project's data for the built-in step
// library.
type Steps struct {
	// Pages are globs of page-object files (YAML, TOML, JSON), relative to
	// the project; nil means steps/pages.DefaultPatterns.
	Pages []string `mapstructure:"pages"`
	// Values are what `$name` in a step's arguments gives when the
	// scenario has not remembered name (key case is kept).
	Values map[string]any `mapstructure:"values"`
}

// MCP is the [mcp] section: `ferridriver mcp` over HTTP.
type MCP struct {
	// Token is the bearer token HTTP clients must send; required when the
	// server binds to an address other than loopback
	// (FERRIDRIVER_MCP_TOKEN, --token).
	Token string `mapstructure:"token"`
	// TokenFile is a file whose first line is the token (kept out of
	// the process list and of the configuration file).
	TokenFile string `mapstructure:"tokenFile"`
	// HTTPOrigins are the Origin header values (web pages) allowed besides
	// loopback ones; "*" allows any (--http-origins).
	HTTPOrigins []string `mapstructure:"httpOrigins"`
	// SessionIdleTimeout closes an HTTP session idle for that long, a Go
	// duration ("30m"; "0" never) (--session-idle-timeout).
	SessionIdleTimeout string `mapstructure:"sessionIdleTimeout"`
	// MaxSessions caps the HTTP sessions open at once (0: none)
	// (--max-sessions).
	MaxSessions *int `mapstructure:"maxSessions"`
	// MaxContexts caps the browser contexts open at once across the
	// clients (0: none) (--max-contexts).
	MaxContexts *int `mapstructure:"maxContexts"`
	// ReadTimeout bounds the time an HTTP request body may take to
	// arrive, a Go duration ("30s"; "0" none) (--read-timeout).
	ReadTimeout string `mapstructure:"readTimeout"`
	// AllowRead and AllowWrite are the folders (relative to the project)
	// whose files MCP clients may read (browser_file_upload, file:// pages,
	// run_script's node:fs and browser-API reads) and write (run_script's
	// writes); a writable folder is readable too (--allow-read,
	// --allow-write). Default: none.
	AllowRead  []string `mapstructure:"allowRead"`
	AllowWrite []string `mapstructure:"allowWrite"`
	// AllowUnrestrictedFileAccess drops that folder check, as
	// @playwright/mcp's option (--allow-unrestricted-file-access).
	AllowUnrestrictedFileAccess bool `mapstructure:"allowUnrestrictedFileAccess"`
	// AllowedOrigins and BlockedOrigins filter the requests of the
	// browser's pages, as @playwright/mcp's --allowed-origins and
	// --blocked-origins (see world/sandbox.OriginFilter).
	AllowedOrigins []string `mapstructure:"allowedOrigins"`
	BlockedOrigins []string `mapstructure:"blockedOrigins"`
}

// validate checks the [mcp] values.
func (m MCP) validate() error {
	for _, k := range []struct{ key, v string }{{"mcp.sessionIdleTimeout", m.SessionIdleTimeout}, {"mcp.readTimeout", m.ReadTimeout}} {
		if k.v == "" {
			continue
		}
		if d, err := time.ParseDuration(k.v); err != nil || d < 0 {
			return &Error{Key: k.key, Msg: fmt.Sprintf("%q is not a duration such as \"30s\" or \"30m\" (\"0\": none)", k.v)}
		}
	}
	for _, k := range []struct {
		key string
		v   *int
	}{{"mcp.maxSessions", m.MaxSessions}, {"mcp.maxContexts", m.MaxContexts}} {
		if k.v != nil && *k.v < 0 {
			return &Error{Key: k.key, Msg: fmt.Sprintf("must be >= 0 (0: no limit), got %d", *k.v)}
		}
	}
	return nil
}

// Bundler is the [bundler] section.
type Bundler struct {
	// Alias maps import specifiers to others.
	Alias map[string]string `mapstructure:"alias"`
}

// Scripting is the [scripting] section: the sandbox relaxations.
type Scripting struct {
	// AllowEnv names the environment variables process.env may show.
	AllowEnv []string `mapstructure:"allowEnv"`
	// Allow holds capabilities granted to first-party scripts and steps
	// (allow.commands), with the extension manifest's shape.
	Allow map[string]any `mapstructure:"allow"`
}

// StringList accepts a string or a list of strings.
type StringList []string

// Error is a configuration problem, naming the file and key.
type Error struct {
	File string
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	where := e.File
	if where == "" {
		where = "configuration"
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: %s: %s", where, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", where, e.Msg)
}

// Load reads the configuration of the project in dir: file (or the first
// of FileNames found in dir; none is fine), then FERRIDRIVER_* variables.
func Load(dir, file string) (*Config, error) {
	if file == "" {
		for _, n := range FileNames {
			p := filepath.Join(dir, n)
			if _, err := os.Stat(p); err == nil {
				file = p
				break
			}
		}
	} else if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	cfg := &Config{Dir: dir}
	v := viper.New()
	v.SetEnvPrefix("FERRIDRIVER")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	var raw map[string]any
	if file != "" {
		cfg.File = file
		rel := relName(dir, file)
		v.SetConfigFile(file)
		if err := v.ReadInConfig(); err != nil {
			return nil, &Error{File: rel, Msg: cleanParseError(err)}
		}
		var err error
		raw, err = readRaw(file)
		if err != nil {
			return nil, &Error{File: rel, Msg: err.Error()}
		}
		if err := checkKeys(raw, reflect.TypeOf(Config{}), ""); err != nil {
			err.File = rel
			return nil, err
		}
	}
	// Every known key must be known to viper for its environment variable
	// (FERRIDRIVER_TEST_PARALLEL...) to be seen by Unmarshal.
	for _, k := range envKeys {
		v.SetDefault(k, nil)
	}
	err := v.Unmarshal(cfg, func(dc *mapstructure.DecoderConfig) {
		dc.DecodeHook = mapstructure.ComposeDecodeHookFunc(envJSONHook, stringListHook)
		// The file's types were checked against the struct above; weak
		// typing lets FERRIDRIVER_TEST_PARALLEL=4 (a string) set an int.
		dc.WeaklyTypedInput = true
		dc.ZeroFields = false
	})
	if err != nil {
		return nil, &Error{File: relName(dir, file), Msg: cleanDecodeError(err)}
	}
	// Free-form tables keep the case of their keys.
	if raw != nil {
		restoreCase(cfg, raw)
	}
	if err := cfg.validate(); err != nil {
		if e, ok := err.(*Error); ok && e.File == "" {
			e.File = relName(dir, file)
		}
		return nil, err
	}
	return cfg, nil
}

// envKeys are the keys that can be set from FERRIDRIVER_<SECTION>_<KEY>
// (lower case, as viper keys them): every key of every section, and the
// top-level keys (extensions, webServer), derived from Config so that no
// setting lacks its variable. A key whose value is a table or a list of
// tables (worldParameters, viewport, webServer) takes JSON.
var envKeys = envKeysOf(reflect.TypeOf(Config{}), "", 0)

func envKeysOf(t reflect.Type, prefix string, depth int) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("mapstructure")
		if tag == "" || tag == "-" || !f.IsExported() {
			continue
		}
		key := prefix + strings.ToLower(tag)
		if depth == 0 && f.Type.Kind() == reflect.Struct {
			// A section: its keys.
			out = append(out, envKeysOf(f.Type, key+".", depth+1)...)
			continue
		}
		out = append(out, key)
	}
	return out
}

func relName(dir, file string) string {
	if file == "" {
		return ""
	}
	if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}

// readRaw decodes the file with its format's library, keeping key case.
func readRaw(file string) (map[string]any, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	switch strings.ToLower(filepath.Ext(file)) {
	case ".toml":
		err = toml.Unmarshal(data, &out)
	case ".yaml", ".yml":
		err = yaml.Unmarshal(data, &out)
	case ".json":
		dec := json.NewDecoder(bytes.NewReader(data))
		err = dec.Decode(&out)
	default:
		return nil, fmt.Errorf("unsupported config format %q (use .toml, .yaml or .json)", filepath.Ext(file))
	}
	return out, err
}

// checkKeys reports the first key of raw that t does not declare, with
// its dotted path and, when one is close, the key that was meant.
func checkKeys(raw map[string]any, t reflect.Type, prefix string) *Error {
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("mapstructure")
		if tag == "-" {
			continue
		}
		if tag == "" {
			tag = strings.ToLower(f.Name[:1]) + f.Name[1:]
		}
		fields[tag] = f.Type
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ft, ok := fields[k]
		if !ok {
			msg := "unknown key"
			if s := closest(k, fields); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return &Error{Key: prefix + k, Msg: msg}
		}
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if msg := typeProblem(raw[k], ft, secretKeys[prefix+k]); msg != "" {
			return &Error{Key: prefix + k, Msg: msg}
		}
		switch ft.Kind() {
		case reflect.Struct:
			if m, ok := raw[k].(map[string]any); ok {
				if err := checkKeys(m, ft, prefix+k+"."); err != nil {
					return err
				}
			}
		case reflect.Slice:
			if et := ft.Elem(); et.Kind() == reflect.Struct {
				if list, ok := raw[k].([]any); ok {
					for i, item := range list {
						if m, ok := item.(map[string]any); ok {
							if err := checkKeys(m, et, fmt.Sprintf("%s%s[%d].", prefix, k, i)); err != nil {
								return err
							}
						}
					}
				}
			}
		}
	}
	return nil
}

// secretKeys hold secrets: an error about them never quotes their value.
var secretKeys = map[string]bool{"browser.connectHeaders": true, "mcp.token": true}

// typeProblem describes how v does not fit type t ("" when it fits),
// quoting v unless it is secret.
func typeProblem(v any, t reflect.Type, secret bool) string {
	got := func() string {
		switch v.(type) {
		case string:
			if secret {
				return "a string"
			}
			return fmt.Sprintf("a string (%q)", v)
		case bool:
			return "a boolean"
		case []any:
			return "a list"
		case map[string]any:
			return "a table"
		case nil:
			return "nothing"
		}
		if secret {
			return "a number"
		}
		return fmt.Sprintf("a number (%v)", v)
	}
	isNumber := func() bool {
		switch v.(type) {
		case int, int64, uint64, float64, json.Number:
			return true
		}
		return false
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		if !isNumber() {
			return "expected an integer, got " + got()
		}
		if f, ok := v.(float64); ok && f != float64(int64(f)) {
			return fmt.Sprintf("expected an integer, got %v", f)
		}
	case reflect.Float64:
		if !isNumber() {
			return "expected a number, got " + got()
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return "expected true or false, got " + got()
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return "expected a string, got " + got()
		}
	case reflect.Slice:
		_, isList := v.([]any)
		_, isString := v.(string)
		if !isList && !(isString && t == stringListType) {
			return "expected a list, got " + got()
		}
		if isList && t.Elem().Kind() == reflect.String {
			for i, item := range v.([]any) {
				if _, ok := item.(string); !ok {
					return fmt.Sprintf("item %d: expected a string", i)
				}
			}
		}
	case reflect.Map, reflect.Struct:
		if _, ok := v.(map[string]any); !ok {
			return "expected a table, got " + got()
		}
	}
	return ""
}

// closest returns a declared key equal to k but for case, or within two
// edits of it.
func closest(k string, fields map[string]reflect.Type) string {
	best, bestD := "", 3
	for f := range fields {
		if strings.EqualFold(f, k) {
			return f
		}
		if d := editDistance(strings.ToLower(f), strings.ToLower(k)); d < bestD {
			best, bestD = f, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

var stringListType = reflect.TypeOf(StringList{})

// stringListHook lets a StringList be written as one string.
func stringListHook(from, to reflect.Type, data any) (any, error) {
	if to != stringListType {
		return data, nil
	}
	if s, ok := data.(string); ok {
		if s == "" {
			return StringList{}, nil
		}
		return StringList{s}, nil
	}
	return data, nil
}

// envJSONHook decodes JSON given in an environment variable for a table
// (FERRIDRIVER_TEST_WORLDPARAMETERS='{"user":"x"}', a map or a struct such
// as the viewport), a list of tables (FERRIDRIVER_WEBSERVER='[{...}]') or
// a list (FERRIDRIVER_SCRIPTING_ALLOWENV='["HOME","TZ"]'). A list given as
// text that is not a JSON array is one item (FERRIDRIVER_TEST_TAGS='@smoke',
// FERRIDRIVER_TEST_NAME='[Ll]ogin').
func envJSONHook(from, to reflect.Type, data any) (any, error) {
	s, ok := data.(string)
	if !ok {
		return data, nil
	}
	target := to
	for target.Kind() == reflect.Pointer {
		target = target.Elem()
	}
	switch target.Kind() {
	case reflect.Slice:
		if !strings.HasPrefix(strings.TrimSpace(s), "[") {
			return data, nil
		}
		var l []any
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			if target.Elem().Kind() == reflect.String {
				return data, nil // a regular expression such as [Ll]ogin
			}
			return nil, errors.New("expected a JSON array")
		}
		return l, nil
	case reflect.Map, reflect.Struct:
	default:
		return data, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		// The value is not repeated: it may hold a secret
		// (FERRIDRIVER_BROWSER_CONNECTHEADERS).
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("expected a JSON object, got invalid JSON (at byte %d)", syn.Offset)
		}
		return nil, errors.New("expected a JSON object")
	}
	return m, nil
}

// envReference is ${NAME} in a [browser] connectHeaders value.
var envReference = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expandHeaders replaces ${NAME} in the [browser] connectHeaders values
// with the environment variable NAME, so that a committed file can name a
// token that CI provides. An unset variable is an error naming the header
// and the variable, never a value.
func expandHeaders(h map[string]string) error {
	for k, v := range h {
		var missing []string
		h[k] = envReference.ReplaceAllStringFunc(v, func(ref string) string {
			name := envReference.FindStringSubmatch(ref)[1]
			val, ok := os.LookupEnv(name)
			if !ok {
				missing = append(missing, name)
			}
			return val
		})
		if len(missing) > 0 {
			return &Error{Key: "browser.connectHeaders." + k, Msg: fmt.Sprintf("the environment variable %s is not set", strings.Join(missing, ", "))}
		}
	}
	return nil
}

// restoreCase replaces tables whose keys are user data with the file's
// own spelling (viper lower-cased them).
func restoreCase(cfg *Config, raw map[string]any) {
	table := func(m map[string]any, key string) (map[string]any, bool) {
		t, ok := m[key].(map[string]any)
		return t, ok
	}
	// restored is the file's table section.key, unless the environment
	// sets it (FERRIDRIVER_<SECTION>_<KEY> wins over the file).
	restored := func(section, key string) (map[string]any, bool) {
		if _, set := os.LookupEnv("FERRIDRIVER_" + strings.ToUpper(section+"_"+key)); set {
			return nil, false
		}
		if s, ok := table(raw, section); ok {
			return table(s, key)
		}
		return nil, false
	}
	stringMap := func(m map[string]any) map[string]string {
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[k] = fmt.Sprint(v)
		}
		return out
	}
	if wp, ok := restored("test", "worldParameters"); ok {
		cfg.Test.WorldParameters = wp
	}
	if fo, ok := restored("test", "formatOptions"); ok {
		cfg.Test.FormatOptions = fo
	}
	if alias, ok := restored("bundler", "alias"); ok {
		cfg.Bundler.Alias = stringMap(alias)
	}
	if h, ok := restored("browser", "connectHeaders"); ok {
		cfg.Browser.ConnectHeaders = stringMap(h)
	}
	if values, ok := restored("steps", "values"); ok {
		cfg.Steps.Values = values
	}
	if allow, ok := restored("scripting", "allow"); ok {
		cfg.Scripting.Allow = allow
	}
	if ws, ok := raw["webServer"].([]any); ok {
		for i, item := range ws {
			if m, ok := item.(map[string]any); ok && i < len(cfg.WebServer) {
				if env, ok := table(m, "env"); ok {
					cfg.WebServer[i].Env = stringMap(env)
				}
			}
		}
	}
}

// cleanDecodeError rewrites mapstructure's report ("'test.parallel'
// expected type 'int', got unconvertible type 'string'") into one line per
// problem with the key as written in the docs.
func cleanDecodeError(err error) string {
	msg := err.Error()
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "*"))
		if l == "" || strings.HasPrefix(l, "decoding failed") || strings.HasSuffix(l, "error(s) decoding:") {
			continue
		}
		lines = append(lines, canonicalKeys(l))
	}
	if len(lines) == 0 {
		return msg
	}
	return strings.Join(lines, "; ")
}

// canonicalKeys restores the camelCase spelling of known keys that viper
// lower-cased in error messages.
func canonicalKeys(s string) string {
	for _, k := range []string{"retryTagFilter", "dryRun", "failFast", "worldParameters", "formatOptions", "allowEnv",
		"updateSnapshots", "snapshotDir", "snapshotPathTemplate", "videoSize",
		"executablePath", "slowMo", "baseURL", "timezoneId", "colorScheme", "ignoreHTTPSErrors", "storageState",
		"actionTimeout", "navigationTimeout", "perWorker", "outputDir", "webServer", "reuseExistingServer"} {
		s = strings.ReplaceAll(s, strings.ToLower(k), k)
	}
	return s
}

func cleanParseError(err error) string {
	var pe viper.ConfigParseError
	if errors.As(err, &pe) {
		return strings.TrimPrefix(pe.Error(), "While parsing config: ")
	}
	return err.Error()
}

func (c *Config) validate() error {
	t := c.Test
	if t.Parallel < 0 {
		return &Error{Key: "test.parallel", Msg: fmt.Sprintf("must be >= 0, got %d", t.Parallel)}
	}
	if t.Retry < 0 {
		return &Error{Key: "test.retry", Msg: fmt.Sprintf("must be >= 0, got %d", t.Retry)}
	}
	if t.AttachmentLimit != nil && *t.AttachmentLimit < 0 {
		return &Error{Key: "test.attachmentLimit", Msg: fmt.Sprintf("must be >= 0 (MiB; 0: no limit), got %d", *t.AttachmentLimit)}
	}
	if t.MemoryLimit != nil && *t.MemoryLimit < 0 {
		return &Error{Key: "test.memoryLimit", Msg: fmt.Sprintf("must be >= 0 (MiB; 0: no limit), got %d", *t.MemoryLimit)}
	}
	if t.Timeout != nil && *t.Timeout < 0 {
		return &Error{Key: "test.timeout", Msg: fmt.Sprintf("must be >= 0 ms (0 = no timeout), got %v", *t.Timeout)}
	}
	if err := ValidUpdateSnapshots(t.UpdateSnapshots); err != nil {
		return &Error{Key: "test.updateSnapshots", Msg: err.Error()}
	}
	if err := expandHeaders(c.Browser.ConnectHeaders); err != nil {
		return err
	}
	for i, p := range c.Steps.Pages {
		if !doublestar.ValidatePattern(filepath.ToSlash(p)) {
			return &Error{Key: fmt.Sprintf("steps.pages[%d]", i), Msg: fmt.Sprintf("%q is not a valid glob", p)}
		}
	}
	if err := c.Browser.Validate(); err != nil {
		return &Error{Key: "browser", Msg: err.Error()}
	}
	if err := c.MCP.validate(); err != nil {
		return err
	}
	return c.validateSandbox()
}

// ValidUpdateSnapshots checks an updateSnapshots mode ("" is the
// default, missing).
func ValidUpdateSnapshots(mode string) error {
	if mode == "" || slices.Contains(UpdateSnapshotModes, mode) {
		return nil
	}
	return fmt.Errorf("%q (want %s)", mode, strings.Join(UpdateSnapshotModes, ", "))
}

// BuiltinStepsOrDefault returns test.builtinSteps, true when unset.
func (t Test) BuiltinStepsOrDefault() bool { return t.BuiltinSteps == nil || *t.BuiltinSteps }

// StrictOrDefault returns test.strict, true when unset (cucumber-js's default).
func (t Test) StrictOrDefault() bool { return t.Strict == nil || *t.Strict }
