// Compiles, with Ajv in strict mode as MCP clients built on the TypeScript
// SDK do, every schema read from stdin: a JSON array of
// {tool, kind, schema}. Prints one line per schema that fails and exits 1
// if any did. Ajv and ajv-formats are found through NODE_PATH.
const Ajv = require("ajv");
const addFormats = require("ajv-formats");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const entries = JSON.parse(input);
  let failed = 0;
  for (const { tool, kind, schema } of entries) {
    const ajv = new Ajv({ strict: true });
    addFormats(ajv);
    try {
      ajv.compile(schema);
    } catch (err) {
      failed++;
      console.log(`${tool} ${kind} schema: ${err.message}`);
    }
  }
  console.log(`compiled ${entries.length} schemas, ${failed} failed`);
  process.exit(failed ? 1 : 0);
});
