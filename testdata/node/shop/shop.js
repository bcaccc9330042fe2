// Code under test of shop.test.js (see ../README.md; keep the lines in
// place): one catalogue entry's pack size parses to 0, and unitPrice throws
// three calls below the test.
'use strict';

const CATALOGUE = 'apple=6x1.20 pear=4x2.00 fig=0x3.50 plum=8x2.40';

function catalogue() {
  const packs = {};
  for (const entry of CATALOGUE.split(' ')) {
    const [name, spec] = entry.split('=');
    const [size, price] = spec.split('x');
    packs[name] = { size: Number(size), price: Number(price) };
  }
  return packs;
}

function unitPrice(pack) {
  const perItem = pack.price / pack.size;
  if (!Number.isFinite(perItem)) throw new RangeError('unit price is not finite');
  return perItem;
}

function lineTotal(pack, qty) {
  return qty * unitPrice(pack);
}

function invoice(order) {
  const packs = catalogue();
  return order.reduce((sum, [name, qty]) => sum + lineTotal(packs[name], qty), 0);
}

module.exports = { invoice };
