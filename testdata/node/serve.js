// A long-running program to attach to (see README.md).
'use strict';

let ticks = 0;
function tick() {
  ticks++;
  console.log(`tick ${ticks}`);
}

setInterval(tick, 20);
