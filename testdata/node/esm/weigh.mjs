// Helper ES module of main.mjs (see ../README.md).
export function weigh(item, factor) {
  const scaled = item * factor;
  return `w${scaled}`;
}
