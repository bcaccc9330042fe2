//! Prices an invoice from packs, for the agent-cost benchmark: one
//! catalogue entry's pack size parses to 0, and `unit_price` divides by it
//! three calls below the test.

const CATALOGUE: &str = "apple=6x120 pear=4x200 fig=0x350 plum=8x240";

/// A pack of a catalogue entry: how many items and their price in cents.
pub struct Pack {
    pub size: u32,
    pub cents: u32,
}

fn catalogue() -> Vec<(String, Pack)> {
    CATALOGUE
        .split(' ')
        .map(|entry| {
            let (name, spec) = entry.split_once('=').unwrap();
            let (size, cents) = spec.split_once('x').unwrap();
            let pack = Pack { size: size.parse().unwrap(), cents: cents.parse().unwrap() };
            (name.to_string(), pack)
        })
        .collect()
}

fn unit_price(pack: &Pack) -> u32 {
    pack.cents / pack.size
}

fn line_total(pack: &Pack, qty: u32) -> u32 {
    qty * unit_price(pack)
}

/// Totals an order of (name, quantity) in cents.
pub fn invoice(order: &[(&str, u32)]) -> u32 {
    let packs = catalogue();
    let mut sum = 0;
    for (name, qty) in order {
        let (_, pack) = packs.iter().find(|(n, _)| n == name).unwrap();
        sum += line_total(pack, *qty);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invoice_total() {
        let order = [("apple", 12), ("pear", 8), ("fig", 2), ("plum", 4)];
        assert_eq!(invoice(&order), 1420);
    }
}
