// Helper module of loop.ts (see ../README.md).
export interface Weighed {
  item: number;
  scaled: number;
}

export function weigh(item: number, factor: number): Weighed {
  const scaled: number = item * factor;
  return { item, scaled };
}
