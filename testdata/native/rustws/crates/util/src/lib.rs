pub fn sum(items: &[i32]) -> i32 {
    let mut total = 0;
    for it in items {
        total += it;
    }
    total
}
