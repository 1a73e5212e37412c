//! Servers that wait for a sign-in (OAuth without `waitFor`): each one's authorizer, its
//! Request, and `McpSource::resume`, which finishes the sign-in with the host's Answer (also
//! after a reload: the redirect's state names the flow and its server) and connects it.

use std::rc::Rc;

use super::{
    connect, filter, server_tools, state_of, Failure, McpHost, McpSource, ServerState, Status,
};
use crate::core::host::{LocalBoxFuture, TokenStore};
use crate::core::json::value::Value;
use crate::core::mcp::auth::fetch::Exchange;
use crate::core::mcp::auth::Authorizer;
use crate::core::mcp::config::{expand_env, Endpoint, ServerConfig};
use crate::core::mcp::m2m::{dpop::DpopBinding, flow::M2mGrant};
use crate::core::types::Request;

/// A server waiting for a sign-in.
pub(super) struct Waiting {
    pub(super) request: Request,
    pub(super) config: ServerConfig,
    pub(super) host: McpHost,
    pub(super) auth: Rc<Authorizer>,
}

impl McpSource {
    /// Every server's state now: as loaded, with the sign-ins resumed since.
    pub fn states(&self) -> Vec<ServerState> {
        let later = self.later.borrow();
        self.servers
            .iter()
            .map(|s| later.iter().find(|l| l.name == s.name).unwrap_or(s).clone())
            .collect()
    }

    /// The sign-in Requests the servers wait for (status `pending`).
    pub fn pending(&self) -> Vec<Request> {
        self.waiting
            .borrow()
            .iter()
            .map(|w| w.request.clone())
            .collect()
    }

    /// Finishes a pending sign-in with the host's Answer (`{id, ok, data: {url}}`): the
    /// redirect checked (state, `iss`), the code exchanged once, the server connected and
    /// its tools handed to the watchers (the toolkit adds them). Resolves with the server's
    /// new state; an Answer for no pending sign-in is an error.
    pub fn resume(&self, answer: Value) -> LocalBoxFuture<'static, Result<ServerState, String>> {
        let watchers = self.watchers.clone();
        let later = self.later.clone();
        let sessions = self.sessions.clone();
        let queue = self.waiting.clone();
        Box::pin(async move {
            let id = answer
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let mut at = queue.borrow().iter().position(|w| w.request.id == id);
            let mut expected = None;
            if let Some(at) = at {
                expected = queue
                    .borrow()
                    .get(at)
                    .and_then(|w| w.request.data.as_ref())
                    .and_then(|d| d.get("state"))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            } else {
                // After a reload: the Answer is to a Request of an earlier load, whose flow (in
                // the token store, under the redirect's state) names the server.
                let state = answer
                    .get("data")
                    .and_then(|d| d.get("url"))
                    .and_then(Value::as_str)
                    .and_then(crate::core::mcp::auth::flow::state_of);
                let first = queue.borrow().first().map(|w| w.auth.clone());
                if let (Some(state), Some(auth)) = (state, first) {
                    if let Some(server) = auth.flow_server(&state).await {
                        at = queue
                            .borrow()
                            .iter()
                            .position(|w| w.auth.server() == server);
                    }
                }
            }
            let Some(at) = at else {
                return Err(format!(
                    "no MCP server waits for the sign-in this answer is for (request id \"{id}\")"
                ));
            };
            let waiting = queue.borrow_mut().remove(at);
            let name = waiting.auth.server().to_owned();
            let mut state = match waiting.auth.resume(&answer, expected.as_deref()).await {
                Err(why) => state_of(
                    &name,
                    Status::Failed,
                    Some(format!("authorization failed: {why}")),
                ),
                Ok(()) => {
                    let wait_for = waiting.host.wait_for.clone();
                    let connected = connect(
                        &waiting.config,
                        &waiting.host,
                        wait_for,
                        true,
                        Some(waiting.auth.clone()),
                    )
                    .await;
                    match connected {
                        Ok(connected) => {
                            let mut warnings = Vec::new();
                            let kept = filter(
                                &name,
                                connected.listed.clone(),
                                &waiting.config.tools,
                                &mut warnings,
                            );
                            let tools = server_tools(&name, &kept, &connected, &mut warnings);
                            let watchers = watchers.borrow().clone();
                            for watcher in watchers {
                                watcher(&[], &tools);
                            }
                            sessions.borrow_mut().push(connected.session);
                            let mut ok = state_of(&name, Status::Connected, None);
                            ok.listed = connected.listed;
                            ok
                        }
                        Err(Failure::Failed(why)) => state_of(&name, Status::Failed, Some(why)),
                        Err(Failure::Pending(request)) => {
                            let mut pending = state_of(&name, Status::Pending, None);
                            pending.pending = Some((*request).clone());
                            queue.borrow_mut().push(Waiting {
                                request: *request,
                                ..waiting
                            });
                            pending
                        }
                    }
                }
            };
            let mut later = later.borrow_mut();
            later.retain(|s| s.name != name);
            later.push(state.clone());
            state.listed.shrink_to_fit();
            Ok(state)
        })
    }
}

/// The OAuth authorizer of a remote server that does not send its own `Authorization` header.
pub(super) fn authorizer(
    name: &str,
    config: &ServerConfig,
    host: &McpHost,
    store: &Rc<dyn TokenStore>,
) -> Option<Rc<Authorizer>> {
    let Endpoint::Remote { url, headers } = &config.endpoint else {
        return None;
    };
    let http = host.http.clone()?;
    if headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("authorization"))
    {
        return None;
    }
    let mut auth = config.auth.clone().unwrap_or_default();
    if auth.grant.is_empty() {
        auth.grant = "authorization_code".into();
    }
    auth.client_secret = auth
        .client_secret
        .map(|s| expand_env(&s, host.env.as_ref()));
    let exchange = Exchange {
        http,
        clock: host.clock.clone(),
        timeout_ms: config.timeout_ms,
        dpop: DpopBinding::of(&auth, host.signer.clone(), host.clock.clone()),
    };
    let m2m = M2mGrant::of(&auth, host.signer.clone(), host.env.as_ref());
    Some(Rc::new(
        Authorizer::new(
            name,
            url,
            auth,
            exchange,
            store.clone(),
            host.wait_for.clone(),
        )
        .with_m2m(m2m),
    ))
}
