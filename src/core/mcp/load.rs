//! Loading every configured server at once, each isolated: a server that is disabled, cannot
//! be reached, hangs, or answers garbage gets its status and reason, and the others still
//! load. Nothing here ever fails as a whole. A server that says its tool list changed is listed
//! again and its tools swapped, for whoever watches ([`McpSource::on_tools_changed`]).

use crate::core::json::value::Value;
use futures_util::future::join_all;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

use super::auth::store::MemoryTokenStore;
use super::auth::Authorizer;
use super::config::{expand_env, Endpoint, ServerConfig, ServerEntry};
use super::elicit::Elicitation;
use super::http::StreamableHttp;
use super::m2m::sign::SharedSigner;
use super::process::{Process, SpawnSpec};
use super::session::{bounded, Session};
use super::stdio::Stdio;
use super::tool::{filter, McpTool, Redactor};
use super::transport::McpError;
use super::transport::Transport;
use crate::core::client::hooks::WaitFor;
use crate::core::host::TokenStore;
use crate::core::host::{Clock, Http, LocalBoxFuture, Spawn};
use crate::core::tool::SharedTool;
use crate::core::types::Request;

mod signin;
use signin::{authorizer, Waiting};

/// Reads one environment variable.
pub type EnvLookup = Rc<dyn Fn(&str) -> Option<String>>;

/// What loading needs from the host.
#[derive(Clone)]
pub struct McpHost {
    /// The HTTP transport (`fetch`); `None` where there is none.
    pub http: Option<Rc<dyn Http>>,
    /// The process launcher, or why there is none (a browser).
    pub process: Result<Rc<dyn Process>, String>,
    /// Timeouts.
    pub clock: Rc<dyn Clock>,
    /// `${ENV_VAR}` in header values.
    pub env: EnvLookup,
    /// Answers elicitations; without it, elicitation is not advertised.
    pub wait_for: Option<Rc<dyn WaitFor>>,
    /// Runs background work: the standalone GET stream of remote servers and the re-listing
    /// on `list_changed`; without it neither happens.
    pub spawn: Option<Rc<dyn Spawn>>,
    /// Where OAuth keeps tokens, registered clients and pending sign-ins (the `tokenStore`
    /// option); `None`: one in memory per load.
    pub token_store: Option<Rc<dyn TokenStore>>,
    /// Signs client assertions and DPoP proofs (WebCrypto in JS); without it the grants that
    /// sign fail naming it.
    pub signer: Option<SharedSigner>,
}

pub use crate::core::toolkit::ToolsChanged;

/// A server's status (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Initialized and listed.
    Connected,
    /// Turned off in the config.
    Disabled,
    /// Could not be used; see the reason.
    Failed,
    /// Waits for a sign-in (OAuth without `waitFor`): its Request is in
    /// [`ServerState::pending`], [`McpSource::resume`] finishes it.
    Pending,
}

impl Status {
    /// `"connected" | "disabled" | "failed" | "pending"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Connected => "connected",
            Status::Disabled => "disabled",
            Status::Failed => "failed",
            Status::Pending => "pending",
        }
    }
}

/// One server after loading.
#[derive(Debug, Clone)]
pub struct ServerState {
    /// Its config key.
    pub name: String,
    /// Its status.
    pub status: Status,
    /// Why it failed (secrets redacted).
    pub error: Option<String>,
    /// Every tool it listed, unfiltered, as the server sent them.
    pub listed: Vec<Value>,
    /// The sign-in it waits for, when `Pending`.
    pub pending: Option<Request>,
}

/// The MCP source of a toolkit: its tools, every server's state, and the open sessions.
#[derive(Default)]
pub struct McpSource {
    /// The tools, in config order of their servers.
    pub tools: Vec<SharedTool>,
    /// Every server, in config order.
    pub servers: Vec<ServerState>,
    /// Filter names that matched nothing, failed servers, skipped tool entries.
    pub warnings: Vec<String>,
    sessions: Rc<RefCell<Vec<Rc<Session>>>>,
    clock: Option<Rc<dyn Clock>>,
    watchers: Rc<RefCell<Vec<ToolsChanged>>>,
    /// The servers waiting for a sign-in, for `resume`.
    waiting: Rc<RefCell<Vec<Waiting>>>,
    /// States changed since loading (a resumed sign-in), by server.
    later: Rc<RefCell<Vec<ServerState>>>,
}

impl McpSource {
    /// Calls `f` with a server's old and new tools each time it re-lists them after a
    /// `notifications/tools/list_changed`.
    pub fn on_tools_changed(&self, f: ToolsChanged) {
        self.watchers.borrow_mut().push(f);
    }

    /// Ends every session (a DELETE for HTTP, killing the process for stdio), each within
    /// its server's timeout.
    pub fn close(&self) -> LocalBoxFuture<'static, ()> {
        close_all(self.sessions.borrow().clone(), self.clock.clone())
    }
}

fn close_all(
    sessions: Vec<Rc<Session>>,
    clock: Option<Rc<dyn Clock>>,
) -> LocalBoxFuture<'static, ()> {
    Box::pin(async move {
        join_all(sessions.iter().map(|s| {
            let closing = s.close();
            let clock = clock.clone();
            let ms = s.timeout_ms();
            async move {
                match clock {
                    Some(clock) => drop(
                        bounded(
                            async {
                                closing.await;
                                Ok(())
                            },
                            &clock,
                            ms,
                            "close",
                            None,
                        )
                        .await,
                    ),
                    None => closing.await,
                }
            }
        }))
        .await;
    })
}

struct Connected {
    session: Rc<Session>,
    listed: Vec<Value>,
    redactor: Rc<Redactor>,
}

/// Why a server did not connect.
enum Failure {
    /// The reason (secrets redacted).
    Failed(String),
    /// A sign-in waits for the host.
    Pending(Box<Request>),
}

fn transport(
    config: &ServerConfig,
    host: &McpHost,
    auth: Option<Rc<Authorizer>>,
) -> Result<(Rc<dyn Transport>, Redactor), String> {
    match &config.endpoint {
        Endpoint::Remote { url, headers } => {
            let http = host
                .http
                .clone()
                .ok_or("this runtime has no fetch for remote servers")?;
            let headers: Vec<(String, String)> = headers
                .iter()
                .map(|(k, v)| (k.clone(), expand_env(v, host.env.as_ref())))
                .collect();
            let mut secrets: Vec<String> = Vec::new();
            for (_, value) in &headers {
                secrets.push(value.clone());
                if let Some((_, token)) = value.rsplit_once(' ') {
                    secrets.push(token.to_owned());
                }
            }
            let mut transport =
                StreamableHttp::new(http, url.clone(), headers).with_clock(host.clock.clone());
            if let Some(spawn) = &host.spawn {
                transport = transport.with_spawn(spawn.clone());
            }
            if let Some(auth) = auth {
                secrets.extend(auth.secrets());
                transport = transport.with_auth(auth);
            }
            Ok((Rc::new(transport), Redactor::new(secrets)))
        }
        Endpoint::Local {
            command,
            args,
            env,
            cwd,
        } => {
            let process = host.process.clone()?;
            let spec = SpawnSpec {
                command: command.clone(),
                args: args.clone(),
                env: env.clone(),
                cwd: cwd.clone(),
            };
            let child = process.spawn(&spec)?;
            let secrets = env
                .iter()
                .map(|(_, v)| v.clone())
                .filter(|v| v.len() >= 8)
                .collect();
            Ok((Rc::new(Stdio::new(child)), Redactor::new(secrets)))
        }
    }
}

async fn connect(
    config: &ServerConfig,
    host: &McpHost,
    wait_for: Option<Rc<dyn WaitFor>>,
    listen: bool,
    auth: Option<Rc<Authorizer>>,
) -> Result<Connected, Failure> {
    let (transport, redactor) = transport(config, host, auth.clone()).map_err(Failure::Failed)?;
    let elicitation = Elicitation::new(wait_for, host.clock.clone());
    let session = Rc::new(
        Session::new(
            transport,
            elicitation,
            host.clock.clone(),
            config.timeout_ms,
        )
        .with_auth(auth.clone()),
    );
    session.set_listen(listen);
    let listed = match session.initialize().await {
        Ok(()) => session.list_tools().await,
        Err(error) => Err(error),
    };
    match listed {
        Ok(listed) => Ok(Connected {
            session,
            listed,
            redactor: Rc::new(redactor),
        }),
        Err(McpError::AuthPending(request)) => {
            close_all(vec![session], Some(host.clock.clone())).await;
            Err(Failure::Pending(request))
        }
        Err(error) => {
            close_all(vec![session], Some(host.clock.clone())).await;
            let mut why = redactor.apply(&error.to_string());
            if let Some(auth) = &auth {
                why = Redactor::new(auth.secrets()).apply(&why);
            }
            Err(Failure::Failed(why))
        }
    }
}

fn state_of(name: &str, status: Status, error: Option<String>) -> ServerState {
    ServerState {
        name: name.to_owned(),
        status,
        error,
        listed: Vec::new(),
        pending: None,
    }
}

/// Connects to every enabled server at once and lists its tools.
async fn connect_all(
    entries: &[ServerEntry],
    host: &McpHost,
    elicit: bool,
) -> Vec<(ServerState, Option<Connected>, Option<Waiting>)> {
    let store: Rc<dyn TokenStore> = host
        .token_store
        .clone()
        .unwrap_or_else(|| Rc::new(MemoryTokenStore::default()));
    let store = &store;
    join_all(entries.iter().map(|entry| async move {
        if !entry.enabled {
            return (state_of(&entry.name, Status::Disabled, None), None, None);
        }
        let config = match &entry.config {
            Ok(config) => config,
            Err(why) => {
                return (
                    state_of(&entry.name, Status::Failed, Some(why.clone())),
                    None,
                    None,
                )
            }
        };
        let wait_for = host.wait_for.clone().filter(|_| elicit);
        let auth = authorizer(&entry.name, config, host, store);
        match connect(config, host, wait_for, elicit, auth.clone()).await {
            Ok(connected) => {
                let mut ok = state_of(&entry.name, Status::Connected, None);
                ok.listed = connected.listed.clone();
                (ok, Some(connected), None)
            }
            Err(Failure::Failed(why)) => {
                (state_of(&entry.name, Status::Failed, Some(why)), None, None)
            }
            Err(Failure::Pending(request)) => {
                let mut pending = state_of(&entry.name, Status::Pending, None);
                pending.pending = Some((*request).clone());
                let waiting = auth.map(|auth| Waiting {
                    request: *request,
                    config: config.clone(),
                    host: host.clone(),
                    auth,
                });
                (pending, None, waiting)
            }
        }
    }))
    .await
}

/// Loads a toolkit's MCP source: each server's listed tools, filtered by its `tools` map.
pub async fn load(entries: &[ServerEntry], host: &McpHost) -> McpSource {
    let mut source = McpSource {
        clock: Some(host.clock.clone()),
        ..McpSource::default()
    };
    for ((state, connected, waiting), entry) in connect_all(entries, host, true)
        .await
        .into_iter()
        .zip(entries)
    {
        if let Some(waiting) = waiting {
            source.waiting.borrow_mut().push(waiting);
        }
        if let Some(why) = &state.error {
            source
                .warnings
                .push(format!("MCP server \"{}\" failed: {why}", state.name));
        }
        if let (Some(connected), Ok(config)) = (connected, &entry.config) {
            let kept = filter(
                &state.name,
                connected.listed.clone(),
                &config.tools,
                &mut source.warnings,
            );
            let tools = server_tools(&state.name, &kept, &connected, &mut source.warnings);
            source.tools.extend(tools.iter().cloned());
            if let Some(spawn) = &host.spawn {
                let refresh = Refresh {
                    server: state.name.clone(),
                    filter: config.tools.clone(),
                    session: Rc::downgrade(&connected.session),
                    redactor: connected.redactor.clone(),
                    current: Rc::new(RefCell::new(tools)),
                    watchers: source.watchers.clone(),
                };
                let spawn = spawn.clone();
                connected.session.on_tools_changed(Rc::new(move || {
                    spawn.spawn(Box::pin(refresh.clone().run()));
                }));
            }
            source.sessions.borrow_mut().push(connected.session);
        }
        source.servers.push(state);
    }
    source
}

/// A server's listed (and filtered) definitions as tools; a bad entry is a warning.
fn server_tools(
    server: &str,
    defs: &[Value],
    connected: &Connected,
    warnings: &mut Vec<String>,
) -> Vec<SharedTool> {
    let mut tools: Vec<SharedTool> = Vec::new();
    for def in defs {
        match McpTool::new(
            server,
            def,
            connected.session.clone(),
            connected.redactor.clone(),
        ) {
            Some(Ok(tool)) => tools.push(Rc::new(tool)),
            Some(Err(why)) => warnings.push(format!("MCP server \"{server}\": {why}")),
            None => warnings.push(format!(
                "MCP server \"{server}\" listed a tool without a name"
            )),
        }
    }
    tools
}

/// Re-lists one server's tools after `notifications/tools/list_changed` and tells the
/// watchers; a listing that fails keeps the tools it had.
#[derive(Clone)]
struct Refresh {
    server: String,
    filter: Vec<(String, bool)>,
    session: Weak<Session>,
    redactor: Rc<Redactor>,
    current: Rc<RefCell<Vec<SharedTool>>>,
    watchers: Rc<RefCell<Vec<ToolsChanged>>>,
}

impl Refresh {
    async fn run(self) {
        let Some(session) = self.session.upgrade() else {
            return;
        };
        session.forget_tools();
        let Ok(listed) = session.list_tools().await else {
            return;
        };
        let mut warnings = Vec::new();
        let kept = filter(&self.server, listed, &self.filter, &mut warnings);
        let connected = Connected {
            session,
            listed: Vec::new(),
            redactor: self.redactor.clone(),
        };
        let new = server_tools(&self.server, &kept, &connected, &mut warnings);
        let old = std::mem::replace(&mut *self.current.borrow_mut(), new.clone());
        let watchers = self.watchers.borrow().clone();
        for watcher in watchers {
            watcher(&old, &new);
        }
    }
}

/// Connects to every enabled server, lists its tools unfiltered, and disconnects.
pub async fn inventory(entries: &[ServerEntry], host: &McpHost) -> Vec<ServerState> {
    let all = connect_all(entries, host, false).await;
    let sessions = all
        .iter()
        .filter_map(|(_, c, _)| c.as_ref().map(|c| c.session.clone()))
        .collect();
    close_all(sessions, Some(host.clock.clone())).await;
    all.into_iter().map(|(state, _, _)| state).collect()
}
