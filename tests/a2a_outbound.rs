//! A2A outbound (SPEC §7A) on a virtual clock against a scripted agent: resolving cards (names,
//! endpoint, dialect, isolation of a failing agent), the SendMessage → GetTask poll loop in the
//! order the SPEC pins (abort → timeout → sleep → abort → GetTask), the result texts byte for
//! byte, JSON-RPC and HTTP errors, A2A 1.0 shapes, and header values never in any output.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common::{ManualSignal, SignalHandle};
use crate::mcp_common::{run, VirtualClock};

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use toolnexus::core::a2a::config::AgentSpec;
use toolnexus::core::a2a::{agent_tools, load_agents, A2aHost, CardError};
use toolnexus::core::host::{
    Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, Signal,
};
use toolnexus::core::mcp::Status;
use toolnexus::core::tool::{Context, SharedTool};
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

const CARD: &str = "http://127.0.0.1:4100/.well-known/agent-card.json";
const SECRET: &str = "sekrit-token-123";

/// What the agent does with one JSON-RPC request.
pub(crate) enum Answer {
    Result(Value),
    Raw(u16, String),
    Hang,
}

/// One request the agent got: when (virtual ms), the method (`GET` for the card), headers, body.
#[derive(Clone)]
pub(crate) struct Seen {
    pub at: f64,
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    pub text: String,
}

pub(crate) type Script = Box<dyn Fn(&str, &Value, usize) -> Answer>;

pub(crate) struct FakeAgent {
    clock: Rc<VirtualClock>,
    card: RefCell<Answer>,
    script: Script,
    seen: RefCell<Vec<Seen>>,
    polls: Cell<usize>,
}

impl FakeAgent {
    pub(crate) fn new(clock: &Rc<VirtualClock>, card: Value, script: Script) -> Rc<Self> {
        Self::with_card(clock, Answer::Result(card), script)
    }

    fn with_card(clock: &Rc<VirtualClock>, card: Answer, script: Script) -> Rc<Self> {
        Rc::new(FakeAgent {
            clock: clock.clone(),
            card: RefCell::new(card),
            script,
            seen: RefCell::default(),
            polls: Cell::new(0),
        })
    }

    pub(crate) fn calls(&self, method: &str) -> Vec<Seen> {
        self.seen
            .borrow()
            .iter()
            .filter(|s| s.method == method)
            .cloned()
            .collect()
    }
}

fn reply(answer: &Answer) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
    let done = |status: u16, body: String| {
        Box::pin(async move {
            Ok(HttpResponse {
                status,
                retry_after: None,
                body,
            })
        }) as LocalBoxFuture<'static, _>
    };
    match answer {
        Answer::Result(v) => done(200, v.to_string()),
        Answer::Raw(status, body) => done(*status, body.clone()),
        Answer::Hang => Box::pin(std::future::pending()),
    }
}

impl Http for FakeAgent {
    fn send(&self, r: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let text = r.body.clone().unwrap_or_default();
        let body: Value = serde_json::from_str::<serde_json::Value>(&text)
            .map(Value::from)
            .unwrap_or(Value::Null);
        let method = body
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or(&r.method)
            .to_owned();
        self.seen.borrow_mut().push(Seen {
            at: self.clock.now(),
            method: method.clone(),
            url: r.url.to_string(),
            headers: r.headers.to_vec(),
            body: body.clone(),
            text,
        });
        if r.method == "GET" {
            return reply(&self.card.borrow());
        }
        let n = if method == "GetTask" {
            self.polls.set(self.polls.get() + 1);
            self.polls.get()
        } else {
            0
        };
        let answer = (self.script)(&method, &body["params"], n);
        match answer {
            Answer::Result(result) => reply(&Answer::Result(
                json!({"jsonrpc": "2.0", "id": body["id"].clone(), "result": result}),
            )),
            other => reply(&other),
        }
    }
}

pub(crate) fn reviewer_card(extra: Value) -> Value {
    let mut card = json!({
        "name": "reviewer", "description": "a code reviewer", "version": "1.0.0",
        "protocolVersion": "0.3.0", "capabilities": {"streaming": false, "pushNotifications": false},
        "url": "http://127.0.0.1:4100/",
        "skills": [
            {"id": "review", "name": "Review", "description": "Review some code"},
            {"id": "plan", "name": "Plan", "description": "Plan a task"}
        ]
    });
    if let (Value::Object(card), Value::Object(extra)) = (&mut card, extra) {
        for (k, v) in extra {
            card.insert(k, v);
        }
    }
    card
}

fn task(id: &str, state: &str) -> Value {
    json!({"id": id, "status": {"state": state}})
}

pub(crate) fn host(http: Rc<dyn Http>, clock: &Rc<VirtualClock>) -> A2aHost {
    let counter = Rc::new(Cell::new(0));
    A2aHost {
        http: Some(http),
        clock: clock.clone(),
        env: Rc::new(|name: &str| (name == "TN_A2A_TOKEN").then(|| SECRET.to_owned())),
        new_id: Rc::new(move || {
            counter.set(counter.get() + 1);
            format!("id-{}", counter.get())
        }),
    }
}

pub(crate) fn spec(poll_every: f64, timeout: f64) -> AgentSpec {
    AgentSpec {
        headers: vec![("Authorization".into(), "Bearer ${TN_A2A_TOKEN}".into())],
        timeout_ms: timeout,
        poll_every_ms: poll_every,
        ..AgentSpec::new(CARD)
    }
}

pub(crate) fn tools_of(
    agent: &Rc<FakeAgent>,
    clock: &Rc<VirtualClock>,
    spec: AgentSpec,
) -> Vec<SharedTool> {
    let host = host(agent.clone(), clock);
    run(clock, async move { agent_tools(&spec, &host).await }).unwrap()
}

pub(crate) fn call(
    clock: &Rc<VirtualClock>,
    tool: &SharedTool,
    task: &str,
    ctx: Context,
) -> ToolResult {
    let future = tool.execute(json!({"task": task}), ctx);
    run(clock, future)
}

/// Calls `tool` with a signal that fires at virtual time `at`.
fn call_aborted_at(clock: &Rc<VirtualClock>, tool: &SharedTool, task: &str, at: f64) -> ToolResult {
    let fired = Rc::new(ManualSignal::default());
    let ctx = Context {
        signal: Some(Rc::new(SignalHandle(fired.clone())) as Signal),
        ..Context::default()
    };
    let call = tool.execute(json!({ "task": task }), ctx);
    let timer = clock.clone();
    run(clock, async move {
        let abort = async move {
            Clock::sleep(&*timer, at).await;
            fired.fire();
        };
        futures_util::future::join(call, abort).await.0
    })
}

pub(crate) fn meta(result: &ToolResult) -> Value {
    Value::Object(result.metadata.clone().unwrap())
}

/// Completes on the second poll; fails for "fail"; stays working for "slow".
fn reviewer_script() -> Script {
    Box::new(|method, params, n| {
        let text = params["message"]["parts"][0]["text"].as_str().unwrap_or("");
        match method {
            "SendMessage" => {
                let id = if text.contains("fail") {
                    "t-fail"
                } else if text.contains("slow") {
                    "t-slow"
                } else {
                    "t1"
                };
                Answer::Result(task(id, "submitted"))
            }
            "GetTask" => {
                let id = params["id"].as_str().unwrap();
                if id == "t-slow" || n < 2 {
                    Answer::Result(task(id, "working"))
                } else if id == "t-fail" {
                    Answer::Result(json!({"id": id, "status": {"state": "failed",
                        "message": {"role": "agent", "parts": [{"kind": "text", "text": "boom"}]}}}))
                } else {
                    Answer::Result(json!({"id": id, "status": {"state": "completed"},
                        "artifacts": [{"parts": [{"kind": "text", "text": "REVIEWED"}]}]}))
                }
            }
            _ => Answer::Raw(
                200,
                r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"unknown method"}}"#
                    .into(),
            ),
        }
    })
}

#[test]
fn skills_become_a2a_tools_named_after_the_card() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), reviewer_script());
    let tools = tools_of(&agent, &clock, spec(5.0, 1000.0));
    let names: Vec<&str> = tools.iter().map(|t| t.spec().name.as_str()).collect();
    assert_eq!(names, ["reviewer_review", "reviewer_plan"]);
    let review = tools[0].spec();
    assert_eq!(review.source, "a2a");
    assert_eq!(review.description, "Review some code");
    assert_eq!(
        review.input_schema.to_string(),
        r#"{"type":"object","properties":{"task":{"type":"string","description":"The task to send to the agent, in natural language."}},"required":["task"],"additionalProperties":false}"#
    );
    let card = &agent.calls("GET")[0];
    assert_eq!(card.url, CARD);
    let auth = card
        .headers
        .iter()
        .find(|(n, _)| n == "Authorization")
        .unwrap();
    assert_eq!(
        auth.1,
        format!("Bearer {SECRET}"),
        "the card request carries the expanded header"
    );
}

#[test]
fn a_call_sends_once_then_polls_every_poll_every_until_completed() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), reviewer_script());
    let tools = tools_of(&agent, &clock, spec(5.0, 1000.0));
    let result = call(&clock, &tools[0], "please review", Context::default());
    assert!(!result.is_error);
    assert_eq!(result.output, "REVIEWED");
    assert_eq!(
        meta(&result).to_string(),
        r#"{"agent":"reviewer","taskId":"t1","state":"completed","polls":2,"ms":10}"#
    );
    let sends = agent.calls("SendMessage");
    assert_eq!(sends.len(), 1);
    assert_eq!(
        sends[0].text,
        r#"{"jsonrpc":"2.0","id":"id-2","method":"SendMessage","params":{"message":{"role":"user","messageId":"id-1","parts":[{"kind":"text","text":"please review"}]},"configuration":{"blocking":false}}}"#
    );
    assert_eq!(sends[0].url, "http://127.0.0.1:4100/");
    let polls = agent.calls("GetTask");
    assert_eq!(polls.iter().map(|p| p.at).collect::<Vec<_>>(), [5.0, 10.0]);
    assert_eq!(polls[0].body["params"].to_string(), r#"{"id":"t1"}"#);
    let header = |s: &Seen, name: &str| {
        s.headers
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    assert_eq!(
        header(&sends[0], "authorization").unwrap(),
        format!("Bearer {SECRET}")
    );
    assert_eq!(
        header(&sends[0], "content-type").unwrap(),
        "application/json"
    );
    assert_eq!(
        header(&sends[0], "a2a-version"),
        None,
        "the reference dialect sends no A2A-Version"
    );
}

#[test]
fn a_failed_task_is_an_error_with_its_status_message() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), reviewer_script());
    let tools = tools_of(&agent, &clock, spec(5.0, 1000.0));
    let result = call(&clock, &tools[0], "please fail", Context::default());
    assert!(result.is_error);
    assert_eq!(result.output, "A2A task t-fail failed: boom");
    assert_eq!(meta(&result)["state"], json!("failed"));
}

#[test]
fn a_task_that_never_ends_times_out_after_the_budget_in_spec_order() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), reviewer_script());
    let tools = tools_of(&agent, &clock, spec(30.0, 100.0));
    let result = call(&clock, &tools[0], "slow one", Context::default());
    assert!(result.is_error);
    assert_eq!(
        result.output,
        "A2A task t-slow timed out after 100ms (state=working)"
    );
    // Checked before each sleep: polls at 30, 60, 90; at 90 the budget is not yet spent, so one
    // more sleep and GetTask (at 120), then the check at 120 stops.
    let polls: Vec<f64> = agent.calls("GetTask").iter().map(|p| p.at).collect();
    assert_eq!(polls, [30.0, 60.0, 90.0, 120.0]);
    assert_eq!(
        meta(&result).to_string(),
        r#"{"agent":"reviewer","taskId":"t-slow","state":"working","polls":4,"ms":120}"#
    );
}

#[test]
fn a_call_timeout_in_the_context_wins_over_the_agents() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), reviewer_script());
    let tools = tools_of(&agent, &clock, spec(30.0, 100_000.0));
    let ctx = Context {
        timeout_ms: Some(50.0),
        ..Context::default()
    };
    let result = call(&clock, &tools[0], "slow one", ctx);
    assert_eq!(
        result.output,
        "A2A task t-slow timed out after 50ms (state=working)"
    );
}

#[test]
fn a_get_task_that_hangs_is_cut_at_the_budget() {
    let clock = VirtualClock::new();
    let script: Script = Box::new(|method, _, _| match method {
        "SendMessage" => Answer::Result(task("t9", "working")),
        _ => Answer::Hang,
    });
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), script);
    let tools = tools_of(&agent, &clock, spec(10.0, 200.0));
    let result = call(&clock, &tools[0], "x", Context::default());
    assert_eq!(
        result.output,
        "A2A task t9 timed out after 200ms (state=working)"
    );
    assert_eq!(clock.now(), 200.0, "ended exactly at the budget");
}

#[test]
fn an_abort_while_sleeping_stops_before_the_next_get_task() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), reviewer_script());
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let result = call_aborted_at(&clock, &tools[0], "slow one", 25.0);
    assert!(result.is_error);
    assert_eq!(result.output, "A2A task t-slow canceled");
    assert_eq!(
        meta(&result).to_string(),
        r#"{"agent":"reviewer","taskId":"t-slow","state":"canceled","polls":2,"ms":25}"#
    );
    assert_eq!(
        agent.calls("GetTask").len(),
        2,
        "no GetTask after the abort"
    );
}

#[test]
fn an_abort_during_a_request_in_flight_is_canceled_too() {
    let clock = VirtualClock::new();
    let script: Script = Box::new(|method, _, _| match method {
        "SendMessage" => Answer::Result(task("t2", "submitted")),
        _ => Answer::Hang,
    });
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), script);
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let result = call_aborted_at(&clock, &tools[0], "x", 15.0);
    assert_eq!(result.output, "A2A task t2 canceled");
    assert_eq!(clock.now(), 15.0);
}

#[test]
fn an_already_aborted_signal_sends_nothing() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), reviewer_script());
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let fired = Rc::new(ManualSignal::default());
    fired.fire();
    let ctx = Context {
        signal: Some(Rc::new(SignalHandle(fired)) as Signal),
        ..Context::default()
    };
    let result = call(&clock, &tools[0], "x", ctx);
    assert_eq!(result.output, "A2A task  canceled");
    assert!(agent.calls("SendMessage").is_empty());
}

#[test]
fn json_rpc_and_http_errors_are_error_results_the_model_can_read() {
    let clock = VirtualClock::new();
    let script: Script = Box::new(|method, params, _| {
        match (method, params["message"]["parts"][0]["text"].as_str()) {
            ("SendMessage", Some("http")) => Answer::Raw(500, "agent exploded".into()),
            ("SendMessage", Some("garbage")) => Answer::Raw(200, "<html>hello</html>".into()),
            ("SendMessage", Some("not a task")) => Answer::Result(json!(42)),
            ("SendMessage", _) => Answer::Result(task("t3", "working")),
            _ => Answer::Raw(
                200,
                r#"{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"Task not found"}}"#
                    .into(),
            ),
        }
    });
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), script);
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let r = call(&clock, &tools[0], "http", Context::default());
    assert_eq!(
        (r.is_error, r.output.as_str()),
        (true, "HTTP 500: agent exploded")
    );
    let r = call(&clock, &tools[0], "garbage", Context::default());
    assert_eq!(
        r.output,
        "A2A SendMessage: the response is not JSON-RPC: <html>hello</html>"
    );
    let r = call(&clock, &tools[0], "not a task", Context::default());
    assert_eq!(r.output, "A2A SendMessage: the result is not a Task: 42");
    let r = call(&clock, &tools[0], "poll", Context::default());
    assert_eq!((r.is_error, r.output.as_str()), (true, "Task not found"));
    assert_eq!(meta(&r)["taskId"], json!("t3"));
    assert_eq!(meta(&r)["state"], json!("working"));
}

#[test]
fn header_values_never_appear_in_results_or_load_errors() {
    let clock = VirtualClock::new();
    let script: Script = Box::new(|method, _, _| match method {
        "SendMessage" => Answer::Raw(401, format!("bad token Bearer {SECRET}")),
        _ => Answer::Hang,
    });
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), script);
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let r = call(&clock, &tools[0], "x", Context::default());
    assert_eq!(r.output, "HTTP 401: bad token [redacted]");

    let refusing = FakeAgent::with_card(
        &clock,
        Answer::Raw(403, format!("no: {SECRET}")),
        reviewer_script(),
    );
    let host = host(refusing, &clock);
    let source = run(&clock, async move {
        load_agents(&[spec(10.0, 100.0)], &host).await
    });
    let error = source.agents[0].error.clone().unwrap();
    assert_eq!(error, "HTTP 403: no: [redacted]");
    assert!(!source.warnings[0].contains(SECRET));
}

#[test]
fn a_failing_agent_is_isolated_and_reported() {
    let clock = VirtualClock::new();
    let good = FakeAgent::new(&clock, reviewer_card(json!({})), reviewer_script());
    let missing = FakeAgent::with_card(&clock, Answer::Raw(404, "nope".into()), reviewer_script());
    let hanging = FakeAgent::with_card(&clock, Answer::Hang, reviewer_script());
    let garbage = FakeAgent::with_card(
        &clock,
        Answer::Raw(200, "not json".into()),
        reviewer_script(),
    );
    struct Router(Vec<(&'static str, Rc<FakeAgent>)>);
    impl Http for Router {
        fn send(
            &self,
            r: &HttpRequest,
        ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
            let (_, agent) = self.0.iter().find(|(p, _)| r.url.starts_with(p)).unwrap();
            agent.send(r)
        }
    }
    let router = Rc::new(Router(vec![
        ("http://good", good),
        ("http://missing", missing),
        ("http://hanging", hanging),
        ("http://garbage", garbage),
    ]));
    let specs: Vec<AgentSpec> = ["missing", "good", "hanging", "garbage"]
        .iter()
        .map(|h| AgentSpec {
            timeout_ms: 300.0,
            ..AgentSpec::new(format!("http://{h}/.well-known/agent-card.json"))
        })
        .collect();
    let host = host(router, &clock);
    let source = run(&clock, async move { load_agents(&specs, &host).await });
    let names: Vec<&str> = source
        .tools
        .iter()
        .map(|t| t.spec().name.as_str())
        .collect();
    assert_eq!(names, ["reviewer_review", "reviewer_plan"]);
    let states: Vec<(Status, Option<String>)> = source
        .agents
        .iter()
        .map(|a| (a.status, a.error.clone()))
        .collect();
    assert_eq!(states[0], (Status::Failed, Some("HTTP 404: nope".into())));
    assert_eq!(states[1], (Status::Connected, None));
    assert_eq!(states[2], (Status::Failed, Some("the Agent Card http://hanging/.well-known/agent-card.json did not arrive within 300ms".into())));
    assert!(
        states[3]
            .1
            .clone()
            .unwrap()
            .starts_with("the Agent Card is not JSON"),
        "{:?}",
        states[3]
    );
    assert_eq!(
        clock.now(),
        300.0,
        "a hanging card costs its own timeout, no more"
    );
    assert_eq!(source.warnings.len(), 3);
    assert_eq!(
        source.warnings[0],
        "A2A agent \"http://missing/.well-known/agent-card.json\" failed: HTTP 404: nope"
    );
}

#[test]
fn an_unreachable_agent_names_the_headers_a_browser_must_allow() {
    let clock = VirtualClock::new();
    struct Down;
    impl Http for Down {
        fn send(
            &self,
            _: &HttpRequest,
        ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
            Box::pin(async { Err(HttpError::Network("Failed to fetch".into())) })
        }
    }
    let error = run(&clock, {
        let host = host(Rc::new(Down), &clock);
        async move { agent_tools(&spec(10.0, 100.0), &host).await.err().unwrap() }
    });
    let CardError::Network(text) = error else {
        panic!("{error:?}")
    };
    assert_eq!(
        text,
        format!("A2A Agent Card: could not reach {CARD}: Failed to fetch. From a browser page a refused CORS preflight fails the same way: the agent must allow this origin, GET and the request headers accept, authorization")
    );
}

#[test]
fn an_a2a_1_0_card_is_spoken_to_in_a2a_1_0() {
    let clock = VirtualClock::new();
    let card = json!({
        "name": "Desk Agent", "description": "d", "version": "1",
        "supportedInterfaces": [{"url": "http://127.0.0.1:4100/a2a/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "skills": [{"id": "summarize", "name": "Summarize", "description": "Summarize text", "tags": []}]
    });
    let script: Script = Box::new(|method, params, n| match method {
        "SendMessage" => Answer::Result(
            json!({"task": {"id": "v1", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}}),
        ),
        _ if n < 3 => Answer::Result(
            json!({"id": params["id"].clone(), "status": {"state": "TASK_STATE_WORKING"}}),
        ),
        _ => Answer::Result(
            json!({"id": "v1", "status": {"state": "TASK_STATE_COMPLETED"},
            "artifacts": [{"artifactId": "a", "parts": [{"text": "short"}, {"data": {"x": 1}}, {"text": "summary"}]}]}),
        ),
    });
    let agent = FakeAgent::new(&clock, card, script);
    let tools = tools_of(&agent, &clock, spec(100.0, 10_000.0));
    assert_eq!(tools[0].spec().name, "Desk_Agent_summarize");
    let result = call(&clock, &tools[0], "some text", Context::default());
    assert_eq!(
        (result.is_error, result.output.as_str()),
        (false, "short\nsummary")
    );
    assert_eq!(meta(&result)["state"], json!("completed"));
    assert_eq!(meta(&result)["polls"], json!(3));
    let send = &agent.calls("SendMessage")[0];
    assert_eq!(send.url, "http://127.0.0.1:4100/a2a/jsonrpc");
    assert_eq!(
        send.body["params"].to_string(),
        r#"{"message":{"role":"ROLE_USER","messageId":"id-1","parts":[{"text":"some text"}]},"configuration":{"returnImmediately":true}}"#
    );
    assert!(send
        .headers
        .iter()
        .any(|(n, v)| n == "a2a-version" && v == "1.0"));
}

#[test]
fn input_required_stops_polling_and_says_what_the_agent_asks() {
    let clock = VirtualClock::new();
    let script: Script = Box::new(|method, _, _| match method {
        "SendMessage" => {
            Answer::Result(json!({"task": {"id": "q1", "status": {"state": "TASK_STATE_WORKING"}}}))
        }
        _ => Answer::Result(
            json!({"id": "q1", "status": {"state": "TASK_STATE_INPUT_REQUIRED",
            "message": {"role": "ROLE_AGENT", "messageId": "m", "parts": [{"text": "Which file?"}]}}}),
        ),
    });
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), script);
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let result = call(&clock, &tools[0], "x", Context::default());
    assert_eq!(
        (result.is_error, result.output.as_str()),
        (true, "A2A task q1 input-required: Which file?")
    );
    assert_eq!(agent.calls("GetTask").len(), 1);
    // A suspension (SPEC §10), not a failure: `crate::a2a_input` has the rest.
    let asked = toolnexus::core::types::pending_of(&result).unwrap();
    assert_eq!(
        (asked.kind.as_str(), asked.prompt.as_str()),
        ("input", "Which file?")
    );
}

#[test]
fn a_direct_message_reply_and_the_history_fallback_are_outputs() {
    let clock = VirtualClock::new();
    let script: Script = Box::new(|method, params, _| {
        match (method, params["message"]["parts"][0]["text"].as_str()) {
            ("SendMessage", Some("direct")) => Answer::Result(
                json!({"message": {"role": "ROLE_AGENT", "messageId": "m", "parts": [{"text": "hi there"}]}}),
            ),
            ("SendMessage", _) => {
                Answer::Result(json!({"id": "h1", "status": {"state": "completed"},
            "history": [{"role": "agent", "parts": [{"kind": "text", "text": "first"}]},
                        {"role": "agent", "parts": [{"kind": "text", "text": "last"}]},
                        {"role": "user", "parts": [{"kind": "text", "text": "q"}]}]}))
            }
            _ => Answer::Hang,
        }
    });
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), script);
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let direct = call(&clock, &tools[0], "direct", Context::default());
    assert_eq!(
        (direct.is_error, direct.output.as_str()),
        (false, "hi there")
    );
    assert_eq!(meta(&direct)["polls"], json!(0));
    let history = call(&clock, &tools[0], "history", Context::default());
    assert_eq!(history.output, "last");
    assert!(
        agent.calls("GetTask").is_empty(),
        "a task completed at once is not polled"
    );
}

#[test]
fn a_card_without_url_posts_to_the_card_origin() {
    let clock = VirtualClock::new();
    let mut card = reviewer_card(json!({}));
    if let Value::Object(map) = &mut card {
        map.remove("url");
    }
    let agent = FakeAgent::new(&clock, card, reviewer_script());
    let tools = tools_of(&agent, &clock, spec(5.0, 1000.0));
    call(&clock, &tools[0], "review", Context::default());
    assert_eq!(agent.calls("SendMessage")[0].url, "http://127.0.0.1:4100");
}
