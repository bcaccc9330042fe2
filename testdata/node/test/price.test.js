// node:test tests for debug_test (see ../README.md): the function under
// test throws. Keep the lines in place.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { parsePrice } = require('./price');

test('parses a number', () => {
  assert.strictEqual(parsePrice(' 12 '), 12);
});

test('parses a word', () => {
  const input = ' twelve ';
  assert.strictEqual(parsePrice(input), 12);
});
