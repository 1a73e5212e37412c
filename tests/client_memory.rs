//! Conversation memory (SPEC §8): `ask` loads the transcript saved under an id, runs, and
//! saves the new one; a failing save keeps the result, a failing load is an error.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use futures_executor::block_on;
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::result::{RunResult, Status};
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::host::LocalBoxFuture;
use toolnexus::core::message::{values, Message};
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn ask(rig: &Rig, store: &Rc<dyn Store>, id: &str, prompt: &str) -> Result<RunResult, RunError> {
    block_on(
        rig.client()
            .ask(store.clone(), id.to_owned(), rig.input(prompt)),
    )
}

#[test]
fn a_second_ask_continues_the_first_transcript() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            text_reply(style, "Hello Ada."),
            text_reply(style, "Your name is Ada."),
        ]);
        let mut rig = Rig::new(style, http);
        rig.config.system_prompt = "Be kind.".into();
        let store: Rc<dyn Store> = Rc::new(InMemoryStore::default());
        let first = ask(&rig, &store, "thread-1", "I am Ada").unwrap();
        let second = ask(&rig, &store, "thread-1", "Who am I?").unwrap();
        assert_eq!(second.text, "Your name is Ada.");

        let sent = rig.http.body(1)["messages"].clone();
        let mut expected = first.messages.clone();
        expected.push(json!({"role": "user", "content": "Who am I?"}).into());
        assert_eq!(sent, Value::Array(values(&expected)), "{style:?}");
        assert_eq!(second.messages.len(), expected.len() + 1);
        assert_eq!(second.messages[..expected.len()], expected[..]);
        if style == Style::OpenAi {
            let systems = second
                .messages
                .iter()
                .filter(|m| m["role"] == json!("system"))
                .count();
            assert_eq!(systems, 1, "the system message is not repeated");
        }
        // The store holds the latest transcript.
        let saved = block_on(store.get("thread-1")).unwrap().unwrap();
        assert_eq!(saved, second.messages);
    }
}

#[test]
fn a_different_id_starts_a_new_conversation() {
    let http = ScriptedHttp::replies(vec![
        text_reply(Style::OpenAi, "one"),
        text_reply(Style::OpenAi, "two"),
    ]);
    let rig = Rig::new(Style::OpenAi, http);
    let store: Rc<dyn Store> = Rc::new(InMemoryStore::default());
    ask(&rig, &store, "a", "first").unwrap();
    ask(&rig, &store, "b", "second").unwrap();
    assert_eq!(
        rig.http.body(1)["messages"],
        json!([{"role": "user", "content": "second"}])
    );
}

#[test]
fn a_pending_run_is_saved_with_its_placeholder() {
    let http = ScriptedHttp::replies(vec![calls_reply(
        Style::OpenAi,
        &[("c1", "login", json!({}))],
    )]);
    let rig = Rig::new(Style::OpenAi, http).tool(asking(
        "login",
        request("r1", "authorization", "Log in"),
        false,
    ));
    let store: Rc<dyn Store> = Rc::new(InMemoryStore::default());
    let result = ask(&rig, &store, "t", "go").unwrap();
    assert_eq!(result.status, Status::Pending);
    let saved = block_on(store.get("t")).unwrap().unwrap();
    assert_eq!(saved, result.messages);
    assert_eq!(saved.last().unwrap()["content"], json!("Log in"));
}

/// A store whose `get` and `save` can be made to fail; records saves.
#[derive(Default)]
struct FlakyStore {
    get_error: Option<String>,
    save_error: Option<String>,
    saves: RefCell<Vec<(String, Vec<Message>)>>,
}

impl Store for FlakyStore {
    fn get(&self, _id: &str) -> LocalBoxFuture<'static, Result<Option<Vec<Message>>, String>> {
        let out = match &self.get_error {
            Some(e) => Err(e.clone()),
            None => Ok(None),
        };
        Box::pin(async move { out })
    }
    fn save(&self, id: &str, messages: &[Message]) -> LocalBoxFuture<'static, Result<(), String>> {
        self.saves
            .borrow_mut()
            .push((id.to_owned(), messages.to_vec()));
        let out = match &self.save_error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        };
        Box::pin(async move { out })
    }
}

#[test]
fn a_failing_save_keeps_the_result_with_save_error() {
    for style in BOTH {
        let rig = Rig::new(
            style,
            ScriptedHttp::replies(vec![text_reply(style, "answer")]),
        );
        let flaky = Rc::new(FlakyStore {
            save_error: Some("disk full".into()),
            ..FlakyStore::default()
        });
        let store: Rc<dyn Store> = flaky.clone();
        let result = ask(&rig, &store, "t", "go").unwrap();
        assert_eq!(result.text, "answer");
        assert_eq!(result.save_error.as_deref(), Some("disk full"));
        assert_eq!(flaky.saves.borrow().len(), 1);
        let value = serde_json::to_value(&result).unwrap();
        assert_eq!(value["saveError"], json!("disk full"));
    }
}

#[test]
fn a_successful_save_leaves_save_error_unset() {
    let rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![text_reply(Style::OpenAi, "a")]),
    );
    let flaky = Rc::new(FlakyStore::default());
    let store: Rc<dyn Store> = flaky.clone();
    let result = ask(&rig, &store, "t-9", "go").unwrap();
    assert_eq!(result.save_error, None);
    let saves = flaky.saves.borrow();
    assert_eq!(saves[0].0, "t-9");
    assert_eq!(saves[0].1, result.messages);
    assert!(serde_json::to_value(&result)
        .unwrap()
        .get("saveError")
        .is_none());
}

#[test]
fn a_failing_load_is_an_error_and_nothing_is_sent() {
    let rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![text_reply(Style::OpenAi, "a")]),
    );
    let flaky = Rc::new(FlakyStore {
        get_error: Some("connection lost".into()),
        ..FlakyStore::default()
    });
    let store: Rc<dyn Store> = flaky.clone();
    let err = ask(&rig, &store, "t", "go").unwrap_err();
    assert_eq!(
        err,
        RunError::Hook {
            hook: "store.get",
            message: "connection lost".into()
        }
    );
    assert_eq!(rig.http.count(), 0);
    assert_eq!(flaky.saves.borrow().len(), 0);
}

#[test]
fn a_failed_run_saves_nothing() {
    let mut rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(500, "down")]),
    );
    rig.config.retries = 0;
    let flaky = Rc::new(FlakyStore::default());
    let store: Rc<dyn Store> = flaky.clone();
    assert_eq!(
        ask(&rig, &store, "t", "go").unwrap_err().code(),
        "http_status"
    );
    assert_eq!(flaky.saves.borrow().len(), 0);
}
