// A loop in a script's top-level code, run long enough for V8 to optimize
// it in place (on-stack replacement); only a pause interrupts it (see
// README.md).
'use strict';

let spins = 0;
const start = Date.now();
console.log('spinning');
while (Date.now() - start < 60000) {
  spins++;
  if (spins === 20000000) console.log('spinning hot');
}
