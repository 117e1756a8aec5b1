package world

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigDefaults(t *testing.T) {
	var c Config
	if err := c.Validate(); err != nil {
		t.Fatalf("the zero Config must be valid: %v", err)
	}
	if c.BrowserName() != "chromium" || !c.IsHeadless() || c.ScreenshotMode() != ModeOnlyOnFailure ||
		c.TraceMode() != ModeOff || c.VideoMode() != ModeOff || c.ViewportSize() != (Viewport{1280, 720}) {
		t.Errorf("defaults: %s headless=%v %s %s %v", c.BrowserName(), c.IsHeadless(), c.ScreenshotMode(), c.TraceMode(), c.ViewportSize())
	}
	headed := false
	c.Headless = &headed
	if c.IsHeadless() {
		t.Error("headless=false ignored")
	}
}

func TestConfigValidate(t *testing.T) {
	neg := -1.0
	cases := map[string]Config{
		`[browser] browser: "safari"`:                                           {Browser: "safari"},
		"[browser] channel":                                                     {Browser: "firefox", Channel: "chrome"},
		"[browser] slowMo":                                                      {SlowMo: -5},
		"[browser] viewport":                                                    {Viewport: &Viewport{Width: 0, Height: 10}},
		"[browser] colorScheme":                                                 {ColorScheme: "purple"},
		"[browser] baseURL":                                                     {BaseURL: "localhost:3000"},
		"[browser] actionTimeout":                                               {ActionTimeout: &neg},
		"[browser] navigationTimeout":                                           {NavigationTimeout: &neg},
		`[browser] screenshot: "only-on-success"`:                               {Screenshot: "only-on-success"},
		`[browser] trace: "on-first-retry" (want of`:                            {Trace: "on-first-retry"},
		"[browser] connect: and connectOverCDP are both set":                    {Connect: "ws://a:1/", ConnectOverCDP: "http://b:2"},
		`[browser] connect: "http://a:1" is not a WebSocket URL`:                {Connect: "http://a:1"},
		`[browser] connectOverCDP: "b:9222" is not a URL`:                       {ConnectOverCDP: "b:9222"},
		"[browser] exposeNetwork: only applies to a Playwright browser server":  {ConnectOverCDP: "http://b:2", ExposeNetwork: "<loopback>"},
		"[browser] connectTimeout":                                              {ConnectTimeout: &neg},
		`[browser] video: "on-first-retry" (want off, on or retain-on-failure)`: {Video: "on-first-retry"},
		"[browser] videoSize: width and height must be positive":                {VideoSize: &Viewport{Width: 800}},
	}
	for want, c := range cases {
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: want error containing %q, got %v", c, want, err)
		}
	}
	all := Config{Browser: "opera", Screenshot: "x", Trace: "y"}
	if err := all.Validate(); err == nil || strings.Count(err.Error(), "[browser]") != 3 {
		t.Errorf("all problems at once: %v", err)
	}
	if _, err := NewLauncher(Config{Browser: "opera"}, Options{}); err == nil {
		t.Error("NewLauncher must validate")
	}
}

func TestMissingBrowserIsReportedWithoutStartingTheDriver(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-chrome")
	l, err := NewLauncher(Config{ExecutablePath: missing, OutputDir: t.TempDir()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = l.NewSession(0, "x").Page(context.Background())
	if err == nil || !strings.Contains(err.Error(), "executablePath") || !strings.Contains(err.Error(), missing) {
		t.Errorf("want an error naming executablePath and the path, got %v", err)
	}
	l.mu.Lock()
	pw := l.pw
	l.mu.Unlock()
	if pw != nil {
		t.Error("the driver was started although the browser is missing")
	}
}

// A lost browser is explained by what it was: a crashed local process, or
// a dropped connection to a remote one (which is reconnected).
func TestLostErrorSaysWhatHappensNext(t *testing.T) {
	for _, tc := range []struct {
		cfg    Config
		want   string
		remote bool
	}{
		{Config{}, "the browser process exited unexpectedly (crashed or was killed) during this test case; it will be relaunched for the next one (boom)", false},
		{Config{Connect: "ws://grid:3000/"}, "the connection to the remote browser was lost (ws://grid:3000/) during this test case; it will be reconnected for the next one (boom)", true},
		{Config{ConnectOverCDP: "http://node:9222"}, "the connection to the remote browser was lost (http://node:9222) during this test case; it will be reconnected for the next one (boom)", true},
	} {
		l, err := NewLauncher(tc.cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		err = l.lostError(errors.New("boom"))
		if err.Error() != tc.want || !errors.Is(err, ErrBrowserCrashed) || errors.Is(err, ErrRemoteLost) != tc.remote {
			t.Errorf("%+v: %v", tc.cfg, err)
		}
	}
}
