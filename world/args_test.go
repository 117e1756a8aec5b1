//go:build linux

package world

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world/install"
)

func TestChromiumArgs(t *testing.T) {
	base := strings.Join(slices.Concat(playwrightDisabledFeatures, hiddenUIFeatures, unusedSpareFeatures), ",")
	rules := "--host-resolver-rules=" + metadataResolverRules
	tests := []struct {
		name string
		root bool
		user []string
		want []string
	}{
		{"defaults", false, nil,
			append(slices.Clone(closedNetworkArgs), rules, "--disable-features="+base)},
		{"root", true, nil,
			append(append([]string{"--no-sandbox"}, closedNetworkArgs...), rules, "--disable-features="+base)},
		{"user args kept in order", false, []string{"--lang=fr", "--mute-audio"},
			append(slices.Clone(closedNetworkArgs), "--lang=fr", "--mute-audio", rules, "--disable-features="+base)},
		{"user features joined, duplicates dropped", false,
			[]string{"--disable-features=Foo, Translate", "--lang=fr", "--disable-features=Bar,,Foo"},
			append(slices.Clone(closedNetworkArgs), "--lang=fr", rules, "--disable-features="+base+",Foo,Bar")},
		{"user resolver rules after the metadata ones", false,
			[]string{"--host-resolver-rules=MAP * 127.0.0.1"},
			append(slices.Clone(closedNetworkArgs), rules+", MAP * 127.0.0.1", "--disable-features="+base)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ChromiumArgs(tt.root, tt.user)
			if !slices.Equal(got, tt.want) {
				t.Errorf("ChromiumArgs(%v, %q)\n got %q\nwant %q", tt.root, tt.user, got, tt.want)
			}
		})
	}
	if !strings.Contains(rules, "MAP 169.254.169.254 ~NOTFOUND") || !strings.Contains(rules, "MAP ::ffff:a9fe:a9fe ~NOTFOUND") || !strings.Contains(rules, "MAP metadata.google.internal ~NOTFOUND") {
		t.Errorf("metadata rules: %s", rules)
	}
}

// TestChromiumFeaturesDisabled asks the launched Chromium itself
// (chrome://version) which features its command line disabled: every one
// the installed driver's Playwright disables, ferridriver's own, and the
// user's, so that neither list silently replaces the other.
func TestChromiumFeaturesDisabled(t *testing.T) {
	testenv.NeedBrowser(t)
	drv, err := install.FindDriver("")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(drv.Dir, "package", "lib", "server", "chromium", "chromiumSwitches.js"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)const disabledFeatures = \[(.*?)\];`).FindSubmatch(src)
	if block == nil {
		t.Fatal("no disabledFeatures list in the driver's chromiumSwitches.js")
	}
	var want []string
	for _, m := range regexp.MustCompile(`(?m)^\s*"(\w+)",?\s*$`).FindAllSubmatch(block[1], -1) {
		want = append(want, string(m[1]))
	}
	if len(want) < 5 {
		t.Fatalf("parsed only %q from the driver's disabledFeatures", want)
	}
	want = slices.Concat(want, hiddenUIFeatures, unusedSpareFeatures, []string{"BackForwardCache"})

	// chrome://version is the full browser's; a headless shell has none.
	l := newLauncher(t, Config{ExecutablePath: fullChromium(t), Args: []string{"--disable-features=BackForwardCache"}}, Options{})
	s := l.NewSession(0, "features")
	defer s.Close(false)
	p, err := s.Page(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Goto("chrome://version"); err != nil {
		t.Fatal(err)
	}
	html, err := p.Content()
	if err != nil {
		t.Fatal(err)
	}
	// The "Command-line Variations" row: base64 JSON of the overrides.
	var variations struct {
		Disable string `json:"disable-features"`
	}
	for _, b64 := range regexp.MustCompile(`eyJ[A-Za-z0-9+/=]+`).FindAllString(html, -1) {
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err == nil && json.Unmarshal(raw, &variations) == nil && variations.Disable != "" {
			break
		}
	}
	if variations.Disable == "" {
		t.Fatal("chrome://version shows no command-line variations")
	}
	disabled := strings.Split(variations.Disable, ",")
	for _, f := range want {
		if !slices.Contains(disabled, f) {
			t.Errorf("feature %s is not disabled; Chromium disabled %q", f, disabled)
		}
	}
}

// fullChromium is the full browser's executable, which headless runs do
// not use when a headless shell is installed.
func fullChromium(t *testing.T) string {
	t.Helper()
	b, err := install.FindBrowser(install.BrowserQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return b.Path
}

// TestOneRendererPerTestCase counts the renderer processes the full
// Chromium starts for test cases that each open a page: one each. With its
// spare renderer on (unusedSpareFeatures) it starts two, the second one
// for nothing. (A headless shell starts no spare.)
func TestOneRendererPerTestCase(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base, ExecutablePath: fullChromium(t)}, Options{})
	ctx := context.Background()
	renderers := map[int]bool{}
	sample := func() {
		for _, pid := range l.ProcessIDs() {
			cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			if bytes.Contains(cmd, []byte("--type=renderer")) {
				renderers[pid] = true
			}
		}
	}
	const cases = 3
	for i := range cases {
		s := l.NewSession(0, fmt.Sprint("case ", i))
		p, err := s.Page(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mustGoto(t, p, "/todo.html")
		must(t, p.GetByLabel("New todo").Fill("one"))
		must(t, p.GetByLabel("New todo").Press("Enter"))
		// A spare is started shortly after the navigation; look for a while.
		for range 25 {
			sample()
			time.Sleep(20 * time.Millisecond)
		}
		if _, err := s.Close(false); err != nil {
			t.Fatal(err)
		}
	}
	if len(renderers) != cases {
		t.Errorf("%d test cases started %d renderer processes, want one each", cases, len(renderers))
	}
}

// TestHeadlessRunsUseTheShell checks the wiring from [browser] headless to
// the browser search: headless runs launch the headless shell when one is
// installed (scripts/setup-browser.sh installs Debian's), headed runs and
// channel "chromium" the full browser.
func TestHeadlessRunsUseTheShell(t *testing.T) {
	testenv.NeedBrowser(t)
	shell, err := install.FindBrowser(install.BrowserQuery{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	if !shell.HeadlessShell {
		t.Skip("no Chromium headless shell on this machine")
	}
	l := newLauncher(t, Config{}, Options{})
	s := l.NewSession(0, "headless")
	defer s.Close(false)
	if _, err := s.Page(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := l.ExecutablePath(); got != shell.Path {
		t.Errorf("headless run launched %s, want the headless shell %s", got, shell.Path)
	}

	headed := false
	for name, cfg := range map[string]Config{"headed": {Headless: &headed}, `channel "chromium"`: {Channel: "chromium"}} {
		opts, err := (&Launcher{cfg: cfg}).launchOptions()
		if err != nil {
			t.Fatal(err)
		}
		if opts.ExecutablePath == nil || *opts.ExecutablePath != fullChromium(t) || opts.Channel != nil {
			t.Errorf("%s: would launch %v (channel %v), want the full browser %s", name, opts.ExecutablePath, opts.Channel, fullChromium(t))
		}
	}
}
