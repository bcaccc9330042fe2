// Calls square as many times as its argument says: the record benchmark
// (internal/server/record_native_bench_test.go) divides the recorded run's
// time by its calls.

#[inline(never)]
fn square(n: i64) -> i64 {
    n * n
}

fn main() {
    let count: i64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut sum = 0;
    for i in 0..count {
        sum += square(i);
    }
    println!("sum {}", sum);
}
