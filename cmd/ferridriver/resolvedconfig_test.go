package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/world"
)

func TestRedactHidesSecrets(t *testing.T) {
	in := map[string]any{
		"mcp":  map[string]any{"token": "tok-1", "tokenFile": "secrets/token.txt", "host": "0.0.0.0"},
		"test": map[string]any{"worldParameters": map[string]any{"adminPassword": "pw-2", "apiKey": "k-3", "user": "ada", "site": "https://ada:pw-4@example.com/?access_token=t-5&page=2"}},
		"list": []any{"Bearer abc.def", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "ghp_0123456789abcdef", "plain"},
	}
	b, _ := json.Marshal(redact(in, ""))
	out := string(b)
	for _, secret := range []string{"tok-1", "pw-2", "k-3", "pw-4", "t-5", "abc.def", "eyJhbGci", "ghp_0123"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q is shown: %s", secret, out)
		}
	}
	for _, kept := range []string{"secrets/token.txt", "0.0.0.0", `"user":"ada"`, "page=2", "plain", "example.com"} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q is hidden: %s", kept, out)
		}
	}
}

func TestResolvedConfigSettingsAndSources(t *testing.T) {
	cfg := &config.Config{Browser: world.Config{ConnectHeaders: map[string]string{"Authorization": "Bearer x1"}}, Dir: t.TempDir()}
	got := resolvedConfig(cfg, "server", map[string]any{"timeout": "42s", "port": 8931}, map[string]bool{"timeout": true})
	b, _ := json.Marshal(got)
	out := string(b)
	if strings.Contains(out, "x1") {
		t.Errorf("a connectHeaders value is shown: %s", out)
	}
	if !strings.Contains(out, `"server.timeout":"flag --timeout"`) || strings.Contains(out, `"server.port"`) {
		t.Errorf("sources: want the flag's, not the default's: %s", out)
	}
}
