//! What every model call of a client has in common, worked out once: the endpoint URL, the
//! headers, and the request body's [template](crate::core::wire::BodyTemplate) (everything in
//! it but the transcript and the tool list). A turn then allocates only its body's text.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use super::config::ClientConfig;
use crate::core::wire::{BodyTemplate, Dialect, ToolList};

/// The parts of a client's model requests that do not change between calls. A client's
/// settings and dialect never change, so only the body depends on the call: on the system
/// prompt (which skills extend per toolkit), the tool list and whether it streams.
///
/// ```
/// # use toolnexus::core::client::request_cache::RequestCache;
/// let cache = RequestCache::default(); // one per client: `Client { requests: Rc::new(cache), .. }`
/// ```
#[derive(Default)]
pub struct RequestCache {
    envelope: OnceCell<Envelope>,
    body: RefCell<Option<(BodyKey, Rc<BodyTemplate>)>>,
}

/// A request's URL and headers, shared by every model call.
pub type Envelope = (Rc<str>, Rc<[(String, String)]>);

/// What a body template was made for.
struct BodyKey {
    system: String,
    tools: Rc<ToolList>,
    stream: bool,
}

impl RequestCache {
    /// The endpoint URL and the headers: the dialect's, then the configured ones, a later
    /// header replacing an earlier one of the same name (case-insensitively).
    pub fn envelope(&self, config: &ClientConfig, dialect: &dyn Dialect) -> Envelope {
        let (url, headers) = self.envelope.get_or_init(|| {
            let mut headers: Vec<(String, String)> = Vec::new();
            let own = dialect.auth_headers(config.api_key.as_deref());
            for (name, value) in own.into_iter().chain(config.headers.iter().cloned()) {
                headers.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
                headers.push((name, value));
            }
            (dialect.endpoint(&config.base_url).into(), headers.into())
        });
        (url.clone(), headers.clone())
    }

    /// The body template for `system`, `tools` and `stream`, made by `make` when the last one
    /// was for others.
    pub fn body(
        &self,
        system: &str,
        tools: &Rc<ToolList>,
        stream: bool,
        make: impl FnOnce() -> BodyTemplate,
    ) -> Rc<BodyTemplate> {
        let mut kept = self.body.borrow_mut();
        if let Some((key, template)) = kept.as_ref() {
            if key.stream == stream && Rc::ptr_eq(&key.tools, tools) && key.system == system {
                return template.clone();
            }
        }
        let template = Rc::new(make());
        let key = BodyKey {
            system: system.to_owned(),
            tools: tools.clone(),
            stream,
        };
        *kept = Some((key, template.clone()));
        template
    }
}
