// Loaded lazily by main.mjs (see ../README.md).

export function area(side) {
  return side * side;
}
