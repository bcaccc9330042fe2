struct Item {
    name: String,
    count: i64,
}

fn weigh(item: i64, factor: i64) -> i64 {
    let scaled = item * factor;
    scaled
}

fn main() {
    let it = Item { name: String::from("widget"), count: 3 };
    let key = String::from("sk-live-0123456789abcdef");
    let tags: Vec<String> = (0..3).map(|i| format!("item-{}", i)).collect();
    let maybe: Option<i64> = Some(7);
    let mut total = 0;
    for i in 0..4 {
        total += weigh(i, 3);
    }
    if std::env::args().any(|a| a == "panic") {
        panic!("negative value: {}", -1);
    }
    if std::env::args().any(|a| a == "wait") {
        wait_forever(&tags);
    }
    println!("{} {} {} {} {:?} {}", it.name, it.count, key.len(), tags.len(), maybe, total);
}

fn wait_forever(tags: &[String]) {
    println!("ready {}", std::process::id());
    let mut n = 0;
    loop {
        n += weigh(tags.len() as i64, 1);
        if n < 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
