//! Resolving agents (SPEC §7A): `GET` each Agent Card, one tool per skill. Every agent is
//! isolated like an MCP server: one that cannot be reached, answers a non-2xx status, hangs
//! past its timeout or serves something that is not a card is `failed` with its reason
//! (secrets redacted), and the others still load.

use futures_util::future::{select, Either};
use std::future::Future;
use std::rc::Rc;
use std::task::Poll;

use super::card::read_card;
use super::config::AgentSpec;
use super::tool::{A2aTool, AgentLink, NewId};
use super::wire::{clip, request_headers, unreachable, Endpoint};
use crate::core::host::{Clock, Http, HttpError, HttpRequest};
use crate::core::mcp::load::EnvLookup;
use crate::core::mcp::Status;
use crate::core::tool::SharedTool;

/// What resolving agents needs from the host.
#[derive(Clone)]
pub struct A2aHost {
    /// The HTTP transport (`fetch`); `None` where there is none.
    pub http: Option<Rc<dyn Http>>,
    /// Timeouts and polling.
    pub clock: Rc<dyn Clock>,
    /// `${ENV_VAR}` in header values.
    pub env: EnvLookup,
    /// Request and message ids.
    pub new_id: NewId,
}

/// Why an agent gave no tools.
#[derive(Debug, Clone, PartialEq)]
pub enum CardError {
    /// No response (unreachable, refused, CORS in a browser, no `fetch`).
    Network(String),
    /// A non-2xx answer to the card request.
    Status {
        /// The HTTP status.
        status: u16,
        /// `HTTP <status>: <body>`.
        message: String,
    },
    /// No answer within the agent's timeout.
    TimedOut(String),
    /// Something that is not a usable card.
    Invalid(String),
}

impl std::fmt::Display for CardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CardError::Network(m) | CardError::TimedOut(m) | CardError::Invalid(m) => {
                f.write_str(m)
            }
            CardError::Status { message, .. } => f.write_str(message),
        }
    }
}

/// Fetches `spec`'s card and makes one tool per skill, in card order.
pub async fn agent_tools(spec: &AgentSpec, host: &A2aHost) -> Result<Vec<SharedTool>, CardError> {
    let Some(http) = host.http.clone() else {
        return Err(CardError::Network(
            "A2A agents need fetch, and this runtime has none".into(),
        ));
    };
    let link = AgentLink {
        agent: String::new(),
        endpoint: Endpoint {
            http: http.clone(),
            url: Rc::from(spec.card.as_str()),
            dialect: super::card::Dialect::Reference,
        },
        headers: spec.headers.clone(),
        env: host.env.clone(),
        clock: host.clock.clone(),
        new_id: host.new_id.clone(),
        timeout_ms: spec.timeout_ms,
        poll_every_ms: spec.poll_every_ms,
    };
    let (headers, redactor) = link.expanded_headers();
    let redact = |e: CardError| match e {
        CardError::Network(m) => CardError::Network(redactor.apply(&m)),
        CardError::TimedOut(m) => CardError::TimedOut(redactor.apply(&m)),
        CardError::Invalid(m) => CardError::Invalid(redactor.apply(&m)),
        CardError::Status { status, message } => CardError::Status {
            status,
            message: redactor.apply(&message),
        },
    };
    let text = fetch_card(&*http, &host.clock, spec, &headers)
        .await
        .map_err(redact)?;
    let card = read_card(&text, &spec.card)
        .map_err(|why| redact(CardError::Invalid(format!("{why} (from {})", spec.card))))?;
    let link = Rc::new(AgentLink {
        agent: card.name.clone(),
        endpoint: Endpoint {
            http,
            url: Rc::from(card.endpoint.as_str()),
            dialect: card.dialect,
        },
        ..link
    });
    card.skills
        .iter()
        .map(|skill| {
            A2aTool::new(skill, link.clone())
                .map(|t| Rc::new(t) as SharedTool)
                .map_err(|why| CardError::Invalid(format!("skill \"{}\": {why}", skill.id)))
        })
        .collect()
}

async fn fetch_card(
    http: &dyn Http,
    clock: &Rc<dyn Clock>,
    spec: &AgentSpec,
    headers: &[(String, String)],
) -> Result<String, CardError> {
    let all = request_headers(super::card::Dialect::Reference, false, headers);
    let names: Vec<String> = all.iter().map(|(n, _)| n.to_ascii_lowercase()).collect();
    let request = HttpRequest {
        method: "GET".into(),
        url: Rc::from(spec.card.as_str()),
        headers: all.into(),
        body: None,
        splice: None,
        signal: None,
    };
    let sent = super::wire::fetch(http, &request);
    let response = match select(sent, clock.sleep(spec.timeout_ms)).await {
        Either::Left((Ok(response), _)) => response,
        Either::Left((
            Err(HttpError::Network(why) | HttpError::Refused(why) | HttpError::Aborted(why)),
            _,
        )) => {
            let text = unreachable("Agent Card", &spec.card, &why, &names);
            return Err(CardError::Network(text.replacen(" POST ", " GET ", 1)));
        }
        Either::Right(_) => {
            return Err(CardError::TimedOut(format!(
                "the Agent Card {} did not arrive within {}ms",
                spec.card,
                crate::core::jsfmt::number(spec.timeout_ms)
            )))
        }
    };
    if !(200..300).contains(&response.status) {
        return Err(CardError::Status {
            status: response.status,
            message: format!("HTTP {}: {}", response.status, clip(response.body.trim())),
        });
    }
    Ok(response.body)
}

/// One agent after loading.
#[derive(Debug, Clone)]
pub struct AgentState {
    /// Its card URL.
    pub card: String,
    /// `Connected` or `Failed`.
    pub status: Status,
    /// Why it failed (secrets redacted).
    pub error: Option<String>,
}

/// The A2A source of a toolkit.
#[derive(Default)]
pub struct AgentsSource {
    /// Every agent's tools, in the order the agents were given.
    pub tools: Vec<SharedTool>,
    /// Every agent, in order.
    pub agents: Vec<AgentState>,
    /// One line per failed agent, for the console.
    pub warnings: Vec<String>,
}

/// Resolves every agent at once; never fails as a whole.
pub async fn load_agents(specs: &[AgentSpec], host: &A2aHost) -> AgentsSource {
    let outcomes = all(specs.iter().map(|spec| agent_tools(spec, host))).await;
    let mut source = AgentsSource::default();
    for (spec, outcome) in specs.iter().zip(outcomes) {
        match outcome {
            Ok(tools) => {
                source.tools.extend(tools);
                source.agents.push(AgentState {
                    card: spec.card.clone(),
                    status: Status::Connected,
                    error: None,
                });
            }
            Err(error) => {
                let why = error.to_string();
                source
                    .warnings
                    .push(format!("A2A agent \"{}\" failed: {why}", spec.card));
                source.agents.push(AgentState {
                    card: spec.card.clone(),
                    status: Status::Failed,
                    error: Some(why),
                });
            }
        }
    }
    source
}

/// Runs `futures` at once and gives their outputs in order: `join_all` without its code for
/// long lists (a toolkit has a few agents).
async fn all<F: Future>(futures: impl Iterator<Item = F>) -> Vec<F::Output> {
    let mut pending: Vec<std::pin::Pin<Box<F>>> = futures.map(Box::pin).collect();
    let mut done: Vec<Option<F::Output>> = pending.iter().map(|_| None).collect();
    std::future::poll_fn(move |cx| {
        for (future, slot) in pending.iter_mut().zip(done.iter_mut()) {
            if slot.is_none() {
                if let Poll::Ready(output) = future.as_mut().poll(cx) {
                    *slot = Some(output);
                }
            }
        }
        if done.iter().all(Option::is_some) {
            Poll::Ready(done.iter_mut().filter_map(Option::take).collect())
        } else {
            Poll::Pending
        }
    })
    .await
}
