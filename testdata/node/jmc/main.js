// justMyCode fixture (see ../README.md): lib is a package in
// node_modules that calls back into this file.
'use strict';
const lib = require('lib');

function double(x) {
  return x * 2;
}

const result = lib.apply(double, 4);
console.log(`jmc ${result}`);
