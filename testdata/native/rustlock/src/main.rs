// Two threads take the same two mutexes in opposite orders and hang, each
// holding the one the other waits for; main waits for both.
use std::sync::{Arc, Barrier, Mutex};
use std::thread;

fn transfer(first: &Mutex<i32>, second: &Mutex<i32>, both_hold: &Barrier) {
    let _held = first.lock().unwrap();
    both_hold.wait(); // both threads hold their first mutex now
    let _other = second.lock().unwrap();
}

fn main() {
    let savings = Arc::new(Mutex::new(100));
    let checking = Arc::new(Mutex::new(50));
    let both_hold = Arc::new(Barrier::new(2));
    let workers: Vec<_> = [(savings.clone(), checking.clone()), (checking, savings)]
        .into_iter()
        .map(|(first, second)| {
            let both_hold = both_hold.clone();
            thread::spawn(move || transfer(&first, &second, &both_hold))
        })
        .collect();
    println!("transferring");
    for w in workers {
        w.join().unwrap();
    }
}
