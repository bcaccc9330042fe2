fn main() {
    println!("tool ran");
}
