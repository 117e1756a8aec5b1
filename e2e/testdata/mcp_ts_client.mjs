// The official TypeScript MCP client (@modelcontextprotocol/sdk, pinned in
// tools/oracles) driven by the Go end-to-end tests (e2e/mcp_tsclient_test.go).
//
//   node mcp_ts_client.mjs stdio <binary> <dir> [ferridriver mcp flags...]
//   node mcp_ts_client.mjs http <endpoint> [token]
//
// MCP_SDK_DIR is the SDK's package directory. The script connects, then
// reads commands from stdin, one JSON object a line, and writes one JSON
// line per answer (with the command's id) and per notification (with
// "event"). Commands run concurrently: a call does not hold up the next
// line. Commands:
//   {"id", "op": "list"}                 -> {"id", "tools": [...]}
//   {"id", "op": "call", "name", "args", "progress"?, "timeoutMs"?,
//    "abortAfterMs"?, "resetTimeoutOnProgress"?}
//                                        -> {"id", "result", "ms"} or {"id", "error", "code", "ms"}
//   {"id", "op": "close"}                -> {"id", "closed": true}, then exit
// Events: {"event": "connected", "server", "capabilities"},
// {"event": "connect_error", "error"} (then exit), {"event": "progress",
// "call": id, "progress", "total", "message"}, {"event": "list_changed"}.
import { createInterface } from "node:readline";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const sdk = process.env.MCP_SDK_DIR;
const load = (p) => import(pathToFileURL(join(sdk, "dist", "esm", p)).href);
const { Client } = await load("client/index.js");
const { ToolListChangedNotificationSchema } = await load("types.js");

const out = (v) => process.stdout.write(JSON.stringify(v) + "\n");

const [mode, target, ...rest] = process.argv.slice(2);
let transport;
if (mode === "stdio") {
  const { StdioClientTransport } = await load("client/stdio.js");
  transport = new StdioClientTransport({ command: target, args: ["mcp", ...rest.slice(1)], cwd: rest[0], stderr: "inherit" });
} else {
  const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
  const token = rest[0];
  transport = new StreamableHTTPClientTransport(new URL(target), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
}

const client = new Client({ name: "ferridriver-e2e-ts", version: "1" });
client.setNotificationHandler(ToolListChangedNotificationSchema, () => out({ event: "list_changed" }));
try {
  await client.connect(transport);
} catch (e) {
  out({ event: "connect_error", error: String(e?.message ?? e) });
  process.exit(0);
}
out({ event: "connected", server: client.getServerVersion(), capabilities: client.getServerCapabilities() });

async function run(cmd) {
  const start = Date.now();
  try {
    switch (cmd.op) {
      case "list":
        return { tools: (await client.listTools()).tools };
      case "call": {
        const opts = { timeout: cmd.timeoutMs ?? 120000 };
        if (cmd.resetTimeoutOnProgress) opts.resetTimeoutOnProgress = true;
        if (cmd.progress) opts.onprogress = (p) => out({ event: "progress", call: cmd.id, ...p });
        if (cmd.abortAfterMs) {
          const ac = new AbortController();
          setTimeout(() => ac.abort(new Error("aborted by the test")), cmd.abortAfterMs);
          opts.signal = ac.signal;
        }
        const result = await client.callTool({ name: cmd.name, arguments: cmd.args ?? {} }, undefined, opts);
        return { result, ms: Date.now() - start };
      }
      case "close":
        await client.close();
        return { closed: true };
      default:
        return { error: `unknown op ${cmd.op}` };
    }
  } catch (e) {
    return { error: String(e?.message ?? e), code: e?.code ?? null, ms: Date.now() - start };
  }
}

const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  const cmd = JSON.parse(line);
  run(cmd).then((answer) => {
    out({ id: cmd.id, ...answer });
    if (cmd.op === "close") process.exit(0);
  });
});
rl.on("close", async () => {
  await client.close().catch(() => {});
  process.exit(0);
});
