// An exception caught, then one uncaught (see README.md).
'use strict';

function check(order) {
  if (order === 3) {
    throw new RangeError(`bad order ${order}`);
  }
  return order;
}

try {
  JSON.parse('{');
} catch (err) {
  console.log(`caught ${err.name}`);
}
for (let order = 1; order <= 5; order++) {
  check(order);
}
