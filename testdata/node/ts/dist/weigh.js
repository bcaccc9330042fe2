"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.weigh = weigh;
function weigh(item, factor) {
    const scaled = item * factor;
    return { item, scaled };
}
//# sourceMappingURL=weigh.js.map