//! A served tool's suspension asked of the MCP client (SPEC §10 over §7C): through an `Asker`
//! (the transport's way to send `elicitation/create`) the tool's Request becomes form or URL
//! mode, the client's result the Answer the tool runs again with (checked: id, `expiresAt`);
//! a decline, a second suspension, a client that cannot take the mode and a client that goes
//! away each end as an error result that says so.
#![allow(clippy::indexing_slicing, clippy::unwrap_used)]

use crate::common;

use common::agent::{FixedClock, FnTool};
use common::{ManualSignal, SignalHandle};
use futures_executor::block_on;
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::host::{Clock, LocalBoxFuture, Signal};
use toolnexus::core::serve::elicit::{Asker, Modes};
use toolnexus::core::serve::mcp::{McpServeConfig, McpServer};
use toolnexus::core::time::iso_ms;
use toolnexus::core::tool::SharedTool;
use toolnexus::core::types::{pending, Request, ToolResult};
use toolnexus::{core::json::value::Value, json};

/// Answers every question with `result` (or never, for `None`) and records the params.
struct FakeClient {
    modes: Modes,
    result: Option<Result<Value, String>>,
    asked: RefCell<Vec<Value>>,
    /// Fired when asked (the client going away while the question is open).
    gone: RefCell<Option<Rc<ManualSignal>>>,
}

impl FakeClient {
    fn new(form: bool, url: bool, result: Option<Result<Value, String>>) -> Rc<Self> {
        Rc::new(FakeClient {
            modes: Modes { form, url },
            result,
            asked: RefCell::default(),
            gone: RefCell::default(),
        })
    }
}

impl Asker for FakeClient {
    fn modes(&self) -> Modes {
        self.modes
    }
    fn ask(&self, params: String) -> LocalBoxFuture<'static, Result<Value, String>> {
        self.asked.borrow_mut().push(
            serde_json::from_str::<serde_json::Value>(&params)
                .unwrap()
                .into(),
        );
        if let Some(gone) = self.gone.borrow().as_ref() {
            gone.fire();
        }
        match self.result.clone() {
            Some(result) => Box::pin(async move { result }),
            None => Box::pin(std::future::pending()),
        }
    }
}

fn asking(request: Request) -> Rc<FnTool> {
    FnTool::new("pay", json!({"type": "object"}), move |_, ctx| {
        let out = match (&ctx.answer, &ctx.request) {
            (Some(answer), Some(asked)) => ToolResult::ok(format!(
                "paid ({} answered with {})",
                asked.id,
                answer
                    .data
                    .clone()
                    .map_or("nothing".to_owned(), |d| Value::Object(d).to_string())
            )),
            _ => pending(request.clone()),
        };
        Box::pin(async move { out })
    })
}

fn approval(url: Option<&str>, expires_at: Option<&str>) -> Request {
    Request {
        id: "r1".into(),
        kind: "approval".into(),
        prompt: "Send 25?".into(),
        url: url.map(str::to_owned),
        data: Some(
            json!({"schema": {"type": "object", "properties": {"note": {"type": "string"}}}})
                .as_object()
                .unwrap()
                .clone(),
        ),
        expires_at: expires_at.map(str::to_owned),
    }
}

fn call(
    tool: SharedTool,
    client: &Rc<FakeClient>,
    clock: Option<Rc<dyn Clock>>,
    signal: Option<Signal>,
) -> (Value, bool) {
    let server = McpServer::new(vec![tool], &McpServeConfig::default(), clock);
    let message = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "pay", "arguments": {}}});
    let asker: Rc<dyn Asker> = client.clone();
    let handled = block_on(server.handle(message, signal, Some(asker)));
    let reply: Value = serde_json::from_str::<serde_json::Value>(&handled.reply.unwrap())
        .unwrap()
        .into();
    (reply["result"].clone(), handled.call.unwrap().is_error)
}

fn text(result: &Value) -> String {
    result["content"][0]["text"].as_str().unwrap().to_owned()
}

#[test]
fn an_accepted_form_runs_the_tool_again_with_the_answer_and_its_request() {
    let tool = asking(approval(None, None));
    let client = FakeClient::new(
        true,
        false,
        Some(Ok(json!({"action": "accept", "content": {"note": "rent"}}))),
    );
    let (result, is_error) = call(tool.clone(), &client, None, None);
    assert_eq!(text(&result), r#"paid (r1 answered with {"note":"rent"})"#);
    assert_eq!((result["isError"].clone(), is_error), (json!(false), false));
    assert_eq!(
        client.asked.borrow()[0],
        json!({"mode": "form", "message": "Send 25?",
            "requestedSchema": {"type": "object", "properties": {"note": {"type": "string"}}}})
    );
    assert_eq!(tool.count(), 2, "asked once, run again once");
}

#[test]
fn a_request_with_a_url_goes_in_url_mode_when_the_client_takes_it_else_in_the_form_text() {
    let accept = Some(Ok(json!({"action": "accept"})));
    let url_client = FakeClient::new(true, true, accept.clone());
    let (result, _) = call(
        asking(approval(Some("https://x.test/ok"), None)),
        &url_client,
        None,
        None,
    );
    assert_eq!(text(&result), "paid (r1 answered with nothing)");
    assert_eq!(
        url_client.asked.borrow()[0],
        json!({"mode": "url", "message": "Send 25?", "url": "https://x.test/ok", "elicitationId": "r1"})
    );
    let form_client = FakeClient::new(true, false, accept);
    call(
        asking(approval(Some("https://x.test/ok"), None)),
        &form_client,
        None,
        None,
    );
    assert_eq!(
        form_client.asked.borrow()[0]["message"],
        json!("Send 25?\nhttps://x.test/ok")
    );
}

#[test]
fn a_decline_a_cancel_and_an_error_response_are_declined_results() {
    for result in [
        Ok(json!({"action": "decline"})),
        Ok(json!({"action": "cancel"})),
        Ok(json!("garbage")),
        Err("the client answered an error: -32601 Method not found".to_owned()),
    ] {
        let tool = asking(approval(None, None));
        let client = FakeClient::new(true, false, Some(result));
        let (out, is_error) = call(tool.clone(), &client, None, None);
        assert_eq!(text(&out), "declined/expired: Send 25?");
        assert!(is_error);
        assert_eq!(
            tool.count(),
            1,
            "a refused answer never runs the tool again"
        );
    }
}

#[test]
fn an_answer_after_expires_at_is_declined() {
    let tool = asking(approval(None, Some("2030-01-01T00:00:00Z")));
    let late: Rc<dyn Clock> = Rc::new(FixedClock(iso_ms("2030-01-01T00:00:00Z").unwrap() + 1.0));
    let client = FakeClient::new(true, false, Some(Ok(json!({"action": "accept"}))));
    let (out, _) = call(tool.clone(), &client, Some(late), None);
    assert_eq!(text(&out), "declined/expired: Send 25?");
    let early: Rc<dyn Clock> = Rc::new(FixedClock(0.0));
    let (out, _) = call(tool, &client, Some(early), None);
    assert_eq!(text(&out), "paid (r1 answered with nothing)");
}

#[test]
fn a_second_suspension_is_unresolved_never_a_second_question() {
    let stubborn: SharedTool = FnTool::new("pay", json!({"type": "object"}), |_, _| {
        let out = pending(approval(None, None));
        Box::pin(async move { out })
    });
    let client = FakeClient::new(true, false, Some(Ok(json!({"action": "accept"}))));
    let (out, is_error) = call(stubborn, &client, None, None);
    assert_eq!(text(&out), "unresolved: Send 25?");
    assert!(is_error);
    assert_eq!(client.asked.borrow().len(), 1);
}

#[test]
fn a_client_that_cannot_take_the_mode_gets_the_suspension_named() {
    let client = FakeClient::new(false, true, Some(Ok(json!({"action": "accept"}))));
    let (out, is_error) = call(asking(approval(None, None)), &client, None, None);
    assert!(text(&out).starts_with("The tool suspended (approval): Send 25?\n"));
    assert!(text(&out).contains("(form mode)"));
    assert!(is_error);
    assert!(client.asked.borrow().is_empty());
}

#[test]
fn the_client_going_away_while_asked_cancels_the_call() {
    let fired = Rc::new(ManualSignal::default());
    let signal: Signal = Rc::new(SignalHandle(fired.clone()));
    let client = FakeClient::new(true, false, None);
    *client.gone.borrow_mut() = Some(fired);
    let (out, is_error) = call(asking(approval(None, None)), &client, None, Some(signal));
    assert_eq!(text(&out), "cancelled: the client went away");
    assert!(is_error);
}
