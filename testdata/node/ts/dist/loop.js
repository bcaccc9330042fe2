"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// TypeScript program, compiled by tsc to ../dist with source maps (see
// ../../README.md for the lines the tests use and how to rebuild).
const weigh_1 = require("./weigh");
function main() {
    let total = 0;
    const items = [];
    for (let i = 1; i <= 3; i++) {
        const w = (0, weigh_1.weigh)(i, 10);
        items.push(w);
        total += w.scaled;
    }
    console.log(`ts total ${total}`);
    return { count: items.length, total };
}
main();
//# sourceMappingURL=loop.js.map