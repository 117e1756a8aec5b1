package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// envSamples give, for every documented setting, a value as its
// FERRIDRIVER_* variable takes it and the same value in ferridriver.toml.
var envSamples = map[string]struct{ env, toml string }{
	"extensions":                      {`["ext"]`, `extensions = ["ext"]`},
	"test.features":                   {`["a/**/*.feature","b.feature"]`, `[test]` + "\n" + `features = ["a/**/*.feature","b.feature"]`},
	"test.steps":                      {`steps/*.js`, "[test]\nsteps = [\"steps/*.js\"]"},
	"test.tags":                       {`@smoke and not @wip`, "[test]\ntags = \"@smoke and not @wip\""},
	"test.name":                       {`[Ll]ogin`, "[test]\nname = \"[Ll]ogin\""},
	"test.parallel":                   {`3`, "[test]\nparallel = 3"},
	"test.retry":                      {`2`, "[test]\nretry = 2"},
	"test.retryTagFilter":             {`@flaky`, "[test]\nretryTagFilter = \"@flaky\""},
	"test.strict":                     {`false`, "[test]\nstrict = false"},
	"test.dryRun":                     {`true`, "[test]\ndryRun = true"},
	"test.failFast":                   {`true`, "[test]\nfailFast = true"},
	"test.order":                      {`random:4`, "[test]\norder = \"random:4\""},
	"test.language":                   {`fr`, "[test]\nlanguage = \"fr\""},
	"test.worldParameters":            {`{"apiUrl":"http://x"}`, "[test]\nworldParameters = { apiUrl = \"http://x\" }"},
	"test.format":                     {`["progress","junit:r.xml"]`, "[test]\nformat = [\"progress\", \"junit:r.xml\"]"},
	"test.formatOptions":              {`{"snippetInterface":"async-await"}`, "[test]\nformatOptions = { snippetInterface = \"async-await\" }"},
	"test.shard":                      {`1/3`, "[test]\nshard = \"1/3\""},
	"test.builtinSteps":               {`false`, "[test]\nbuiltinSteps = false"},
	"test.attachmentLimit":            {`8`, "[test]\nattachmentLimit = 8"},
	"test.memoryLimit":                {`512`, "[test]\nmemoryLimit = 512"},
	"test.timeout":                    {`15000`, "[test]\ntimeout = 15000"},
	"test.updateSnapshots":            {`all`, "[test]\nupdateSnapshots = \"all\""},
	"test.snapshotDir":                {`baselines`, "[test]\nsnapshotDir = \"baselines\""},
	"test.snapshotPathTemplate":       {`{testDir}/__snapshots__/{arg}{ext}`, "[test]\nsnapshotPathTemplate = \"{testDir}/__snapshots__/{arg}{ext}\""},
	"bundler.alias":                   {`{"@a/b":"./c.ts"}`, "[bundler]\nalias = { \"@a/b\" = \"./c.ts\" }"},
	"scripting.allowEnv":              {`["HOME","TZ"]`, "[scripting]\nallowEnv = [\"HOME\", \"TZ\"]"},
	"scripting.allow":                 {`{"commands":{"git":"git status"}}`, "[scripting.allow.commands]\ngit = \"git status\""},
	"steps.pages":                     {`["pages/*.yaml"]`, "[steps]\npages = [\"pages/*.yaml\"]"},
	"steps.values":                    {`{"adminUser":"ada"}`, "[steps.values]\nadminUser = \"ada\""},
	"mcp.token":                       {`s3cret`, "[mcp]\ntoken = \"s3cret\""},
	"mcp.tokenFile":                   {`/run/secrets/mcp`, "[mcp]\ntokenFile = \"/run/secrets/mcp\""},
	"mcp.httpOrigins":                 {`["https://app.example"]`, "[mcp]\nhttpOrigins = [\"https://app.example\"]"},
	"mcp.sessionIdleTimeout":          {`10m`, "[mcp]\nsessionIdleTimeout = \"10m\""},
	"mcp.maxSessions":                 {`4`, "[mcp]\nmaxSessions = 4"},
	"mcp.maxContexts":                 {`8`, "[mcp]\nmaxContexts = 8"},
	"mcp.readTimeout":                 {`5s`, "[mcp]\nreadTimeout = \"5s\""},
	"mcp.allowRead":                   {`["data","fixtures"]`, "[mcp]\nallowRead = [\"data\", \"fixtures\"]"},
	"mcp.allowWrite":                  {`["out"]`, "[mcp]\nallowWrite = [\"out\"]"},
	"mcp.allowUnrestrictedFileAccess": {`true`, "[mcp]\nallowUnrestrictedFileAccess = true"},
	"mcp.allowedOrigins":              {`["http://localhost:*","https://example.com"]`, "[mcp]\nallowedOrigins = [\"http://localhost:*\", \"https://example.com\"]"},
	"mcp.blockedOrigins":              {`["ads.example.com"]`, "[mcp]\nblockedOrigins = [\"ads.example.com\"]"},
	"webServer":                       {`[{"command":"serve","url":"http://127.0.0.1:1"}]`, "[[webServer]]\ncommand = \"serve\"\nurl = \"http://127.0.0.1:1\""},
	"browser.browser":                 {`firefox`, "[browser]\nbrowser = \"firefox\""},
	"browser.headless":                {`false`, "[browser]\nheadless = false"},
	"browser.executablePath":          {`/opt/chrome`, "[browser]\nexecutablePath = \"/opt/chrome\""},
	"browser.channel":                 {`chrome`, "[browser]\nchannel = \"chrome\""},
	"browser.args":                    {`["--a","--b"]`, "[browser]\nargs = [\"--a\", \"--b\"]"},
	"browser.slowMo":                  {`5`, "[browser]\nslowMo = 5"},
	"browser.baseURL":                 {`http://127.0.0.1:4173`, "[browser]\nbaseURL = \"http://127.0.0.1:4173\""},
	"browser.viewport":                {`{"width":800,"height":600}`, "[browser]\nviewport = { width = 800, height = 600 }"},
	"browser.locale":                  {`en-GB`, "[browser]\nlocale = \"en-GB\""},
	"browser.timezoneId":              {`Europe/Paris`, "[browser]\ntimezoneId = \"Europe/Paris\""},
	"browser.colorScheme":             {`dark`, "[browser]\ncolorScheme = \"dark\""},
	"browser.ignoreHTTPSErrors":       {`true`, "[browser]\nignoreHTTPSErrors = true"},
	"browser.storageState":            {`state.json`, "[browser]\nstorageState = \"state.json\""},
	"browser.actionTimeout":           {`1000`, "[browser]\nactionTimeout = 1000"},
	"browser.navigationTimeout":       {`2000`, "[browser]\nnavigationTimeout = 2000"},
	"browser.screenshot":              {`off`, "[browser]\nscreenshot = \"off\""},
	"browser.trace":                   {`on`, "[browser]\ntrace = \"on\""},
	"browser.video":                   {`retain-on-failure`, "[browser]\nvideo = \"retain-on-failure\""},
	"browser.videoSize":               {`{"width":640,"height":480}`, "[browser]\nvideoSize = { width = 640, height = 480 }"},
	"browser.outputDir":               {`out`, "[browser]\noutputDir = \"out\""},
	"browser.perWorker":               {`true`, "[browser]\nperWorker = true"},
	"browser.cacheDir":                {`/tmp/fd-cache`, "[browser]\ncacheDir = \"/tmp/fd-cache\""},
	"browser.connect":                 {`ws://127.0.0.1:1/x`, "[browser]\nconnect = \"ws://127.0.0.1:1/x\""},
	"browser.connectOverCDP":          {`http://127.0.0.1:9222`, "[browser]\nconnectOverCDP = \"http://127.0.0.1:9222\""},
	"browser.connectHeaders":          {`{"X-Token":"t"}`, "[browser]\nconnectHeaders = { X-Token = \"t\" }"},
	"browser.connectTimeout":          {`3000`, "[browser]\nconnectTimeout = 3000"},
	"browser.exposeNetwork":           {`<loopback>`, "[browser]\nexposeNetwork = \"<loopback>\"\nconnect = \"ws://127.0.0.1:1/x\""},
}

// documentedSettings lists the settings docs/configuration.md documents:
// the keys of its TOML example and of its section tables, and the
// [browser] table of docs/browser.md, to which it refers.
func documentedSettings(t *testing.T) []string {
	t.Helper()
	docs := filepath.Join("..", "docs")
	read := func(n string) string {
		b, err := os.ReadFile(filepath.Join(docs, n))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	seen := map[string]bool{}
	conf := read("configuration.md")
	// The TOML example: every key down to a setting (a field of a section).
	block := regexp.MustCompile("(?s)```toml\n(.*?)```").FindStringSubmatch(conf)
	if block == nil {
		t.Fatal("configuration.md has no TOML example")
	}
	var example map[string]any
	if err := toml.Unmarshal([]byte(block[1]), &example); err != nil {
		t.Fatalf("configuration.md's TOML example: %v", err)
	}
	for k, v := range example {
		if m, ok := v.(map[string]any); ok {
			for kk := range m {
				seen[k+"."+kk] = true
			}
			continue
		}
		seen[k] = true
	}
	// Section tables: "## `[test]`" then rows "| `key` | ...".
	tables := func(text, only string) {
		section := ""
		for _, line := range strings.Split(text, "\n") {
			if m := regexp.MustCompile("^#+ .*`\\[([a-zA-Z]+)\\]`").FindStringSubmatch(line); m != nil {
				section = m[1]
				continue
			}
			if strings.HasPrefix(line, "#") {
				section = ""
				continue
			}
			if only != "" && section != only {
				continue
			}
			if m := regexp.MustCompile("^\\| `([a-zA-Z]+)` \\|").FindStringSubmatch(line); m != nil && section != "" {
				seen[section+"."+m[1]] = true
			}
		}
	}
	tables(conf, "")
	tables(read("browser.md"), "browser")
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestEveryDocumentedSettingHasItsEnvironmentVariable walks the settings
// the documentation lists and checks that FERRIDRIVER_<SECTION>_<KEY>
// gives each the value ferridriver.toml would.
func TestEveryDocumentedSettingHasItsEnvironmentVariable(t *testing.T) {
	settings := documentedSettings(t)
	if len(settings) < 40 {
		t.Fatalf("only %d settings found in the docs: %v", len(settings), settings)
	}
	comparable := func(c *Config) Config {
		cp := *c
		cp.File, cp.Dir, cp.Sources, cp.Cucumber = "", "", nil, nil
		return cp
	}
	for _, key := range settings {
		t.Run(key, func(t *testing.T) {
			sample, ok := envSamples[key]
			if !ok {
				t.Fatalf("%s is documented but has no sample in envSamples: add one", key)
			}
			fileDir := t.TempDir()
			if err := os.WriteFile(filepath.Join(fileDir, "ferridriver.toml"), []byte(sample.toml+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			fromFile, err := Load(fileDir, "")
			if err != nil {
				t.Fatalf("ferridriver.toml %q: %v", sample.toml, err)
			}
			envDir := t.TempDir()
			// exposeNetwork is only valid with connect: the same companion.
			if key == "browser.exposeNetwork" {
				t.Setenv("FERRIDRIVER_BROWSER_CONNECT", "ws://127.0.0.1:1/x")
			}
			name := "FERRIDRIVER_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
			t.Setenv(name, sample.env)
			fromEnv, err := Load(envDir, "")
			if err != nil {
				t.Fatalf("%s=%s: %v", name, sample.env, err)
			}
			if got, want := comparable(fromEnv), comparable(fromFile); !reflect.DeepEqual(got, want) {
				t.Errorf("%s=%s gives\n  %+v\nferridriver.toml gives\n  %+v", name, sample.env, got, want)
			}
			if reflect.DeepEqual(comparable(fromEnv), comparable(&Config{})) {
				t.Errorf("%s=%s changed nothing", name, sample.env)
			}
			if src := fromEnv.SourceOf(key); src != SourceEnv {
				t.Errorf("SourceOf(%s) = %s, want env", key, src)
			}
		})
	}
}
