// Prices a cart; the ink's negative quantity panics three calls deep.
// internal/server/record_native_test.go records it.

struct Item {
    name: &'static str,
    price: i64,
    qty: i64,
}

fn discount(total: i64) -> i64 {
    if total > 100 {
        return total / 10;
    }
    0
}

fn price(it: &Item) -> i64 {
    if it.qty < 0 {
        panic!("bad quantity {} for {}", it.qty, it.name);
    }
    it.price * it.qty
}

mod cart {
    pub fn total(items: &[super::Item]) -> i64 {
        let mut sum = 0;
        for it in items {
            sum += super::price(it);
        }
        sum -= super::discount(sum);
        sum
    }
}

fn main() {
    let mut items = vec![
        Item { name: "pen", price: 3, qty: 10 },
        Item { name: "book", price: 40, qty: 2 },
    ];
    if std::env::args().len() < 2 {
        items.push(Item { name: "ink", price: 5, qty: -1 });
    }
    println!("total {}", cart::total(&items));
}
