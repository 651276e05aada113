// The TypeScript SDK's OAuth client signing in to climated, as an app that
// uses the SDK would: an OAuthClientProvider kept in memory, and
// StreamableHTTPClientTransport with it as authProvider. Usage:
//   node ts-oauth.mjs MCP-URL REDIRECT-URL [CLIENT-METADATA-URL]
// With a client metadata URL (https) the client names itself by that
// document; without one it registers (DCR).
// The sign-in is driven from outside (cmd/climated/tsoauth_test.go):
//   stdout: "AUTHORIZE <url>"  the URL the user's browser must open
//   stdin:  "<url>"            where the browser was sent back to
// It checks the state, calls transport.finishAuth(code), connects again,
// calls get_climate and prints "CLIMATE <json>", then "ok"; any failure
// is printed as "FAIL <why>" and ends it with status 1.
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const [mcpURL, redirectURL, metadataURL] = process.argv.slice(2);
const fail = (why) => {
  console.log(`FAIL ${why}`);
  process.exit(1);
};
setTimeout(() => fail("no result within 60 s"), 60_000).unref();

const sent = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

// The provider keeps what a real app would store: the registration, the
// tokens, the PKCE verifier and the state of the sign-in under way.
class MemoryProvider {
  constructor() {
    this.expectedState = randomBytes(16).toString("hex");
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
}

const provider = new MemoryProvider();
const newClient = () => new Client({ name: "climated-ts-oauth-test", version: "1.0.0" }, { capabilities: {} });
const transport = new StreamableHTTPClientTransport(new URL(mcpURL), { authProvider: provider });
try {
  await newClient().connect(transport);
  fail("connected without signing in");
} catch (e) {
  if (!(e instanceof UnauthorizedError)) fail(`connect: ${e}`);
}

const back = await sent.next();
if (back.done) fail("no redirect on stdin");
const q = new URL(back.value.trim()).searchParams;
if (q.get("error")) fail(`the hub answered ${q.get("error")}: ${q.get("error_description")}`);
if (q.get("state") !== provider.expectedState) fail(`state ${q.get("state")} is not the one sent`);
if (metadataURL && provider.client?.client_id !== metadataURL) fail(`client_id ${provider.client?.client_id}, want the document's URL`);
await transport.finishAuth(q.get("code"));

const client = newClient();
await client.connect(new StreamableHTTPClientTransport(new URL(mcpURL), { authProvider: provider }));
const climate = await client.callTool({ name: "get_climate", arguments: {} });
if (climate.isError) fail(`get_climate: ${JSON.stringify(climate.content)}`);
console.log(`CLIMATE ${JSON.stringify(climate.structuredContent)}`);
await client.close();
console.log("ok");
process.exit(0);
