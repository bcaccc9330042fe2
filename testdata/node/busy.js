// A busy loop that only a pause interrupts (see README.md).
'use strict';

let spins = 0;
const start = Date.now();
console.log('spinning');
while (Date.now() - start < 60000) {
  spins++;
}
console.log(`spins ${spins}`);
