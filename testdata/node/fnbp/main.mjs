// Function breakpoint program (see ../README.md for the lines tests use).
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function square(n) {
  return n * n;
}

let shapes = null;

await sleep(50);
square(2);
shapes = await import('./shapes.mjs');
square(3);
console.log(`area ${shapes.area(4)}`);
