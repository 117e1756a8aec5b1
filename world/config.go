// Package world gives every test case a real browser page: it launches
// Playwright (playwright-go, driver = npm playwright-core run by the system
// node) and one shared browser lazily, and hands out per-test-case Sessions
// (a fresh BrowserContext + Page each) with screenshots and traces handled
// when the test case ends.
package world

import (
	"errors"
	"fmt"
	"strings"
)

// Config is the [browser] section of ferridriver's configuration. Key names
// are Playwright's JS option names. The zero value is valid: headless
// chromium, 1280x720, screenshot only-on-failure, no trace.
type Config struct {
	// Browser is "chromium" (default), "firefox" or "webkit". Firefox and
	// WebKit need Playwright's own builds (npx playwright install).
	Browser string `mapstructure:"browser" json:"browser,omitempty" toml:"browser,omitempty"`
	// Headless defaults to true (nil = true).
	Headless *bool `mapstructure:"headless" json:"headless,omitempty" toml:"headless,omitempty"`
	// ExecutablePath is the browser binary; empty = discovered (see world/install).
	ExecutablePath string `mapstructure:"executablePath" json:"executablePath,omitempty" toml:"executablePath,omitempty"`
	// Channel is a branded browser Playwright locates itself ("chrome", "msedge", ...).
	Channel string `mapstructure:"channel" json:"channel,omitempty" toml:"channel,omitempty"`
	// Args are extra browser command-line arguments.
	Args []string `mapstructure:"args" json:"args,omitempty" toml:"args,omitempty"`
	// SlowMo slows every Playwright operation by this many milliseconds.
	SlowMo float64 `mapstructure:"slowMo" json:"slowMo,omitempty" toml:"slowMo,omitempty"`

	// BaseURL resolves relative page.goto / request URLs.
	BaseURL string `mapstructure:"baseURL" json:"baseURL,omitempty" toml:"baseURL,omitempty"`
	// Viewport is the page size; nil = 1280x720.
	Viewport *Viewport `mapstructure:"viewport" json:"viewport,omitempty" toml:"viewport,omitempty"`
	// Locale such as "en-GB"; TimezoneID such as "Europe/Paris".
	Locale     string `mapstructure:"locale" json:"locale,omitempty" toml:"locale,omitempty"`
	TimezoneID string `mapstructure:"timezoneId" json:"timezoneId,omitempty" toml:"timezoneId,omitempty"`
	// ColorScheme is "light", "dark" or "no-preference" (empty = browser default).
	ColorScheme       string `mapstructure:"colorScheme" json:"colorScheme,omitempty" toml:"colorScheme,omitempty"`
	IgnoreHTTPSErrors bool   `mapstructure:"ignoreHTTPSErrors" json:"ignoreHTTPSErrors,omitempty" toml:"ignoreHTTPSErrors,omitempty"`
	// StorageState is a JSON file (cookies, localStorage) every context starts from.
	StorageState string `mapstructure:"storageState" json:"storageState,omitempty" toml:"storageState,omitempty"`
	// ActionTimeout and NavigationTimeout are milliseconds; nil = Playwright's
	// default (30000), 0 = no limit.
	ActionTimeout     *float64 `mapstructure:"actionTimeout" json:"actionTimeout,omitempty" toml:"actionTimeout,omitempty"`
	NavigationTimeout *float64 `mapstructure:"navigationTimeout" json:"navigationTimeout,omitempty" toml:"navigationTimeout,omitempty"`

	// Screenshot is ModeOff, ModeOn or ModeOnlyOnFailure (the default).
	Screenshot Mode `mapstructure:"screenshot" json:"screenshot,omitempty" toml:"screenshot,omitempty"`
	// Trace is ModeOff (the default), ModeOn or ModeRetainOnFailure.
	Trace Mode `mapstructure:"trace" json:"trace,omitempty" toml:"trace,omitempty"`
	// Video is ModeOff (the default), ModeOn or ModeRetainOnFailure: each
	// test case's own context records a video of its pages (Playwright's
	// `use: { video }`), kept in OutputDir/videos and linked from the
	// report. Needs ffmpeg (see install.EnsureFFmpeg).
	Video Mode `mapstructure:"video" json:"video,omitempty" toml:"video,omitempty"`
	// VideoSize is the size of those videos; nil = Playwright's default
	// (the viewport scaled down to fit 800x800).
	VideoSize *Viewport `mapstructure:"videoSize" json:"videoSize,omitempty" toml:"videoSize,omitempty"`
	// OutputDir receives trace zips and videos (default "test-results", as Playwright).
	OutputDir string `mapstructure:"outputDir" json:"outputDir,omitempty" toml:"outputDir,omitempty"`

	// Connect is the WebSocket endpoint of a Playwright browser server
	// (`playwright run-server`, `launch-server`, a browser service):
	// ferridriver uses that remote browser instead of launching one.
	Connect string `mapstructure:"connect" json:"connect,omitempty" toml:"connect,omitempty"`
	// ConnectOverCDP is a Chrome DevTools endpoint (http://host:9222 or a
	// ws:// URL): a Chrome started with --remote-debugging-port, a grid node.
	ConnectOverCDP string `mapstructure:"connectOverCDP" json:"connectOverCDP,omitempty" toml:"connectOverCDP,omitempty"`
	// ConnectHeaders are sent with the connection (e.g. a token:
	// "Bearer ${TOKEN}", which the config package expands from the
	// environment); their values are never printed (see Printable).
	ConnectHeaders map[string]string `mapstructure:"connectHeaders" json:"-" toml:"connectHeaders,omitempty"`
	// ExposeNetwork lets a browser server ([browser] connect) reach
	// networks of this machine through the connection, as Playwright's
	// connect option: "<loopback>" for an app under test that
	// [[webServer]] starts on 127.0.0.1, hostname patterns, "*".
	ExposeNetwork string `mapstructure:"exposeNetwork" json:"exposeNetwork,omitempty" toml:"exposeNetwork,omitempty"`
	// ConnectTimeout is milliseconds to wait for the connection (nil:
	// Playwright's default, 0: no limit).
	ConnectTimeout *float64 `mapstructure:"connectTimeout" json:"connectTimeout,omitempty" toml:"connectTimeout,omitempty"`

	// PerWorker gives each worker its own browser process instead of one
	// shared by all (slower on few cores; for suites that need it).
	PerWorker bool `mapstructure:"perWorker" json:"perWorker,omitempty" toml:"perWorker,omitempty"`
	// CacheDir is where the driver is installed (see install.CacheDir).
	CacheDir string `mapstructure:"cacheDir" json:"cacheDir,omitempty" toml:"cacheDir,omitempty"`
}

// Viewport is a page size in CSS pixels.
type Viewport struct {
	Width  int `mapstructure:"width" json:"width" toml:"width"`
	Height int `mapstructure:"height" json:"height" toml:"height"`
}

// Mode is a screenshot, trace or video mode: the value of [browser]
// screenshot, trace and video.
type Mode string

// Screenshot, trace and video modes.
const (
	ModeOff             Mode = "off"
	ModeOn              Mode = "on"
	ModeOnlyOnFailure   Mode = "only-on-failure"   // screenshot only
	ModeRetainOnFailure Mode = "retain-on-failure" // trace and video only
)

// DefaultViewport is used when Config.Viewport is nil.
var DefaultViewport = Viewport{Width: 1280, Height: 720}

// Validate checks every field and returns all problems at once, each
// naming its [browser] key.
func (c *Config) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("[browser] %s: "+format, append([]any{key}, args...)...))
	}
	switch c.BrowserName() {
	case "chromium", "firefox", "webkit":
	default:
		bad("browser", "%q is not a browser (want chromium, firefox or webkit)", c.Browser)
	}
	if c.Channel != "" && c.BrowserName() != "chromium" {
		bad("channel", "%q only applies to chromium, not %s", c.Channel, c.Browser)
	}
	if c.Connect != "" && c.ConnectOverCDP != "" {
		bad("connect", "and connectOverCDP are both set: choose one remote browser")
	}
	if c.Connect != "" && !strings.HasPrefix(c.Connect, "ws://") && !strings.HasPrefix(c.Connect, "wss://") {
		bad("connect", "%q is not a WebSocket URL (ws://host:port/path)", RedactEndpoint(c.Connect))
	}
	if c.ConnectOverCDP != "" && !strings.Contains(c.ConnectOverCDP, "://") {
		bad("connectOverCDP", "%q is not a URL (http://host:9222 or ws://...)", RedactEndpoint(c.ConnectOverCDP))
	}
	if c.ExposeNetwork != "" && c.Connect == "" {
		bad("exposeNetwork", "only applies to a Playwright browser server ([browser] connect)")
	}
	if c.ConnectTimeout != nil && *c.ConnectTimeout < 0 {
		bad("connectTimeout", "must be >= 0 ms (0 = no limit), got %v", *c.ConnectTimeout)
	}
	if c.SlowMo < 0 {
		bad("slowMo", "must be >= 0 ms, got %v", c.SlowMo)
	}
	if c.Viewport != nil && (c.Viewport.Width <= 0 || c.Viewport.Height <= 0) {
		bad("viewport", "width and height must be positive, got %dx%d", c.Viewport.Width, c.Viewport.Height)
	}
	switch c.ColorScheme {
	case "", "light", "dark", "no-preference":
	default:
		bad("colorScheme", "%q (want light, dark or no-preference)", c.ColorScheme)
	}
	if c.BaseURL != "" && !strings.Contains(c.BaseURL, "://") {
		bad("baseURL", "%q is not an absolute URL (e.g. http://127.0.0.1:4173)", c.BaseURL)
	}
	for key, t := range map[string]*float64{"actionTimeout": c.ActionTimeout, "navigationTimeout": c.NavigationTimeout} {
		if t != nil && *t < 0 {
			bad(key, "must be >= 0 ms (0 = no limit), got %v", *t)
		}
	}
	switch c.ScreenshotMode() {
	case ModeOff, ModeOn, ModeOnlyOnFailure:
	default:
		bad("screenshot", "%q (want off, on or only-on-failure)", c.Screenshot)
	}
	switch c.TraceMode() {
	case ModeOff, ModeOn, ModeRetainOnFailure:
	default:
		bad("trace", "%q (want off, on or retain-on-failure)", c.Trace)
	}
	switch c.VideoMode() {
	case ModeOff, ModeOn, ModeRetainOnFailure:
	default:
		bad("video", "%q (want off, on or retain-on-failure)", c.Video)
	}
	if c.VideoSize != nil && (c.VideoSize.Width <= 0 || c.VideoSize.Height <= 0) {
		bad("videoSize", "width and height must be positive, got %dx%d", c.VideoSize.Width, c.VideoSize.Height)
	}
	return errors.Join(errs...)
}

// BrowserName is Browser with its default applied.
func (c *Config) BrowserName() string {
	if c.Browser == "" {
		return "chromium"
	}
	return c.Browser
}

// IsHeadless is Headless with its default (true) applied.
func (c *Config) IsHeadless() bool { return c.Headless == nil || *c.Headless }

// ScreenshotMode is Screenshot with its default applied.
func (c *Config) ScreenshotMode() Mode {
	if c.Screenshot == "" {
		return ModeOnlyOnFailure
	}
	return c.Screenshot
}

// TraceMode is Trace with its default applied.
func (c *Config) TraceMode() Mode {
	if c.Trace == "" {
		return ModeOff
	}
	return c.Trace
}

// VideoMode is Video with its default applied.
func (c *Config) VideoMode() Mode {
	if c.Video == "" {
		return ModeOff
	}
	return c.Video
}

// ViewportSize is Viewport with its default applied.
func (c *Config) ViewportSize() Viewport {
	if c.Viewport == nil {
		return DefaultViewport
	}
	return *c.Viewport
}

// Remote reports whether the browser is a remote one (Connect or
// ConnectOverCDP) rather than launched here.
func (c *Config) Remote() bool { return c.Connect != "" || c.ConnectOverCDP != "" }
