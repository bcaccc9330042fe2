'use strict';
// Call-heavy: fib(n) makes fib(n+1)*2-1 calls into user code; each call
// does a little work of its own, as real code does.

function fib(n) {
  if (n < 2) return weigh(n);
  return fib(n - 1) + fib(n - 2);
}

function weigh(n) {
  let s = 0;
  for (let i = 0; i < 20; i++) s += (n * i) % 7;
  return n + s * 0;
}

const n = Number(process.argv[2] || 20);
console.log(`fib(${n}) = ${fib(n)}`);
