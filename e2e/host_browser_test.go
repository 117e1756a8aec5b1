package e2e

import (
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// The script and mcp hosts give code a browser page, launched on first
// use: `page` in `ferridriver run`, ctx.page in an MCP tool handler.
func TestScriptAndMCPHostsHaveAPage(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"script.ts":        "declare const page: any\nawait page.setContent('<h1>from a script</h1>')\nconsole.log(await page.locator('h1').textContent())\n",
		"ferridriver.toml": "extensions = [\"tools\"]\n",
		"tools/page.ts": `defineTool({
  name: 'demo.heading',
  exposeAsTool: true,
  inputSchema: { type: 'object', properties: { html: { type: 'string' } }, required: ['html'] },
  handler: async ({ args, page }: any) => {
    await page.setContent(args.html)
    return { heading: await page.locator('h1').textContent() }
  },
})
`,
	})
	res := ferridriver(t, dir, "run", "script.ts")
	if res.code != 0 || strings.TrimSpace(res.stdout) != "from a script" {
		t.Fatalf("run: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	cs, stderr := mcpClient(t, dir, nil)
	r := mcpCall(t, cs, "demo.heading", map[string]any{"html": "<h1>from a tool</h1>"})
	if r.IsError || !strings.Contains(resultText(r, 0), "from a tool") {
		t.Fatalf("mcp tool: %+v %s\n%s", r, resultText(r, 0), stderr.String())
	}
}
