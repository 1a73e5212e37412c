//! A small stable sort shared by every call site in the crate.
//!
//! The standard library's sorts are fast but large: each element type they are used with adds
//! several kilobytes of wasm (driftsort and ipnsort, with their small-sort networks). The crate
//! sorts only short lists (skill names, directory entries, secrets to redact), so one compact
//! merge sort behind a `dyn` comparator serves them all for a fraction of the bytes.

use std::cmp::Ordering;

/// Sorts `items` by `order`, keeping equal items in their original order (stable), in
/// O(n log n) comparisons.
///
/// ```
/// use toolnexus::core::sorting::sort_by;
/// let mut words = vec!["pear", "fig", "apple", "kiwi"];
/// sort_by(&mut words, &|a, b| a.len().cmp(&b.len()));
/// assert_eq!(words, ["fig", "pear", "kiwi", "apple"]);
/// ```
pub fn sort_by<T>(items: &mut Vec<T>, order: &dyn Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let mut right = items.split_off(items.len() / 2);
    let mut left = std::mem::take(items);
    sort_by(&mut left, order);
    sort_by(&mut right, order);
    items.reserve_exact(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        // An item from the right goes first only when it is strictly less: that keeps ties stable.
        let from_left = match (left.peek(), right.peek()) {
            (Some(l), Some(r)) => order(r, l) != Ordering::Less,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let next = if from_left { left.next() } else { right.next() };
        items.extend(next);
    }
}

/// Sorts `items` in their natural order (stable).
///
/// ```
/// use toolnexus::core::sorting::sort;
/// let mut names = vec!["b".to_owned(), "a".to_owned()];
/// sort(&mut names);
/// assert_eq!(names, ["a", "b"]);
/// ```
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, &T::cmp);
}
