// The TypeScript SDK client over stdio through "climated mcp --remote" to
// a hub, across a restart of the hub. Run by TestBridgeTypeScriptClient:
//   node ts-bridge.mjs SDK-DIR COMMAND ARGS…
// SDK-DIR is node_modules/@modelcontextprotocol/sdk (scripts/mcp-clients),
// imported by path so that this file can live beside the Go test.
// Between its two halves it prints "restart the hub" and waits for a line
// on stdin, which the test writes once the hub is back.
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const [sdkDir, command, ...args] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${sdkDir}/dist/esm/${p}`).href);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");
const { ResourceUpdatedNotificationSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } = await load("types.js");

let checks = 0;
function check(cond, what, detail) {
  if (!cond) {
    console.error(`FAIL bridge: ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 500)}`);
    process.exit(1);
  }
  checks++;
  console.log(`ok bridge: ${what}`);
}
const timeout = setTimeout(() => {
  console.error("FAIL bridge: no result within 90 s");
  process.exit(1);
}, 90_000);

const client = new Client({ name: "climated-ts-bridge-test", version: "1.0.0" }, { capabilities: {} });
let updates = [];
let waiting = null;
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  updates.push(n.params.uri);
  if (waiting && n.params.uri === "climate://zone/Indoor") waiting();
});
client.setNotificationHandler(LoggingMessageNotificationSchema, () => {});
let toolsChanged = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => toolsChanged++);
const nextUpdate = () => new Promise((resolve) => (waiting = resolve));

await client.connect(new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "inherit" }));
check(client.getServerVersion()?.name === "climated", "initialize through the bridge", client.getServerVersion());

async function climate(what) {
  const r = await client.callTool({ name: "get_climate", arguments: {} });
  const c = JSON.parse(r.content[0].text);
  check(typeof c.Indoor?.Temperature === "number", what, c);
}
await climate("get_climate through the bridge");
const tools = (await client.listTools()).tools.map((t) => t.name);
check(tools.includes("get_history"), "tools/list through the bridge", tools);
await client.setLoggingLevel("info");
check(true, "logging/setLevel through the bridge");

let updated = nextUpdate();
await client.subscribeResource({ uri: "climate://zone/Indoor" });
await updated;
check(true, "resources/subscribe → notifications/resources/updated through the bridge");

// The hub restarts: the bridge must start a new session by itself,
// initialize it as the client did and subscribe again.
console.log("restart the hub");
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once("line", resolve));
updated = nextUpdate();
await climate("get_climate after the hub restarted");
await updated;
check(true, "notifications/resources/updated after the restart (subscribed again)");
check(toolsChanged > 0, "notifications/tools/list_changed after the restart (ask again)", toolsChanged);
const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
check(prompts.includes("climate_report"), "prompts/list after the restart", prompts);

await client.close();
lines.close();
clearTimeout(timeout);
console.log(`${checks} passed, 0 failed`);
