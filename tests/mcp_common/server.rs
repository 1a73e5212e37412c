//! A scripted MCP server behind the core's `Http`: it speaks the streamable-HTTP transport
//! (session id, JSON or event-stream answers, 202 for notifications, DELETE), lists tools in
//! pages, and can hang, fail, answer garbage or elicit (pausing its event stream until the
//! client POSTs the answer). Every request is recorded.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use toolnexus::{core::json::value::Value, json};

use super::server_body::{Part, Replies, Script};
use toolnexus::core::host::{Clock, HeadedResponse, HttpError, HttpRequest, LocalBoxFuture};

/// How request answers are sent.
#[derive(Clone, Copy, PartialEq)]
pub enum Mode {
    Json,
    Events,
}

/// What the server does with one request.
#[derive(Clone)]
pub enum Reply {
    /// A JSON-RPC result.
    Result(Value),
    /// A JSON-RPC error.
    Error(i64, &'static str),
    /// An HTTP answer as given.
    Raw(u16, &'static str, &'static str),
    /// Never answers (until the request's signal fires).
    Hang,
    /// Opens an event stream and never ends it.
    StreamThenHang,
    /// Sends `elicitation/create` with these params, then the result `f(client's answer)`.
    Elicit(Value, fn(&Value) -> Value),
    /// Answers as the inner reply after this many (virtual) milliseconds.
    After(f64, Box<Reply>),
    /// An event stream of these texts, each sent at its (virtual) time after the request,
    /// then the end of the stream, or a hang when `hang`.
    Timed(Vec<(f64, String)>, bool),
}

/// One request the server saw.
#[derive(Clone, Debug)]
pub struct Seen {
    /// When it arrived (the fake's clock; 0 without one).
    pub at: f64,
    pub method: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    }
    pub fn rpc_method(&self) -> String {
        self.body["method"].as_str().unwrap_or("").to_owned()
    }
}

pub struct FakeMcp {
    pub mode: Mode,
    pub tools: RefCell<Vec<Value>>,
    pub page_size: usize,
    pub session: Option<&'static str>,
    pub version: &'static str,
    /// Overrides by JSON-RPC method, or by `tools/call:<name>`.
    pub overrides: RefCell<HashMap<String, Reply>>,
    /// Answers the next `tools/call` with 404 (a forgotten session), once.
    pub expire_next_call: Cell<bool>,
    /// Bytes per body chunk (small, to exercise the incremental decoder).
    pub chunk: usize,
    /// Whether responses carry headers (false: only the body tells JSON from events).
    pub headers: bool,
    pub seen: RefCell<Vec<Seen>>,
    /// The clock of `Reply::After`.
    pub clock: RefCell<Option<Rc<dyn Clock>>>,
    pub replies: Rc<Replies>,
}

impl FakeMcp {
    pub fn new(mode: Mode) -> Rc<Self> {
        Rc::new(FakeMcp {
            mode,
            tools: RefCell::new(vec![
                json!({"name": "echo", "description": "Echoes", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}),
                json!({"name": "get.weather", "inputSchema": {"type": "object"}}),
            ]),
            page_size: 100,
            session: Some("sess-1"),
            version: "2025-11-25",
            overrides: RefCell::default(),
            expire_next_call: Cell::new(false),
            chunk: 7,
            headers: true,
            seen: RefCell::default(),
            clock: RefCell::default(),
            replies: Rc::default(),
        })
    }

    pub fn with(self: Rc<Self>, key: &str, reply: Reply) -> Rc<Self> {
        self.overrides.borrow_mut().insert(key.to_owned(), reply);
        self
    }

    /// Requests seen whose JSON-RPC method (or HTTP method, for DELETE) is `method`.
    pub fn seen_rpc(&self, method: &str) -> Vec<Seen> {
        self.seen
            .borrow()
            .iter()
            .filter(|s| s.rpc_method() == method || s.method == method)
            .cloned()
            .collect()
    }

    fn reply_for(&self, method: &str, params: &Value) -> Reply {
        let overrides = self.overrides.borrow();
        if method == "tools/call" {
            let key = format!("tools/call:{}", params["name"].as_str().unwrap_or(""));
            if let Some(reply) = overrides.get(&key) {
                return reply.clone();
            }
        }
        if let Some(reply) = overrides.get(method) {
            return reply.clone();
        }
        match method {
            "initialize" => Reply::Result(json!({
                "protocolVersion": self.version,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fake", "version": "1"}
            })),
            "tools/list" => {
                let tools = self.tools.borrow();
                let start: usize = params["cursor"].as_str().map_or(0, |c| c.parse().unwrap());
                let end = (start + self.page_size).min(tools.len());
                let mut page = json!({"tools": tools[start..end].to_vec()});
                if end < tools.len() {
                    page.as_object_mut()
                        .unwrap()
                        .insert("nextCursor".into(), json!(end.to_string()));
                }
                Reply::Result(page)
            }
            "tools/call" => Reply::Result(json!({
                "content": [{"type": "text", "text": format!("called {} with {}", params["name"].as_str().unwrap_or(""), params["arguments"])}]
            })),
            _ => Reply::Error(-32601, "Method not found"),
        }
    }

    fn respond(&self, status: u16, content_type: &str, parts: Vec<Part>) -> HeadedResponse {
        let mut headers = Vec::new();
        if self.headers {
            headers.push(("content-type".to_owned(), content_type.to_owned()));
            if let Some(session) = self.session {
                headers.push(("mcp-session-id".to_owned(), session.to_owned()));
            }
        }
        let mut split = VecDeque::new();
        for part in parts {
            match part {
                Part::Bytes(bytes) => {
                    for chunk in bytes.chunks(self.chunk.max(1)) {
                        split.push_back(Part::Bytes(chunk.to_vec()));
                    }
                }
                other => split.push_back(other),
            }
        }
        HeadedResponse {
            status,
            headers,
            body: Box::new(Script {
                parts: split,
                replies: self.replies.clone(),
            }),
        }
    }

    fn answer(
        &self,
        id: Value,
        reply: Reply,
    ) -> Result<HeadedResponse, Option<(f64, Reply, Value)>> {
        let message = |body: Value| {
            let mut m = json!({"jsonrpc": "2.0", "id": id.clone()});
            m.as_object_mut()
                .unwrap()
                .extend(body.as_object().unwrap().clone());
            m
        };
        let (status, ctype, parts) = match reply {
            Reply::Hang => return Err(None),
            Reply::After(ms, inner) => return Err(Some((ms, *inner, id))),
            Reply::Raw(status, ctype, body) => (status, ctype, vec![bytes(body)]),
            Reply::StreamThenHang => (
                200,
                "text/event-stream",
                vec![bytes(": open\n\n"), Part::Hang],
            ),
            Reply::Result(result) => self.encoded(message(json!({"result": result}))),
            Reply::Timed(texts, hang) => {
                let clock = self
                    .clock
                    .borrow()
                    .clone()
                    .expect("Reply::Timed needs fake.clock");
                let mut parts = Vec::new();
                for (at, text) in texts {
                    // Made now, so each one is due `at` after the request.
                    parts.push(Part::Sleep(clock.sleep(at)));
                    parts.push(Part::Bytes(text.into_bytes()));
                }
                if hang {
                    parts.push(Part::Hang);
                }
                (200, "text/event-stream", parts)
            }
            Reply::Error(code, text) => {
                self.encoded(message(json!({"error": {"code": code, "message": text}})))
            }
            Reply::Elicit(params, then) => {
                let ask = json!({"jsonrpc": "2.0", "id": "srv-1", "method": "elicitation/create", "params": params});
                let done = Box::new(move |answer: &Value| {
                    let result =
                        json!({"jsonrpc": "2.0", "id": id.clone(), "result": then(answer)});
                    sse(&result)
                });
                (
                    200,
                    "text/event-stream",
                    vec![Part::Bytes(sse(&ask)), Part::Await("srv-1".into(), done)],
                )
            }
        };
        Ok(self.respond(status, ctype, parts))
    }

    /// The message as the server's mode sends it: JSON, or an event stream with a progress
    /// notification and a priming event first.
    fn encoded(&self, message: Value) -> (u16, &'static str, Vec<Part>) {
        match self.mode {
            Mode::Json => (
                200,
                "application/json",
                vec![Part::Bytes(message.to_string().into_bytes())],
            ),
            Mode::Events => {
                let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}});
                let mut body = b": keep-alive\r\n\r\nid: 7\ndata:\n\n".to_vec();
                body.extend(sse(&progress));
                body.extend(sse(&message));
                (200, "text/event-stream", vec![Part::Bytes(body)])
            }
        }
    }

    fn handle(&self, request: &HttpRequest) -> Handled {
        let body: Value = request.body.as_deref().map_or(Value::Null, |b| {
            serde_json::from_str(b).unwrap_or(Value::Null)
        });
        let at = self.clock.borrow().as_ref().map_or(0.0, |c| c.now_ms());
        self.seen.borrow_mut().push(Seen {
            at,
            method: request.method.to_string(),
            headers: request.headers.to_vec(),
            body: body.clone(),
        });
        if request.method == "DELETE" {
            return Handled::Now(self.respond(200, "text/plain", Vec::new()));
        }
        if request.method == "GET" {
            // The standalone or a resumed stream: scripted by `GET` (and `GET:<last event id>`).
            let last = request
                .headers
                .iter()
                .find(|(n, _)| n == "last-event-id")
                .map(|(_, v)| v.clone());
            let overrides = self.overrides.borrow();
            let reply = last
                .and_then(|id| overrides.get(&format!("GET:{id}")))
                .or_else(|| overrides.get("GET"))
                .cloned();
            drop(overrides);
            return match reply {
                Some(reply) => match self.answer(Value::Null, reply) {
                    Ok(response) => Handled::Now(response),
                    Err(None) => Handled::Hang,
                    Err(Some(later)) => Handled::Later(later),
                },
                None => Handled::Now(self.respond(405, "text/plain", vec![bytes("no")])),
            };
        }
        let method = body["method"].as_str().map(str::to_owned);
        let id = body.get("id").cloned();
        match (method, id) {
            (Some(method), Some(id)) => {
                if method == "tools/call" && self.expire_next_call.replace(false) {
                    return Handled::Now(self.respond(404, "application/json", vec![bytes("{}")]));
                }
                let reply = self.reply_for(&method, &body["params"]);
                match self.answer(id, reply) {
                    Ok(response) => Handled::Now(response),
                    Err(None) => Handled::Hang,
                    Err(Some(later)) => Handled::Later(later),
                }
            }
            (Some(method), None) => match self.overrides.borrow().get(&method) {
                Some(Reply::Raw(status, ctype, text)) => {
                    Handled::Now(self.respond(*status, ctype, vec![bytes(text)]))
                }
                Some(Reply::Hang) => Handled::Hang,
                _ => Handled::Now(self.respond(202, "text/plain", Vec::new())),
            },
            (None, Some(id)) => {
                self.replies
                    .got
                    .borrow_mut()
                    .insert(id.as_str().unwrap_or("").to_owned(), body.clone());
                for waker in self.replies.wakers.borrow_mut().drain(..) {
                    waker.wake();
                }
                Handled::Now(self.respond(202, "text/plain", Vec::new()))
            }
            (None, None) => {
                Handled::Now(self.respond(400, "text/plain", vec![bytes("bad request")]))
            }
        }
    }
}

pub fn sse(message: &Value) -> Vec<u8> {
    format!("event: message\ndata: {message}\n\n").into_bytes()
}

fn bytes(text: &str) -> Part {
    Part::Bytes(text.as_bytes().to_vec())
}

enum Handled {
    Now(HeadedResponse),
    Hang,
    Later((f64, Reply, Value)),
}

impl FakeMcp {
    /// What the `Http` of [`super::Router`] answers for this server.
    pub fn open(
        self: &Rc<Self>,
        request: HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HeadedResponse, HttpError>> {
        let signal = request.signal.clone();
        match self.handle(&request) {
            Handled::Now(response) => Box::pin(async move { Ok(response) }),
            Handled::Later((ms, reply, id)) => {
                let clock = self
                    .clock
                    .borrow()
                    .clone()
                    .expect("Reply::After needs fake.clock");
                let me = self.clone();
                Box::pin(async move {
                    clock.sleep(ms).await;
                    match me.answer(id, reply) {
                        Ok(response) => Ok(response),
                        Err(_) => std::future::pending().await,
                    }
                })
            }
            Handled::Hang => Box::pin(async move {
                match signal {
                    Some(signal) => {
                        signal.wait().await;
                        Err(HttpError::Aborted(signal.reason()))
                    }
                    None => std::future::pending().await,
                }
            }),
        }
    }
}
