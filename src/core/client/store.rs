//! Conversation memory for `ask(prompt, {id})`: any `get` / `save` pair.

use crate::core::names::Names;
use std::cell::RefCell;

use crate::core::host::LocalBoxFuture;
use crate::core::message::Message;

/// Where transcripts are kept between runs.
pub trait Store {
    /// The transcript saved under `id`, if any.
    fn get(&self, id: &str) -> LocalBoxFuture<'static, Result<Option<Vec<Message>>, String>>;
    /// Saves `messages` under `id`.
    fn save(&self, id: &str, messages: &[Message]) -> LocalBoxFuture<'static, Result<(), String>>;
}

/// Keeps transcripts in memory for the client's lifetime.
///
/// ```
/// # use toolnexus::core::client::store::{InMemoryStore, Store};
/// let store = InMemoryStore::default();
/// futures_executor::block_on(store.save("t", &[toolnexus::json!({"role": "user"}).into()])).unwrap();
/// assert_eq!(futures_executor::block_on(store.get("t")).unwrap().unwrap().len(), 1);
/// ```
#[derive(Default)]
pub struct InMemoryStore {
    threads: RefCell<Names<Vec<Message>>>,
}

impl Store for InMemoryStore {
    fn get(&self, id: &str) -> LocalBoxFuture<'static, Result<Option<Vec<Message>>, String>> {
        let found = self.threads.borrow().get(id).cloned();
        Box::pin(async move { Ok(found) })
    }

    fn save(&self, id: &str, messages: &[Message]) -> LocalBoxFuture<'static, Result<(), String>> {
        self.threads
            .borrow_mut()
            .insert(id.to_owned(), messages.to_vec());
        Box::pin(async { Ok(()) })
    }
}
