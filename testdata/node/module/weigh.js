// Helper of main.js, an ES module by package.json's "type" (see ../README.md).
export function weigh(item, factor) {
  const scaled = item * factor;
  return `w${scaled}`;
}
