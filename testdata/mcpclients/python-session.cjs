// Drives a whole Python debug session through mcp-debugger over HTTP or
// stdio with the TypeScript SDK, as an agent on that SDK would: create,
// breakpoint, start, continue, locals, close. Its one argument is a JSON
// object:
//   url, token      the server's /mcp endpoint and bearer token, or
//   command         the server's command line, to run it over stdio
//   program, line   the Python program and the line to break on
//   sdk             "v1" (@modelcontextprotocol/sdk) or "v2" (@modelcontextprotocol/client)
//   revision        "legacy" (2025-11-25, in an MCP session) or a pinned
//                   sessionless revision ("2026-07-28", v2 only)
//   oneShot         a new connection for every call, sending the
//                   reconnectKey in Mcp-Debugger-Reconnect-Key after create
// The packages are found in $MCP_CLIENTS/node_modules. It prints one JSON
// object: the negotiated revision and what each step answered.
const { createRequire } = require("node:module");
const path = require("node:path");

const opts = JSON.parse(process.argv[2]);
const load = createRequire(path.join(process.env.MCP_CLIENTS, "node_modules", "_"));
const sdk = opts.sdk === "v1"
  ? { ...load("@modelcontextprotocol/sdk/client/index.js"), ...load("@modelcontextprotocol/sdk/client/streamableHttp.js"), ...load("@modelcontextprotocol/sdk/client/stdio.js") }
  : { ...load("@modelcontextprotocol/client"), ...load("@modelcontextprotocol/client/stdio") };

const headers = { Authorization: "Bearer " + opts.token };
let kept;
let revision;

async function connect() {
  const clientOptions = opts.revision === "legacy" ? {} : { versionNegotiation: { mode: { pin: opts.revision } } };
  const client = new sdk.Client({ name: "python-session-test", version: "1" }, clientOptions);
  const transport = opts.command
    ? new sdk.StdioClientTransport({ command: opts.command[0], args: opts.command.slice(1), stderr: "ignore" })
    : new sdk.StreamableHTTPClientTransport(new URL(opts.url), { requestInit: { headers: { ...headers } } });
  if (opts.command && !transport.setProtocolVersion) {
    // v1 tells a transport the negotiated revision only through this
    // (HTTP transports have it; stdio's does not).
    transport.setProtocolVersion = (v) => { transport.protocolVersion = v; };
  }
  await client.connect(transport);
  revision = client.getNegotiatedProtocolVersion ? client.getNegotiatedProtocolVersion() : transport.protocolVersion;
  return client;
}

async function call(name, args) {
  const client = opts.oneShot ? await connect() : (kept ??= await connect());
  try {
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });
    const answer = JSON.parse(res.content[0].text);
    if (res.isError) throw new Error(`${name}: ${answer.error} (hint: ${answer.hint})`);
    return answer;
  } finally {
    if (opts.oneShot) await client.close();
  }
}

(async () => {
  const out = {};
  const created = await call("create_debug_session", { language: "python" });
  const id = created.sessionId;
  if (opts.oneShot) headers["Mcp-Debugger-Reconnect-Key"] = created.reconnectKey;
  await call("set_breakpoint", { sessionId: id, file: opts.program, line: opts.line });
  out.startLine = (await call("start_debugging", { sessionId: id, scriptPath: opts.program })).location?.line;
  out.continueLine = (await call("continue_execution", { sessionId: id })).location?.line;
  const locals = await call("get_local_variables", { sessionId: id });
  out.i = locals.variables.find((v) => v.name === "i")?.value;
  out.closed = (await call("close_debug_session", { sessionId: id })).success;
  out.revision = revision;
  if (kept) await kept.close();
  console.log(JSON.stringify(out));
})().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
