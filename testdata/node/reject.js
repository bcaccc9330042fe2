// A rejected promise nobody handles (see README.md).
'use strict';

async function load(name) {
  await null;
  throw new TypeError(`cannot load ${name}`);
}

load('config');
