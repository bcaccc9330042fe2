// The conformance table's TypeScript program (internal/server/conformance_test.go),
// the JavaScript row's with types; ../dist/conform.js is it without them, line for line.
function weigh(item: number, factor: number): number {
  const scaled: number = item * factor;
  return scaled;
}

function main(mode: string): void {
  let total: number = 0;
  for (let i = 0; i < 4; i++) {
    total += weigh(i, 3);
  }
  if (mode === "raise") {
    throw new RangeError("bad mode " + mode);
  }
  if (mode === "wait") {
    console.log("ready");
    setInterval(() => { total += weigh(1, 1); }, 10);
    return;
  }
  console.log("conform total " + total);
  process.exitCode = 3;
}

main(process.argv[2] || "");
