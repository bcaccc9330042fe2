// Run by package.json's test script (see ../../README.md).
const test = require('node:test');
const assert = require('node:assert');

test('scaled by the project rate', () => {
  const mode = process.env.NODE_ENV;
  const scaled = 10 * rate;
  assert.strictEqual(scaled, 40, `scaled price in ${mode}`);
});
