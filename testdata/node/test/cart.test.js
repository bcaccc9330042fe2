// node:test tests for debug_test (see ../README.md): run directly,
// `node cart.test.js` runs them in-process. Keep the lines in place.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { total } = require('./cart');

test('total without discount', () => {
  assert.strictEqual(total([10, 20, 30], 0), 60);
});

test('total with discount', () => {
  const prices = [10, 20, 30];
  const got = total(prices, 0.5);
  assert.strictEqual(got, 40, 'discounted total');
});
