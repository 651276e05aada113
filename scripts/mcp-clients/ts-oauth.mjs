// The TypeScript SDK's OAuth client signing in to climated, as an app that
// uses the SDK would: an OAuthClientProvider kept in memory, and
// StreamableHTTPClientTransport with it as authProvider (SSEClientTransport
// when the URL ends in /sse). Usage:
//   node ts-oauth.mjs MCP-URL REDIRECT-URL [CLIENT-METADATA-URL]
// With a client metadata URL (https) the client names itself by that
// document; without one it registers (DCR).
// The sign-in is driven from outside (cmd/climated/tsoauth_test.go):
//   stdout: "AUTHORIZE <url>"  the URL the user's browser must open
//   stdin:  "<url>"            where the browser was sent back to
// Signed in, it calls get_climate (printing "CLIMATE <json>") and
// create_alert ("ALERT <text>"), then prints "SIGNED-IN" and reads a line:
// "again" connects again with what the provider kept (the saved
// registration and tokens, as an app restarted), signing in again when it
// must; the end of input prints "ok" and ends it. Any failure is printed
// as "FAIL <why>" and ends it with status 1.
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const [mcpURL, redirectURL, metadataURL] = process.argv.slice(2);
const fail = (why) => {
  console.log(`FAIL ${why}`);
  process.exit(1);
};
setTimeout(() => fail("no result within 100 s"), 100_000).unref();

const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

// The provider keeps what a real app would store: the registration, the
// tokens, the PKCE verifier and the state of the sign-in under way; and
// throws them away when the SDK says they are no good (invalid_client:
// the registration; invalid_grant: the tokens), as apps do.
class MemoryProvider {
  constructor() {
    if (metadataURL) this.clientMetadataUrl = metadataURL;
  }
  get redirectUrl() {
    return redirectURL;
  }
  get clientMetadata() {
    return {
      client_name: "TypeScript SDK test",
      redirect_uris: [redirectURL],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    this.expectedState = randomBytes(16).toString("hex");
    return this.expectedState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url) {
    console.log(`AUTHORIZE ${url.href}`);
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope) {
    console.log(`INVALIDATE ${scope}`);
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = undefined;
  }
}

const provider = new MemoryProvider();
const newClient = () => new Client({ name: "climated-ts-oauth-test", version: "1.0.0" }, { capabilities: {} });
const newTransport = () =>
  mcpURL.endsWith("/sse")
    ? new SSEClientTransport(new URL(mcpURL), { authProvider: provider })
    : new StreamableHTTPClientTransport(new URL(mcpURL), { authProvider: provider });

// connect connects with what the provider holds, and signs in through the
// browser when the hub asks for it.
async function connect() {
  const transport = newTransport();
  try {
    const client = newClient();
    await client.connect(transport);
    return client;
  } catch (e) {
    if (!(e instanceof UnauthorizedError)) fail(`connect: ${e}`);
  }
  const back = await input.next();
  if (back.done) fail("no redirect on stdin");
  const q = new URL(back.value.trim()).searchParams;
  if (q.get("error")) fail(`the hub answered ${q.get("error")}: ${q.get("error_description")}`);
  if (q.get("state") !== provider.expectedState) fail(`state ${q.get("state")} is not the one sent`);
  if (metadataURL && provider.client?.client_id !== metadataURL) fail(`client_id ${provider.client?.client_id}, want the document's URL`);
  await transport.finishAuth(q.get("code"));
  const client = newClient();
  await client.connect(newTransport());
  return client;
}

for (;;) {
  const client = await connect();
  const climate = await client.callTool({ name: "get_climate", arguments: {} });
  if (climate.isError) fail(`get_climate: ${JSON.stringify(climate.content)}`);
  console.log(`CLIMATE ${JSON.stringify(climate.structuredContent)}`);
  const alert = await client.callTool({
    name: "create_alert",
    arguments: { zone: "Bedroom", measurement: "CO2", kind: "above", threshold: 1200, for: "15m" },
  });
  if (alert.isError) fail(`create_alert: ${JSON.stringify(alert.content)}`);
  console.log(`ALERT ${JSON.stringify(alert.content).slice(0, 200)}`);
  await client.close();
  console.log("SIGNED-IN");
  const next = await input.next();
  if (next.done || next.value.trim() !== "again") break;
}
console.log("ok");
process.exit(0);
