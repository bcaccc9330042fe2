// Test program for the Node integration tests (see README.md for the
// lines they rely on). Do not move lines without updating the README.
'use strict';
const { weigh } = require('./weigh');

function main() {
  let total = 0;
  const labels = [];
  for (let i = 1; i <= 5; i++) {
    const w = weigh(i, 10);
    labels.push(w);
    total += i;
    console.log(`item ${i} total ${total}`);
  }
  process.stderr.write(`done with ${labels.length} items\n`);
  process.exitCode = 3;
}

main();
