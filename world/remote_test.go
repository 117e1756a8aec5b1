package world

import (
	"errors"
	"strings"
	"testing"
)

func TestRedactEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"ws://127.0.0.1:3000/":                                       "ws://127.0.0.1:3000/",
		"http://node:9222":                                           "http://node:9222",
		"wss://grid.example/pw?token=abc123":                         "wss://grid.example/pw?token=(hidden)",
		"wss://grid.example/pw?apiKey=abc&headless=true":             "wss://grid.example/pw?apiKey=(hidden)&headless=true",
		"ws://user:pa55@grid:3000/":                                  "ws://user:(hidden)@grid:3000/",
		"ws://grid:3000/?launch-options=%7B%22headless%22%3Atrue%7D": "ws://grid:3000/?launch-options=%7B%22headless%22%3Atrue%7D",
	} {
		if got := RedactEndpoint(in); got != want {
			t.Errorf("RedactEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

// What ferridriver prints of a remote browser's configuration, and the
// errors it reports, never hold the headers' values or an endpoint's
// secrets.
func TestRemoteSecretsAreNeverPrinted(t *testing.T) {
	c := Config{
		Connect:        "wss://grid.example/pw?token=url-secret",
		ConnectHeaders: map[string]string{"Authorization": "Bearer header-secret", "X-Api-Key": "key-secret"},
	}
	p := c.Printable()
	if p.Connect != "wss://grid.example/pw?token=(hidden)" || p.ConnectHeaders["Authorization"] != Hidden || p.ConnectHeaders["X-Api-Key"] != Hidden {
		t.Errorf("Printable: %+v", p)
	}
	if c.ConnectHeaders["Authorization"] != "Bearer header-secret" {
		t.Error("Printable changed the configuration it copies")
	}
	msg := c.redactSecrets(`WebSocket error: wss://grid.example/pw?token=url-secret 401 Unauthorized: token "header-secret" refused (Bearer header-secret, key-secret)`)
	for _, secret := range []string{"url-secret", "header-secret", "key-secret"} {
		if strings.Contains(msg, secret) {
			t.Errorf("%q is in %s", secret, msg)
		}
	}
	if !strings.Contains(msg, "401 Unauthorized") {
		t.Errorf("the message lost its content: %s", msg)
	}
	l, err := NewLauncher(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if lost := l.lostError(errors.New("ws closed: header-secret")).Error(); strings.Contains(lost, "secret") {
		t.Errorf("lostError: %s", lost)
	}
}

func TestRetryableConnect(t *testing.T) {
	for msg, want := range map[string]bool{
		"playwright: WebSocket error: connect ECONNREFUSED 127.0.0.1:3000":             true,
		"playwright: connect ECONNREFUSED 127.0.0.1:9222":                              true,
		"playwright: WebSocket error: ws://127.0.0.1:3000/ 401 Unauthorized":           false,
		"playwright: WebSocket error: ws://127.0.0.1:3000/ 503 Service Unavailable":    true,
		"playwright: This does not look like a DevTools server, try connecting via ws": false,
	} {
		if got := retryableConnect(errors.New(msg)); got != want {
			t.Errorf("retryableConnect(%q) = %v, want %v", msg, got, want)
		}
	}
}
