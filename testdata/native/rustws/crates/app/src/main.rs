fn main() {
    let prices = vec![3, 4];
    let total = util::sum(&prices);
    println!("app total {}", total);
}
