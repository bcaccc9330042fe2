/work/main/testdata/native/rust/target/debug/deps/loop_rust-42ef6fe29b42d50f.d: src/main.rs

/work/main/testdata/native/rust/target/debug/deps/loop_rust-42ef6fe29b42d50f: src/main.rs

src/main.rs:
