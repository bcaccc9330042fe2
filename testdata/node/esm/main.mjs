// ES module entry point (see ../README.md for the lines the tests use).
import { weigh } from './weigh.mjs';

const results = [];
for (let i = 1; i <= 3; i++) {
  results.push(weigh(i, 10));
}
console.log(`esm ${results.join(',')}`);
