/work/main/testdata/native/rust/target/debug/loop_rust: /work/main/testdata/native/rust/src/main.rs
