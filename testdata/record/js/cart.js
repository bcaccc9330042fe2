'use strict';
// A cart whose discount is applied twice: the total comes out wrong, and a
// bad line item is swallowed and rethrown as another error on the way.

class Cart {
  constructor(owner) {
    this.owner = owner;
    this.items = [];
  }

  add(name, price, qty = 1) {
    this.items.push({ name, price, qty });
    return this.items.length;
  }

  total() {
    let sum = 0;
    for (const item of this.items) {
      sum += lineTotal(item);
    }
    return applyDiscount(sum, 0.1);
  }
}

function lineTotal(item) {
  if (item.qty < 0) throw new RangeError(`bad quantity ${item.qty}`);
  return item.price * item.qty;
}

function applyDiscount(amount, rate) {
  let discounted = amount;
  discounted = discounted * (1 - rate);
  discounted = discounted * (1 - rate);
  return Math.round(discounted * 100) / 100;
}

function checkout(cart) {
  try {
    return cart.total();
  } catch (err) {
    throw new Error(`checkout failed for ${cart.owner}: ${err.message}`);
  }
}

const cart = new Cart('ada');
cart.add('pen', 2.5, 2);
cart.add('book', 10);
console.log('total', checkout(cart));
cart.add('ghost', 1, -1);
const arrow = (x) => ({ doubled: x * 2 });
arrow(4);
checkout(cart);
