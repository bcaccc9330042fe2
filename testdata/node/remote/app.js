// Debugged from another root: the tests run it where its files are at
// /mnt/app, with remote_only.js, which only that copy has.
'use strict';
const { check } = require('./remote_only');

function total(items) {
  let s = 0;
  for (const x of items) {
    s += x;
  }
  return s;
}

const t = total([1, 2, 3]);
console.log(`total ${t}`);
check(t);
