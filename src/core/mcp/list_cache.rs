//! Tool lists a 2026-07-28 server marked fresh (`ttlMs`), kept per server and authorization
//! context (the transport's [`cache_key`](super::transport::Transport::cache_key): its URL and
//! headers) until they go stale, so a second toolkit over the same server within the TTL lists
//! nothing. A list the server says changed is forgotten. At most [`CAPACITY`] servers are kept.

use crate::core::json::value::Value;
use std::cell::RefCell;

/// Most servers whose list is kept at once (the oldest entry goes first).
pub const CAPACITY: usize = 64;

struct Entry {
    key: String,
    until_ms: f64,
    tools: Vec<Value>,
}

thread_local! {
    static LISTS: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// The tools kept for `key`, while fresh at `now_ms`.
///
/// ```
/// # use toolnexus::core::mcp::list_cache::{fresh, keep};
/// keep("doc-test".into(), 1_000.0, vec![toolnexus::json!({"name": "a"})]);
/// assert_eq!(fresh("doc-test", 999.0).map(|t| t.len()), Some(1));
/// assert!(fresh("doc-test", 1_000.0).is_none());
/// ```
pub fn fresh(key: &str, now_ms: f64) -> Option<Vec<Value>> {
    LISTS.with(|lists| {
        let mut lists = lists.borrow_mut();
        lists.retain(|e| e.until_ms > now_ms);
        lists.iter().find(|e| e.key == key).map(|e| e.tools.clone())
    })
}

/// Keeps `tools` for `key` until `until_ms`.
pub fn keep(key: String, until_ms: f64, tools: Vec<Value>) {
    LISTS.with(|lists| {
        let mut lists = lists.borrow_mut();
        lists.retain(|e| e.key != key);
        if lists.len() >= CAPACITY {
            lists.remove(0);
        }
        lists.push(Entry {
            key,
            until_ms,
            tools,
        });
    });
}

/// Drops what is kept for `key`.
pub fn forget(key: &str) {
    LISTS.with(|lists| lists.borrow_mut().retain(|e| e.key != key));
}
