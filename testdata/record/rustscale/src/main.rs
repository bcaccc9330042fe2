// scale(i, i + 10) for i in 1..4: stopAt's tests stop at its third call.

#[inline(never)]
fn scale(x: i64, factor: i64) -> i64 {
    let y = x * factor;
    y
}

fn main() {
    let results: Vec<i64> = (1..=4).map(|i| scale(i, i + 10)).collect();
    println!("{:?}", results);
}
