// Recursion for step out with return values (see README.md).
'use strict';
function fact(n) {
  if (n <= 1) return 1;
  const r = n * fact(n - 1);
  return r;
}
const v = fact(5);
console.log(`fact ${v}`);
