// Code under test of cart.test.js (see ../README.md).
'use strict';

function total(prices, discount) {
  const sum = prices.reduce((a, b) => a + b, 0);
  return sum - sum * discount;
}

module.exports = { total };
