// TypeScript that Node runs as written, with its type stripping (Node
// 22.6+; see ../README.md for the lines the tests use). No build step: the
// imports name the .ts files, and types are imported with `import type`.
import { weigh } from './weigh.ts';
import type { Weighed } from './weigh.ts';

interface Summary {
  count: number;
  total: number;
}

function main(): Summary {
  let total: number = 0;
  const items: Weighed[] = [];
  for (let i = 1; i <= 3; i++) {
    const w: Weighed = weigh(i, 10);
    items.push(w);
    total += w.scaled;
  }
  console.log(`strip total ${total}`);
  return { count: items.length, total };
}

main();
