const test = require("node:test");
const assert = require("node:assert");
const { format } = require("./round.js");

test("rounds up into a new leading digit", () => {
  assert.strictEqual(format(9.996, 2), "10.00");
});
