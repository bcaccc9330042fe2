// The conformance table's JavaScript program (internal/server/conformance_test.go):
// weigh called in a loop, an exception chosen by "raise", a wait for an
// attach chosen by "wait", output and exit code 3.
function weigh(item, factor) {
  const scaled = item * factor;
  return scaled;
}

function main(mode) {
  let total = 0;
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
