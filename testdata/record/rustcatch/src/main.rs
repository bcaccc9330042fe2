// Reads order quantities, skipping the bad ones: parse_qty panics on a
// negative quantity and qty_or_zero catches the panic, two calls up.
// internal/server/record_native_test.go records it.

fn parse_qty(text: &str) -> i64 {
    if text.starts_with('-') {
        panic!("negative quantity {}", text);
    }
    text.parse().unwrap_or(0)
}

fn line_qty(text: &str) -> i64 {
    let qty = parse_qty(text);
    qty
}

fn qty_or_zero(text: &str) -> i64 {
    std::panic::catch_unwind(|| line_qty(text)).unwrap_or(0)
}

fn main() {
    let total = qty_or_zero("3") + qty_or_zero("-2") + qty_or_zero("4");
    println!("total {}", total);
}
