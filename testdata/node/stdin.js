// Reads its standard input (see README.md).
const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l !== "");
console.log(`read ${lines.length} lines, first ${lines[0] || "none"}`);
