// A test of climated with the official TypeScript SDK client: one run per
// transport. Usage:
//   node ts-client.mjs http  http://127.0.0.1:8473/mcp
//   node ts-client.mjs sse   http://127.0.0.1:8473/sse
//   node ts-client.mjs stdio /path/to/climated mcp --db FILE
// It prints one line per check and exits 1 on the first failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [mode, target, ...rest] = process.argv.slice(2);
let checks = 0;
function check(cond, what, detail) {
  if (!cond) {
    console.error(`FAIL ${mode}: ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 500)}`);
    process.exit(1);
  }
  checks++;
  console.log(`ok ${mode}: ${what}`);
}

function transport() {
  switch (mode) {
    case "http":
      return new StreamableHTTPClientTransport(new URL(target));
    case "sse":
      return new SSEClientTransport(new URL(target));
    case "stdio":
      return new StdioClientTransport({ command: target, args: rest, env: { ...process.env }, stderr: "inherit" });
    default:
      console.error(`unknown mode ${mode}`);
      process.exit(2);
  }
}

const timeout = setTimeout(() => {
  console.error(`FAIL ${mode}: no result within 60 s`);
  process.exit(1);
}, 60_000);

const client = new Client({ name: "climated-ts-test", version: "1.0.0" }, { capabilities: {} });
await client.connect(transport());
check(client.getServerVersion()?.name === "climated", "initialize: server is climated", client.getServerVersion());

const tools = (await client.listTools()).tools.map((t) => t.name);
check(["get_climate", "get_history", "describe_zones", "write_climate_report", "list_alerts"].every((n) => tools.includes(n)), "tools/list", tools);
// climated mcp on stdio reads the alerts from the database beside the hub,
// but writes none: the hub's engine reads its rules only when it starts.
check(tools.includes("create_alert") === (mode !== "stdio"), "tools/list: create_alert only on the hub", tools);

const climate = await client.callTool({ name: "get_climate", arguments: {} });
const text = JSON.parse(climate.content[0].text);
check(typeof text.Indoor?.Temperature === "number" && typeof text.Rain?.sum_rain_24 === "number", "get_climate: nested zones", text);
check(JSON.stringify(climate.structuredContent) === JSON.stringify(text), "get_climate: structured content equals the text");

const hist = await client.callTool({ name: "get_history", arguments: { zone: "Balcony", measurement: "Temperature", from: "6h", step: "1h" } });
const series = JSON.parse(hist.content[0].text);
check(!hist.isError && series.summary.count > 0 && series.points.length >= 5, "get_history: summary and points", series.summary);
const bad = await client.callTool({ name: "get_history", arguments: { zone: "Attic", measurement: "Temperature" } });
check(bad.isError && bad.content[0].text.includes("the zones are"), "get_history: an unknown zone names the valid ones", bad.content);

const resources = (await client.listResources()).resources.map((r) => r.uri);
check(resources.includes("climate://zones") && resources.includes("climate://zone/Indoor"), "resources/list", resources);
const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
check(templates.length === 6 && templates.some((u) => u.startsWith("climate://alerts/history")) && templates.some((u) => u.startsWith("climate://records/")) && templates.some((u) => u.startsWith("climate://months/")), "resources/templates/list", templates);
const months = JSON.parse((await client.readResource({ uri: "climate://months/Indoor?measurements=Temperature" })).contents[0].text);
check(months.months.length >= 1 && months.year.days >= 1 && Object.keys(months.year.measurements).join() === "Temperature", "resources/read months template", months.year);
const zones = JSON.parse((await client.readResource({ uri: "climate://zones" })).contents[0].text);
check(zones.zones.length === 4, "resources/read climate://zones", zones.zones.map((z) => z.name));
const from = encodeURIComponent(new Date(Date.now() - 3 * 3600e3).toISOString().replace(/\.\d+Z$/, "Z"));
const hr = JSON.parse((await client.readResource({ uri: `climate://history/Indoor/CO2?from=${from}&step=30m` })).contents[0].text);
check(hr.summary.count > 0 && hr.step === "30m", "resources/read history template", hr.summary);

const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
check(prompts.length === 7 && prompts.includes("comfort_assessment") && prompts.includes("air_quality_report") && prompts.includes("weather_report"), "prompts/list", prompts);
const prompt = await client.getPrompt({ name: "climate_report", arguments: { zone: "Bedroom", period: "today" } });
check(prompt.messages.some((m) => m.content.type === "resource" && m.content.resource.uri === "climate://zone/Bedroom"), "prompts/get embeds the zone", prompt.messages.map((m) => m.content.type));
let promptErr = "";
try {
  await client.getPrompt({ name: "climate_report", arguments: { period: "fortnight" } });
} catch (e) {
  promptErr = String(e.message);
}
check(promptErr.includes("last_7_days"), "prompts/get: a bad period names the valid ones", promptErr);

const done = await client.complete({ ref: { type: "ref/prompt", name: "climate_report" }, argument: { name: "zone", value: "Bed" } });
check(JSON.stringify(done.completion.values) === '["Bedroom"]', "completion/complete zone", done.completion);
const mdone = await client.complete({
  ref: { type: "ref/resource", uri: "climate://history/{zone}/{measurement}{?from,to,step}" },
  argument: { name: "measurement", value: "" },
  context: { arguments: { zone: "Rain" } },
});
check(mdone.completion.values.includes("Rain") && !mdone.completion.values.includes("CO2"), "completion/complete measurement of a zone", mdone.completion);

// Subscribe and wait for the demo house's next reading (the test runs it
// with a short interval).
const updated = new Promise((resolve) => {
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    if (n.params.uri === "climate://zone/Indoor") resolve(n.params.uri);
  });
});
await client.subscribeResource({ uri: "climate://zone/Indoor" });
check((await updated) === "climate://zone/Indoor", "resources/subscribe → notifications/resources/updated");
await client.unsubscribeResource({ uri: "climate://zone/Indoor" });
check(true, "resources/unsubscribe");

await client.close();
clearTimeout(timeout);
console.log(`${checks} passed, 0 failed`);
