// TypeScript program, compiled by tsc to ../dist with source maps (see
// ../../README.md for the lines the tests use and how to rebuild).
import { weigh, Weighed } from './weigh';

interface Summary {
  count: number;
  total: number;
}

function main(): Summary {
  let total = 0;
  const items: Weighed[] = [];
  for (let i = 1; i <= 3; i++) {
    const w = weigh(i, 10);
    items.push(w);
    total += w.scaled;
  }
  console.log(`ts total ${total}`);
  return { count: items.length, total };
}

main();
