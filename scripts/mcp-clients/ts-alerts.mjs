// The alert flow of climated with the official TypeScript SDK client over
// Streamable HTTP (mcp/alerts_ts_test.go runs it against a hub with alerts).
// Usage: node ts-alerts.mjs http://127.0.0.1:PORT/mcp
// It creates a rule (confirming the elicitation), subscribes to the active
// alerts, prints "subscribed", and expects resources/updated and a warning
// log message when the test makes the alert fire. One line per check; exit
// 1 on the first failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const [target] = process.argv.slice(2);
function check(cond, what, detail) {
  if (!cond) {
    console.error(`FAIL: ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 500)}`);
    process.exit(1);
  }
  console.log(`ok: ${what}`);
}
setTimeout(() => {
  console.error("FAIL: no result within 60 s");
  process.exit(1);
}, 60_000);

const client = new Client({ name: "climated-ts-alerts", version: "1.0.0" }, { capabilities: { elicitation: {} } });
let asked = "";
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  asked = req.params.message;
  return { action: "accept", content: {} };
});
let updated, logged;
const gotUpdate = new Promise((resolve) => (updated = resolve));
const gotLog = new Promise((resolve) => (logged = resolve));
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  if (n.params.uri === "climate://alerts/active") updated(n.params.uri);
});
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
  if (n.params.level === "warning" && String(n.params.data?.message).startsWith("alert fired")) logged(n.params.data.message);
});
await client.connect(new StreamableHTTPClientTransport(new URL(target)));
await client.setLoggingLevel("warning");

const tools = (await client.listTools()).tools.map((t) => t.name);
check(["create_alert", "list_alerts", "delete_alert"].every((n) => tools.includes(n)), "tools/list has the alert tools", tools);

const bad = await client.callTool({ name: "create_alert", arguments: { zone: "Attic", measurement: "CO2", kind: "above", threshold: 1200 } });
check(bad.isError && bad.content[0].text.includes("Bedroom"), "create_alert: an unknown zone names the valid ones", bad.content);

const made = await client.callTool({ name: "create_alert", arguments: { zone: "Bedroom", measurement: "CO2", kind: "above", threshold: 1200 } });
check(!made.isError && made.structuredContent?.id === "u1", "create_alert: kept as u1", made);
check(asked.includes("Bedroom CO2 above 1200 ppm"), "create_alert: the user was asked to confirm the rule in words", asked);

await client.subscribeResource({ uri: "climate://alerts/active" });
console.log("subscribed");
check((await gotUpdate) === "climate://alerts/active", "resources/updated when the alert fires");
check((await gotLog).includes("Bedroom CO2 above 1200 ppm"), "a warning log message with the event's text");

const active = JSON.parse((await client.readResource({ uri: "climate://alerts/active" })).contents[0].text);
check(active.active.length === 1 && active.active[0].rule === "u1", "climate://alerts/active lists the alert", active);
await client.close();
console.log("ts-alerts: passed");
process.exit(0);
