// A host as a chat client is one: it connects to the hub over Streamable
// HTTP with the MCP Apps extension in its capabilities, calls a tool, reads
// the view the tool names in _meta.ui.resourceUri, and shows it in a
// sandboxed iframe through ext-apps' AppBridge, passing on the tool's
// input and result and the view's own tool calls.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport, getToolUiResourceUri, isToolVisibilityAppOnly } from "@modelcontextprotocol/ext-apps/app-bridge";

const info = { name: "climated-apps-test-host", version: "1" };
const client = new Client(info, {
  capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } },
});
await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
const { tools } = await client.listTools();

window.host = {
  calls: [], viewResults: [], bridges: {}, contexts: {}, results: {}, sizes: {},
  modelTools: tools.filter((t) => !isToolVisibilityAppOnly(t)).map((t) => t.name),
  // show calls tool with args as the model would, and renders its view as
  // id; theme and width are the host's, and so are variables, the CSS
  // variables of its host context's styles (none when not given).
  async show(id, tool, args, theme, width, variables) {
    const def = tools.find((t) => t.name === tool);
    const uri = getToolUiResourceUri(def);
    const result = await client.callTool({ name: tool, arguments: args });
    window.host.results[id] = result;
    const doc = await client.readResource({ uri: uri });
    const iframe = document.createElement("iframe");
    iframe.id = id;
    iframe.name = id; // the view's window.name, by which the test finds it
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.style.width = width;
    document.getElementById("views").append(iframe);
    const context = { theme: theme, displayMode: "inline", platform: "web", containerDimensions: { maxWidth: iframe.clientWidth } };
    if (variables) context.styles = { variables: variables };
    window.host.contexts[id] = context;
    const bridge = new AppBridge(client, info, { serverTools: {}, serverResources: {} }, { hostContext: context });
    bridge.onsizechange = ({ width, height }) => {
      window.host.sizes[id] = { width: width, height: height, frame: iframe.clientWidth };
      if (height) iframe.style.height = height + "px";
    };
    bridge.oninitialized = () => {
      bridge.sendToolInput({ arguments: args });
      bridge.sendToolResult(result);
    };
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    // The view's calls go to the hub as AppBridge sends them; the test
    // notes which tools they were.
    const forward = bridge.oncalltool;
    bridge.oncalltool = async (params, extra) => {
      window.host.calls.push(params.name + " " + JSON.stringify(params.arguments));
      const res = await forward(params, extra);
      window.host.viewResults.push(res);
      return res;
    };
    window.host.bridges[id] = bridge;
    iframe.srcdoc = doc.contents[0].text;
    return uri;
  },
  // theme changes the theme of every view, keeping the rest of each
  // one's host context (AppBridge sends only what changed).
  theme(theme) {
    document.body.className = theme;
    for (const [id, b] of Object.entries(window.host.bridges)) {
      window.host.contexts[id] = Object.assign({}, window.host.contexts[id], { theme: theme });
      b.setHostContext(window.host.contexts[id]);
    }
  },
};
document.body.dataset.ready = "true";
