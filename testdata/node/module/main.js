// An ES module by its package.json's "type": "module" (see ../README.md).
import { weigh } from './weigh.js';

const results = [];
for (let i = 1; i <= 3; i++) {
  results.push(weigh(i, 10));
}
console.log(`module ${results.join(',')} ${typeof require}`);
