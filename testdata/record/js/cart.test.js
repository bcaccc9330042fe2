'use strict';
const test = require('node:test');
const assert = require('node:assert');

function price(qty, unit) {
  return qty * unit;
}

async function fetchTotal(items) {
  let total = 0;
  for (const [qty, unit] of items) {
    total += await Promise.resolve(price(qty, unit));
  }
  return total;
}

test('prices a line', () => {
  assert.strictEqual(price(2, 3), 6);
});

test('totals an order', async () => {
  const pending = fetchTotal([[1, 2], [2, 5]]);
  assert.strictEqual(price(1, 1), 1);
  assert.strictEqual(await pending, 13);
});
