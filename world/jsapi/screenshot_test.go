package jsapi_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/world/jsapi"
)

// toHaveScreenshot's checks and its retries: a page that never stops
// changing gives no stable screenshot; .not; update "none"; bad targets,
// names and options.
func TestToHaveScreenshot(t *testing.T) {
	e := newEnv(t)
	e.ok(`await page.setContent('<h1>Still</h1><p id="tick">0</p>')`)
	je := e.fails(`await expect(page).toHaveScreenshot('a.png')`)
	wantContains(t, je.Error(), "toHaveScreenshot() must be called during a test case")
	// page.screenshot and locator.screenshot take the same options.
	got := e.ok(`
		const plain = await page.screenshot();
		const masked = await page.screenshot({ mask: [page.locator('h1')], maskColor: '#00ff00', animations: 'disabled', caret: 'hide', scale: 'css' });
		const heading = await page.locator('h1').screenshot({ mask: [page.locator('h1')], maskColor: '#00ff00' });
		return [plain.equals(masked), masked.length > 100, heading.length > 100].join()`).String()
	if got != "false,true,true" {
		t.Errorf("screenshots with a mask: %s", got)
	}

	e.api.SetSnapshotSettings(jsapi.SnapshotSettings{Update: "none"})
	e.api.BeginTestCase(jsapi.TestCase{File: "features/shots.feature", Title: "shots"})
	dir := e.vm.Dir()
	baseline := func(name string) string {
		return filepath.Join(dir, "features", "shots.feature-snapshots", name+"-"+runtime.GOOS+".png")
	}
	je = e.fails(`await expect(page).toHaveScreenshot('a.png')`)
	wantContains(t, je.Error(), "A snapshot doesn't exist at "+baseline("a")+".")
	if _, err := os.Stat(baseline("a")); !os.IsNotExist(err) {
		t.Errorf("update none wrote the baseline: %v", err)
	}

	for src, want := range map[string]string{
		`await expect(42).toHaveScreenshot()`:                                      "toHaveScreenshot can be only used with Page or Locator objects",
		`await expect(page).toHaveScreenshot('a.jpg')`:                             `Screenshot name "a-` + runtime.GOOS + `.jpg" must have '.png' extension`,
		`await expect(page).toHaveScreenshot({ maxDiffPixelRatio: 2 })`:            "`maxDiffPixelRatio` option value must be between 0 and 1",
		`await expect(page).toHaveScreenshot({ mask: [page] })`:                    "mask must be an array of Locators",
		`await expect(page.locator('h1')).not.toHaveScreenshot('missing-not.png')`: "",
	} {
		if _, err := e.run(src); (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}

	// Baselines of the heading (a locator), then .not against them.
	e.api.SetSnapshotSettings(jsapi.SnapshotSettings{Update: "all"})
	e.ok(`await expect(page.locator('h1')).toHaveScreenshot('heading.png')`)
	if _, err := os.Stat(baseline("heading")); err != nil {
		t.Fatalf("update all wrote no baseline: %v", err)
	}
	e.api.SetSnapshotSettings(jsapi.SnapshotSettings{})
	je = e.fails(`await expect(page.locator('h1')).not.toHaveScreenshot('heading.png', { timeout: 1000 })`)
	wantContains(t, je.Error(), "Screenshot comparison failed:\n\n  Expected result should be different from the actual one.")
	e.ok(`await page.locator('h1').evaluate(h => h.textContent = 'Moved')
		await expect(page.locator('h1')).not.toHaveScreenshot('heading.png')`)
	je = e.fails(`await expect(page.locator('h1')).toHaveScreenshot('heading.png', { timeout: 2000 })`)
	wantContains(t, je.Error(), "expect(locator).toHaveScreenshot(expected)\n\n", "pixels (ratio", "are different.", "Expected: "+baseline("heading"))

	// A page that keeps changing: no two screenshots in a row are the
	// same, so the comparison times out saying so.
	e.ok(`await page.evaluate(() => setInterval(() => { document.getElementById('tick').textContent = String(Math.random()) }, 30))`)
	je = e.fails(`await expect(page).toHaveScreenshot('ticking.png', { timeout: 1500 })`)
	wantContains(t, je.Error(), "Timed out 1500ms waiting for expect(page).toHaveScreenshot(expected)\n\n", "Failed to take two consecutive stable screenshots.",
		"Previous: ", "ticking-previous.png", "Received: ", "ticking-actual.png", "    Diff: ", "ticking-diff.png")
	if _, err := os.Stat(baseline("ticking")); !os.IsNotExist(err) {
		t.Errorf("an unstable page's screenshot was written as the baseline: %v", err)
	}
	// ... unless the changing part is masked.
	e.ok(`await expect(page).toHaveScreenshot('ticking-masked.png', { mask: [page.locator('#tick')], timeout: 3000 }).catch((err) => {
		if (!/A snapshot doesn't exist/.test(err.message)) throw err
	})`)
	if _, err := os.Stat(baseline("ticking-masked")); err != nil {
		t.Errorf("the masked page gave no stable screenshot: %v", err)
	}
}
