// Values of every shape, for variable inspection (see README.md).
'use strict';

class Box {
  constructor(size) {
    this.size = size;
    this.items = ['a', 'b'];
  }

  get area() {
    throw new Error('the getter was invoked');
  }
}

function inspect() {
  const box = new Box(3);
  const map = new Map([['k', { v: 1 }]]);
  const set = new Set([1, 2]);
  const arr = [10, [20, 30]];
  const obj = { a: 1, nested: { b: 'two' } };
  const text = 'hello';
  return [box, map, set, arr, obj, text].length;
}

console.log(`shapes ${inspect()}`);
