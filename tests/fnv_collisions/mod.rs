//! Object keys crafted against the unseeded FNV-1a that `core::hashed` used before it was keyed:
//! every key's hash ends in 14 zero bits, so in a table of up to 16,384 slots they all start
//! from the same slot. And as many ordinary keys of the same length, to compare with.

use std::collections::HashMap;

const FNV_PRIME: u32 = 0x0100_0193;
/// The low bits all the keys share: enough for the 16,384 slots of 8,000 keys.
pub const MASK: u32 = (1 << 14) - 1;
const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// FNV-1a over `bytes`, from `state` (`0x811c_9dc5` for a whole key).
pub fn fnv1a(state: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(state, |h, &b| (h ^ u32::from(b)).wrapping_mul(FNV_PRIME))
}

/// `count` keys of 9 characters (6 digits and 3 letters) whose FNV-1a hashes all end in the
/// 14 bits of [`MASK`] set to 0. The low bits of a product depend only on the factors' low
/// bits, so the state before a 2-character ending `xy` that leaves those bits 0 is
/// `x ^ (y · prime⁻¹)`: each 7-character start whose state is one of those gets its ending.
pub fn colliding(count: usize) -> Vec<String> {
    // The inverse of the prime modulo 2³², by Newton's iteration.
    let inverse = (0..5).fold(FNV_PRIME, |inv, _| {
        inv.wrapping_mul(2u32.wrapping_sub(FNV_PRIME.wrapping_mul(inv)))
    });
    let mut endings: HashMap<u32, [u8; 2]> = HashMap::new();
    for &x in ALPHABET {
        for &y in ALPHABET {
            let before = (u32::from(x) ^ u32::from(y).wrapping_mul(inverse)) & MASK;
            endings.insert(before, [x, y]);
        }
    }
    let mut keys = Vec::with_capacity(count);
    for n in 0.. {
        let digits = format!("{n:06}");
        let start = fnv1a(0x811c_9dc5, digits.as_bytes());
        let found = ALPHABET.iter().find_map(|&c| {
            let state = fnv1a(start, &[c]);
            endings.get(&(state & MASK)).map(|[x, y]| [c, *x, *y])
        });
        if let Some(tail) = found {
            keys.push(format!("{digits}{}", String::from_utf8_lossy(&tail)));
            if keys.len() == count {
                break;
            }
        }
    }
    keys
}

/// `count` ordinary keys of the same 9 characters: `key_00000`, `key_00001`, …
pub fn ordinary(count: usize) -> Vec<String> {
    (0..count).map(|n| format!("key_{n:05}")).collect()
}
