// node:test fixture for the agent-cost benchmark: the function under test
// throws deep inside shop.js (unitPrice). Run directly: `node shop.test.js`.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { invoice } = require('./shop');

test('invoice total', () => {
  const order = [['apple', 12], ['pear', 8], ['fig', 2], ['plum', 4]];
  assert.strictEqual(Math.round(invoice(order) * 100) / 100, 14.2);
});
