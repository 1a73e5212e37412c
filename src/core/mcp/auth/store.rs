//! The token store's keys and records, over the host's [`TokenStore`], and the default store
//! in memory.

use std::cell::RefCell;
use std::rc::Rc;

use crate::core::host::{LocalBoxFuture, TokenStore};
use crate::core::json::value::Value;

/// A [`TokenStore`] in memory (the default: tokens last as long as the toolkit's module).
///
/// ```
/// # use toolnexus::core::mcp::auth::store::MemoryTokenStore;
/// # use toolnexus::core::host::TokenStore;
/// let store = MemoryTokenStore::default();
/// futures_executor::block_on(store.set("k", "v".into())).unwrap();
/// assert_eq!(futures_executor::block_on(store.get("k")).unwrap().as_deref(), Some("v"));
/// ```
#[derive(Default)]
pub struct MemoryTokenStore(RefCell<Vec<(String, String)>>);

impl TokenStore for MemoryTokenStore {
    fn get(&self, key: &str) -> LocalBoxFuture<'static, Result<Option<String>, String>> {
        let found = self
            .0
            .borrow()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone());
        Box::pin(async move { Ok(found) })
    }

    fn set(&self, key: &str, value: String) -> LocalBoxFuture<'static, Result<(), String>> {
        let mut map = self.0.borrow_mut();
        match map.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => map.push((key.to_owned(), value)),
        }
        Box::pin(async { Ok(()) })
    }

    fn delete(&self, key: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        self.0.borrow_mut().retain(|(k, _)| k != key);
        Box::pin(async { Ok(()) })
    }
}

/// The key of the tokens for a resource from an issuer.
///
/// ```
/// # use toolnexus::core::mcp::auth::store::tokens_key;
/// assert_eq!(tokens_key("https://as", "https://r/mcp"), "oauth:tokens:https://as https://r/mcp");
/// ```
pub fn tokens_key(issuer: &str, resource: &str) -> String {
    format!("oauth:tokens:{issuer} {resource}")
}

/// The key of the client registered with an issuer (dynamic registration).
///
/// ```
/// # use toolnexus::core::mcp::auth::store::client_key;
/// assert_eq!(client_key("https://as", "http://localhost/cb"), "oauth:client:https://as http://localhost/cb");
/// ```
pub fn client_key(issuer: &str, redirect: &str) -> String {
    format!("oauth:client:{issuer} {redirect}")
}

/// The key of the flow waiting for the redirect that carries `state`.
///
/// ```
/// # use toolnexus::core::mcp::auth::store::flow_key;
/// assert_eq!(flow_key("s1"), "oauth:flow:s1");
/// ```
pub fn flow_key(state: &str) -> String {
    format!("oauth:flow:{state}")
}

/// Reads the JSON under `key`; unreadable JSON counts as absent (a store of another version).
///
/// ```
/// # use std::rc::Rc;
/// # use toolnexus::core::host::TokenStore;
/// use toolnexus::core::mcp::auth::store::{forget, read, write, MemoryTokenStore};
/// let store: Rc<dyn TokenStore> = Rc::new(MemoryTokenStore::default());
/// futures_executor::block_on(async {
///     write(&store, "k", &toolnexus::json!({"a": 1})).await.unwrap();
///     assert_eq!(read(&store, "k").await.unwrap(), Some(toolnexus::json!({"a": 1})));
///     forget(&store, "k").await.unwrap();
///     assert_eq!(read(&store, "k").await.unwrap(), None);
/// });
/// ```
pub async fn read(store: &Rc<dyn TokenStore>, key: &str) -> Result<Option<Value>, String> {
    let text = store.get(key).await.map_err(store_error)?;
    Ok(text.and_then(|t| crate::core::json::parse::from_str(&t).ok()))
}

/// Writes `value` as JSON under `key`.
pub async fn write(store: &Rc<dyn TokenStore>, key: &str, value: &Value) -> Result<(), String> {
    store
        .set(key, crate::core::json::text::to_text(value))
        .await
        .map_err(store_error)
}

/// Forgets `key`.
pub async fn forget(store: &Rc<dyn TokenStore>, key: &str) -> Result<(), String> {
    store.delete(key).await.map_err(store_error)
}

fn store_error(why: String) -> String {
    format!("the token store failed: {why}")
}
