package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// @playwright/mcp's devtools and config groups (--caps devtools,config):
// browser_get_config, the recording of what the user does by hand,
// page.pause() with browser_resume, and browser_annotate.

// TestMCPGetConfig: browser_get_config shows the resolved configuration
// (a flag's value and where it came from) with its secrets hidden: the
// token from the environment, a password in worldParameters, a URL's
// password.
func TestMCPGetConfig(t *testing.T) {
	testenv.NeedBrowser(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "[test]\nworldParameters = { apiPassword = \"pw-12345\", site = \"https://bob:hunter22@example.com/\" }\n",
	})
	cs, _ := mcpClient(t, dir, []string{"FERRIDRIVER_MCP_TOKEN=tok-secret-xyz"}, "--caps", "devtools,config", "--timeout", "42s")
	text := callOK(t, cs, "browser_get_config", nil)
	for _, secret := range []string{"tok-secret-xyz", "pw-12345", "hunter22"} {
		if strings.Contains(text, secret) {
			t.Errorf("the secret %q is shown:\n%s", secret, text)
		}
	}
	var got struct {
		Config  map[string]map[string]any  `json:"-"`
		Raw     map[string]json.RawMessage `json:"config"`
		Sources map[string]string          `json:"sources"`
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	got.Config = map[string]map[string]any{}
	for _, section := range []string{"server", "mcp", "test"} {
		var m map[string]any
		if err := json.Unmarshal(got.Raw[section], &m); err != nil {
			t.Fatalf("config.%s: %v\n%s", section, err, text)
		}
		got.Config[section] = m
	}
	if v := got.Config["server"]["timeout"]; v != "42s" || got.Sources["server.timeout"] != "flag --timeout" {
		t.Errorf("server.timeout = %v from %q, want 42s from the flag", v, got.Sources["server.timeout"])
	}
	if v := got.Config["mcp"]["token"]; v != "(hidden)" || got.Sources["mcp.token"] != "env FERRIDRIVER_MCP_TOKEN" {
		t.Errorf("mcp.token = %v from %q, want (hidden) from the environment", v, got.Sources["mcp.token"])
	}
	wp, _ := got.Config["test"]["worldParameters"].(map[string]any)
	if wp["apiPassword"] != "(hidden)" || !strings.Contains(wp["site"].(string), "bob:") {
		t.Errorf("worldParameters = %v", wp)
	}
}
