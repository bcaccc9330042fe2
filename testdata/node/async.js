// Async code: stacks through await, promise values (see README.md).
'use strict';

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchValue(n) {
  await delay(1);
  const doubled = n * 2;
  return doubled;
}

async function run() {
  const pending = fetchValue(21);
  const value = await pending;
  console.log(`value ${value}`);
}

run();
