package e2e

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// A suite in the pattern of public cucumber-js + Playwright suites: its
// support file launches Chromium, gives each scenario a context that
// records a video (an iPhone 13's, from Playwright's devices, for
// @phone scenarios), and an After hook that branches on the scenario's
// status: a passed scenario's video is deleted, a failed one's saved and
// attached.
var videoDevicesFiles = map[string]string{
	"features/support/browser.js": `const fs = require('fs');
const path = require('path');
const { Before, After, BeforeAll, AfterAll, Status, setDefaultTimeout } = require('@cucumber/cucumber');
const { chromium, devices } = require('playwright-core');

setDefaultTimeout(60000);
let browser;

BeforeAll(async function () {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ['--no-sandbox'] });
});

Before(async function ({ pickle }) {
  const phone = pickle.tags.some((t) => t.name === '@phone');
  this.context = await browser.newContext({
    ...(phone ? devices['iPhone 13'] : {}),
    recordVideo: { dir: 'videos/raw', size: { width: 320, height: 240 } },
  });
  this.page = await this.context.newPage();
});

After(async function ({ pickle, result }) {
  const video = this.page.video();
  await this.context.close();
  const name = pickle.name.replace(/\W+/g, '-');
  if (result.status === Status.PASSED) {
    await video.delete();
    this.log('passed: video deleted');
  } else {
    await video.saveAs(path.join('videos', 'failed', name + '.webm'));
    this.attach(fs.readFileSync(await video.path()), 'video/webm');
    this.log('failed: video kept as ' + name + '.webm');
  }
});

AfterAll(async function () {
  await browser.close();
});
`,
	"features/support/steps.js": `const assert = require('assert');
const { Given, Then } = require('@cucumber/cucumber');

Given('the shop page', async function () {
  await this.page.setContent('<meta name="viewport" content="width=device-width"><h1>Shop</h1><p>Opening hours: 9 to 5</p>');
});

Then('the page is {int} pixels wide', async function (width) {
  assert.strictEqual(await this.page.evaluate(() => innerWidth), width);
});

Then('the browser says it is an iPhone', async function () {
  const seen = await this.page.evaluate(() => [navigator.userAgent.includes('iPhone'), navigator.maxTouchPoints > 0, devicePixelRatio]);
  assert.deepStrictEqual(seen, [true, true, 3]);
});
`,
	"features/shop.feature": `Feature: the shop on every device
  Scenario: desktop
    Given the shop page
    Then the page is 1280 pixels wide

  @phone
  Scenario: phone
    Given the shop page
    Then the page is 390 pixels wide
    And the browser says it is an iPhone

  @phone
  Scenario: phone with the desktop layout
    Given the shop page
    Then the page is 1280 pixels wide
`,
}

// runOutcomes reads a message stream into, per scenario, its steps'
// statuses and its attachments (text as it is, anything else as its
// media type), so two runners' results compare whatever their ids,
// timings and video bytes.
func runOutcomes(t *testing.T, stream string) map[string]string {
	t.Helper()
	envs := oracles.ReadStream(t, stream)
	pickles, cases, started := map[string]string{}, map[string]string{}, map[string]string{}
	parts := map[string][]string{}
	for _, e := range envs {
		switch {
		case e.Pickle != nil:
			pickles[e.Pickle.ID] = e.Pickle.Name
		case e.TestCase != nil:
			cases[e.TestCase.ID] = pickles[e.TestCase.PickleID]
		case e.TestCaseStarted != nil:
			started[e.TestCaseStarted.ID] = cases[e.TestCaseStarted.TestCaseID]
		case e.TestStepFinished != nil:
			name := started[e.TestStepFinished.TestCaseStartedID]
			parts[name] = append(parts[name], string(e.TestStepFinished.TestStepResult.Status))
		case e.Attachment != nil && e.Attachment.TestCaseStartedID != nil:
			a := e.Attachment
			name := started[*a.TestCaseStartedID]
			what := a.MediaType
			if a.ContentEncoding == messages.AttachmentContentEncodingIdentity {
				what = a.Body
			}
			// ferridriver's own failure screenshot has no counterpart
			if a.FileName == nil || *a.FileName != "failure.png" {
				parts[name] = append(parts[name], what)
			}
		}
	}
	out := map[string]string{}
	for name, p := range parts {
		out[name] = strings.Join(p, " ")
	}
	return out
}

// recordVideo, page.video() (path, saveAs, delete) and devices behave as
// in Playwright: the same suite under cucumber-js 13 + playwright-core
// 1.52 and under ferridriver gives the same results per scenario (the
// After hook sees PASSED for the passed ones) and writes the same video
// files.
func TestVideoAndDevicesMatchCucumberJSAndPlaywright(t *testing.T) {
	t.Parallel()
	testenv.NeedBrowser(t)
	chromium := chromiumForOracles(t)
	cj, fd := t.TempDir(), t.TempDir()
	testenv.WriteFiles(t, cj, videoDevicesFiles)
	testenv.WriteFiles(t, fd, videoDevicesFiles)
	env := []string{"CHROMIUM=" + chromium}

	oracle := cucumberJS(t, cj, env, "--format", "message:out/run.ndjson")
	if oracle.code != 1 {
		t.Fatalf("cucumber-js exited %d, want 1\n%s\n%s", oracle.code, oracle.stdout, oracle.stderr)
	}
	res := ferridriverWithEnv(t, fd, env, "bdd", "--format", "message:out/run.ndjson")
	if res.code != 1 {
		t.Fatalf("ferridriver exited %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	want, got := runOutcomes(t, filepath.Join(cj, "out", "run.ndjson")), runOutcomes(t, filepath.Join(fd, "out", "run.ndjson"))
	for _, name := range sortedOutcomeKeys(want) {
		if got[name] != want[name] {
			t.Errorf("%q:\nferridriver %s\ncucumber-js %s", name, got[name], want[name])
		}
	}
	if len(got) != len(want) || len(want) != 3 {
		t.Errorf("%d scenarios, cucumber-js %d: %v", len(got), len(want), got)
	}
	if w := want["phone with the desktop layout"]; !strings.Contains(w, "video/webm failed: video kept as phone-with-the-desktop-layout.webm") {
		t.Errorf("the oracle's failed scenario: %s", w)
	}

	// The same files: the failed scenario's saved video, and one
	// recording left (the failed one's; the passed ones were deleted).
	for _, dir := range []string{cj, fd} {
		saved := videoFiles(t, filepath.Join(dir, "videos", "failed"))
		raw := videoFiles(t, filepath.Join(dir, "videos", "raw"))
		if strings.Join(saved, " ") != "phone-with-the-desktop-layout.webm" || len(raw) != 1 {
			t.Errorf("%s: saved %v, recordings %v", dir, saved, raw)
		}
	}
}

// videoFiles lists the WebM videos in dir, failing on a file that is not
// one.
func videoFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(b) < 100 || string(b[:4]) != "\x1a\x45\xdf\xa3" {
			t.Errorf("%s is not a WebM video (%d bytes, %v)", e.Name(), len(b), err)
		}
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// [browser] video records each test case's own page, as Playwright
// Test's video option: this.page.video() is its Video, a failed test
// case's video is kept in outputDir/videos and linked from the report
// (retain-on-failure), a passed one's is not, and no recording is left
// behind.
func TestBrowserVideoOption(t *testing.T) {
	testenv.NeedBrowser(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "[browser]\nvideo = \"retain-on-failure\"\nvideoSize = { width = 320, height = 240 }\noutputDir = \"results\"\n",
		"features/steps.js": `const assert = require('assert');
const { Given, Then } = require('@cucumber/cucumber');
Given('a page', async function () {
  await this.page.setContent('<h1>Recorded</h1>');
  const path = await this.page.video().path();
  assert.ok(path.endsWith('.webm'), path);
  await new Promise((r) => setTimeout(r, 300));
});
Then('it is {string}', async function (want) {
  assert.strictEqual(await this.page.textContent('h1'), want);
});
`,
		"features/video.feature": `Feature: video
  Scenario: passes
    Given a page
    Then it is "Recorded"

  Scenario: fails
    Given a page
    Then it is "Something else"
`,
	})
	res := ferridriver(t, dir, "bdd", "--format", "message:out/run.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	envs := oracles.ReadStream(t, filepath.Join(dir, "out", "run.ndjson"))
	var links []string
	for _, e := range envs {
		if a := e.Attachment; a != nil && a.FileName != nil && *a.FileName == "video.webm" {
			links = append(links, a.Body)
		}
	}
	kept := videoFiles(t, filepath.Join(dir, "results", "videos"))
	if len(links) != 1 || len(kept) != 1 || links[0] != "file://"+filepath.Join(dir, "results", "videos", kept[0]) || !strings.HasPrefix(kept[0], "fails-") {
		t.Errorf("video links %v, videos kept %v", links, kept)
	}
}
