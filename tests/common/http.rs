//! A scripted model endpoint: an [`Http`] that answers from a queue (or a closure) and records
//! every request it was sent, plus builders for hand-written OpenAI and Anthropic responses.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use toolnexus::{core::json::value::Value, json};

use toolnexus::core::client::config::Style;
use toolnexus::core::host::{Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, Signal};

/// One request the fake was sent.
#[derive(Clone)]
pub struct Sent {
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// The body exactly as sent.
    pub text: String,
    /// The body parsed (`Value::Null` when it was not JSON).
    pub body: Value,
    pub signal: Option<Signal>,
}

impl Sent {
    /// Every value of header `name` (case-insensitive), in order.
    pub fn header_values(&self, name: &str) -> Vec<String> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// The single value of header `name`, if sent.
    pub fn header(&self, name: &str) -> Option<String> {
        let values = self.header_values(name);
        assert!(
            values.len() <= 1,
            "header {name} sent {} times",
            values.len()
        );
        values.into_iter().next()
    }
}

/// What the fake does with one request.
pub enum Step {
    /// Answers at once.
    Now(Result<HttpResponse, HttpError>),
    /// Never answers until the request's signal fires, then fails as `fetch` does.
    HangUntilAborted,
}

type Responder = Box<dyn Fn(&Sent, usize) -> Result<HttpResponse, HttpError>>;

/// A scripted transport.
#[derive(Default)]
pub struct ScriptedHttp {
    script: RefCell<VecDeque<Step>>,
    responder: Option<Responder>,
    pub sent: RefCell<Vec<Sent>>,
    /// Takes host text (a `String`), put in at the body's mark.
    pub splices: bool,
}

impl ScriptedHttp {
    /// Answers the requests in order from `steps`; an extra request gets a network error.
    pub fn new(steps: Vec<Step>) -> Rc<Self> {
        Rc::new(ScriptedHttp {
            script: RefCell::new(steps.into()),
            ..ScriptedHttp::default()
        })
    }

    /// Answers every request from `replies`, in order.
    pub fn replies(replies: Vec<Result<HttpResponse, HttpError>>) -> Rc<Self> {
        Self::new(replies.into_iter().map(Step::Now).collect())
    }

    /// Answers each request with `f(request, index)`.
    /// [`ScriptedHttp::replies`] from a transport that takes host text (a `String`).
    pub fn splicing(replies: Vec<Result<HttpResponse, HttpError>>) -> Rc<Self> {
        Rc::new(ScriptedHttp {
            script: RefCell::new(replies.into_iter().map(Step::Now).collect()),
            splices: true,
            ..ScriptedHttp::default()
        })
    }

    pub fn with(f: impl Fn(&Sent, usize) -> Result<HttpResponse, HttpError> + 'static) -> Rc<Self> {
        Rc::new(ScriptedHttp {
            responder: Some(Box::new(f)),
            ..ScriptedHttp::default()
        })
    }

    /// How many requests were sent.
    pub fn count(&self) -> usize {
        self.sent.borrow().len()
    }

    /// The `n`th request sent.
    pub fn request(&self, n: usize) -> Sent {
        self.sent.borrow().get(n).cloned().unwrap()
    }

    /// The parsed body of the `n`th request.
    pub fn body(&self, n: usize) -> Value {
        self.request(n).body
    }
}

impl Http for ScriptedHttp {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let sent = Sent {
            url: request.url.to_string(),
            headers: request.headers.to_vec(),
            body: serde_json::from_str(request.spliced_body().as_deref().unwrap_or(""))
                .unwrap_or(Value::Null),
            text: request.spliced_body().unwrap_or_default(),
            signal: request.signal.clone(),
        };
        let index = self.count();
        self.sent.borrow_mut().push(sent.clone());
        let step = match &self.responder {
            Some(f) => Step::Now(f(&sent, index)),
            None => self.script.borrow_mut().pop_front().unwrap_or_else(|| {
                Step::Now(Err(HttpError::Network(format!(
                    "ScriptedHttp: no scripted response for request #{index}"
                ))))
            }),
        };
        match step {
            Step::Now(reply) => Box::pin(async move { reply }),
            Step::HangUntilAborted => {
                let signal = request.signal.clone();
                Box::pin(async move {
                    match signal {
                        Some(signal) => {
                            signal.wait().await;
                            Err(HttpError::Aborted(signal.reason()))
                        }
                        None => std::future::pending().await,
                    }
                })
            }
        }
    }

    fn splices_host_text(&self) -> bool {
        self.splices
    }
}

fn set_usage(body: &mut Value, usage: Value) {
    if let Some(map) = body.as_object_mut() {
        map.insert("usage".into(), usage);
    }
}

/// A response with this status and body text.
pub fn respond(status: u16, body: &str) -> Result<HttpResponse, HttpError> {
    Ok(HttpResponse {
        status,
        retry_after: None,
        body: body.to_owned(),
    })
}

/// A 200 response with this JSON body.
pub fn ok_json(body: Value) -> Result<HttpResponse, HttpError> {
    respond(200, &body.to_string())
}

/// One tool call of a scripted reply: id, tool name, arguments.
pub type Call<'a> = (&'a str, &'a str, Value);

/// An OpenAI chat completion with a final text and this usage.
pub fn openai_text(text: &str, usage: Option<(u64, u64)>) -> Value {
    let mut body = json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": text},
            "finish_reason": "stop"
        }]
    });
    if let Some((p, c)) = usage {
        set_usage(
            &mut body,
            json!({"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}),
        );
    }
    body
}

/// An OpenAI chat completion calling these tools (arguments sent as JSON text).
pub fn openai_calls(calls: &[Call<'_>], usage: Option<(u64, u64)>) -> Value {
    let wire: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}})
        })
        .collect();
    openai_raw_calls(wire, usage)
}

/// An OpenAI chat completion carrying these `tool_calls` entries verbatim.
pub fn openai_raw_calls(tool_calls: Vec<Value>, usage: Option<(u64, u64)>) -> Value {
    let mut body = json!({
        "id": "chatcmpl-2",
        "object": "chat.completion",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": null, "tool_calls": tool_calls},
            "finish_reason": "tool_calls"
        }]
    });
    if let Some((p, c)) = usage {
        set_usage(
            &mut body,
            json!({"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}),
        );
    }
    body
}

/// An Anthropic message with a final text and this usage.
pub fn anthropic_text(text: &str, usage: Option<(u64, u64)>) -> Value {
    anthropic_content(
        vec![json!({"type": "text", "text": text})],
        "end_turn",
        usage,
    )
}

/// An Anthropic message calling these tools.
pub fn anthropic_calls(calls: &[Call<'_>], usage: Option<(u64, u64)>) -> Value {
    let blocks = calls
        .iter()
        .map(
            |(id, name, input)| json!({"type": "tool_use", "id": id, "name": name, "input": input}),
        )
        .collect();
    anthropic_content(blocks, "tool_use", usage)
}

/// An Anthropic message with these content blocks.
pub fn anthropic_content(blocks: Vec<Value>, stop: &str, usage: Option<(u64, u64)>) -> Value {
    let mut body = json!({
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": blocks,
        "stop_reason": stop
    });
    if let Some((i, o)) = usage {
        set_usage(&mut body, json!({"input_tokens": i, "output_tokens": o}));
    }
    body
}

/// A final-text reply in `style`.
pub fn text_reply(style: Style, text: &str) -> Result<HttpResponse, HttpError> {
    ok_json(match style {
        Style::OpenAi => openai_text(text, None),
        Style::Anthropic => anthropic_text(text, None),
    })
}

/// A tool-calling reply in `style`.
pub fn calls_reply(style: Style, calls: &[Call<'_>]) -> Result<HttpResponse, HttpError> {
    ok_json(match style {
        Style::OpenAi => openai_calls(calls, None),
        Style::Anthropic => anthropic_calls(calls, None),
    })
}
