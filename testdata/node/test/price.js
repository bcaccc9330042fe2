// Code under test of price.test.js (see ../README.md). Keep the lines in place.
'use strict';

function parsePrice(text) {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (Number.isNaN(value)) {
    throw new TypeError(`not a price: ${trimmed}`);
  }
  return value;
}

module.exports = { parsePrice };
