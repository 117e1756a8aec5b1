package jsapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// A file: page opened by code whose grant is one folder cannot bring
// other local files into the browser: frames, a new location and the
// code's own routes letting a load through are all held to the grant.
func TestSandboxFilePagesStayInTheGrant(t *testing.T) {
	root := t.TempDir()
	secret := filepath.Join(root, "secret.txt")
	dir := filepath.Join(root, "proj")
	testenv.WriteFiles(t, root, map[string]string{
		"secret.txt":           "TOP-SECRET",
		"proj/data/frame.html": `<html><body>FRAME-PAGE<iframe src="file://` + secret + `"></iframe><img src="file://` + secret + `"></body></html>`,
		"proj/data/ok.html":    `<html><body>OK-PAGE</body></html>`,
	})
	e := newEnvIn(t, nil, jsbridge.HostMCP, dir)
	grant, err := capability.NewFSPolicy([]string{"data"}, nil, capability.FSGrant{Read: "--allow-read"})
	if err != nil {
		t.Fatal(err)
	}
	jsbridge.SetScriptFiles(e.vm, grant)
	frame := "file://" + filepath.Join(dir, "data/frame.html")

	got := e.ok(`await page.goto(` + jsq(frame) + `); await page.waitForTimeout(200);
		const out = []; for (const f of page.frames()) out.push(f.url() + " " + await f.content().catch(e => e.message)); return out.join("\n")`).String()
	if !strings.Contains(got, "FRAME-PAGE") || strings.Contains(got, "TOP-SECRET") {
		t.Fatalf("frames of a granted page:\n%s", got)
	}
	// The page moving itself to a file outside the grant (Chromium may
	// still be replacing the aborted load by its error page: content()
	// then fails, and the secret is not there either).
	got = e.ok(`await page.evaluate(() => { location.href = ` + jsq("file://"+secret) + `; }); await page.waitForTimeout(300); return page.url() + " " + await page.content().catch(e => e.message)`).String()
	if strings.Contains(got, "TOP-SECRET") {
		t.Fatalf("location change out of the grant: %s", got)
	}
	// A route of the code that lets every load through.
	got = e.ok(`const errs = [];
		await page.route("**", async (r) => { try { await r.continue(); } catch (e) { errs.push(e.message); await r.abort(); } });
		await page.goto(` + jsq(frame) + `); await page.waitForTimeout(300);
		const out = [...errs]; for (const f of page.frames()) out.push(await f.content().catch(e => e.message));
		await page.unrouteAll();
		return out.join("\n")`).String()
	if strings.Contains(got, "TOP-SECRET") || !strings.Contains(got, "route.continue: loading file://"+secret+" is not allowed") {
		t.Fatalf("route.continue out of the grant:\n%s", got)
	}
	// A file of the grant, directly: allowed.
	if got := e.ok(`await page.goto("file://" + ` + jsq(filepath.Join(dir, "data/ok.html")) + `); return await page.content()`).String(); !strings.Contains(got, "OK-PAGE") {
		t.Fatalf("granted page: %s", got)
	}
	je := e.fails(`await page.goto(` + jsq("file://"+secret) + `)`)
	wantContains(t, je.Error(), `page.goto: reading "`+secret+`" is not allowed: it is outside the folders --allow-read grants (data)`)
	if _, err := os.Stat(secret); err != nil {
		t.Fatal(err)
	}
}

func jsq(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `'`, `\'`) + "'"
}
