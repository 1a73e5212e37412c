//! The `Client` class (SPEC §8, §10): `run`, `ask`, `stream`, `conversation`, `metrics`
//! (`translate` and `toolCallsJSON`, full build only, are in `translate.rs`).

use crate::core::json::value::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::callbacks::{JsStore, JsTextSink};
use super::convert::{coded_error, get, js_error, messages_to_js, to_json, type_name};
use super::host::set;
use super::run_context::{HistoryMode, RunContext};
use super::run_result::run_result;
use super::run_stream::{RunStream, StreamSink};
use crate::core::client::error::RunError;
use crate::core::client::prompt::Prompt;
use crate::core::client::result::RunResult;
use crate::core::client::resume::check_resume_ids;
use crate::core::client::run::{Client, Resume, RunInput};
use crate::core::client::telemetry::RunEvents;
use crate::core::host::{LocalBoxFuture, Signal};
use crate::core::message::{self, Message};
use crate::core::parts::ContentPart;
use crate::core::toolkit::Toolkit;
use crate::core::types::Request;

/// A run's failure as a JS `Error`: `code` says what kind, `name` is `"AbortError"` for an
/// aborted or timed-out run. The message never holds a key or a header value.
pub fn run_error(error: &RunError) -> JsValue {
    let options = js_sys::Object::new();
    if let RunError::Status { status, .. } = error {
        set(&options, "status", &(*status).into());
    }
    if matches!(error, RunError::Aborted(_)) {
        set(&options, "name", &"AbortError".into());
    }
    coded_error(error.code(), &error.to_string(), &options)
}

type RunFuture = LocalBoxFuture<'static, Result<RunResult, RunError>>;

fn promise_of(future: RunFuture) -> js_sys::Promise {
    crate::js::promise::promise(async move {
        future
            .await
            .map(|result| run_result(&result, None))
            .map_err(|e| run_error(&e))
    })
}

/// A run's prompt: a string, or an array of content parts and strings (each a text part).
fn prompt_of(prompt: &JsValue, what: &str) -> Result<Prompt, JsValue> {
    if let Some(text) = prompt.as_string() {
        return Ok(Prompt::Text(text));
    }
    if !js_sys::Array::is_array(prompt) {
        let message = format!(
            "{what}: prompt must be a string or an array of content parts, got {}",
            type_name(prompt)
        );
        return Err(js_error("invalid_argument", &message));
    }
    if cfg!(not(feature = "full")) {
        let message = format!("{what}: a prompt of content parts needs the full build: import from \"toolnexus-wasm\", not \"toolnexus-wasm/core\"");
        return Err(js_error("unsupported", &message));
    }
    let items = js_sys::Array::from(prompt);
    if items.length() == 0 {
        let message = format!("{what}: prompt is an empty array: give it text or content parts");
        return Err(js_error("invalid_argument", &message));
    }
    let part = |(i, item): (u32, JsValue)| -> Result<ContentPart, JsValue> {
        if let Some(text) = item.as_string() {
            return Ok(ContentPart::text(text));
        }
        let refused =
            |why: String| js_error("invalid_part", &format!("{what}: prompt[{i}]: {why}"));
        let json = to_json(&item).map_err(&refused)?;
        if !json.is_object() {
            return Err(refused(format!(
                "expected a string or a content part, got {}",
                type_name(&item)
            )));
        }
        let part = ContentPart::from_json(json).map_err(&refused)?;
        part.validate()
            .map_err(|e| js_error(e.code(), &format!("{what}: prompt[{i}]: {e}")))?;
        Ok(part)
    };
    (0..items.length())
        .map(|i| (i, items.get(i)))
        .map(part)
        .collect::<Result<Vec<_>, _>>()
        .map(Prompt::Parts)
}

/// An agent client: runs the tool-calling loop against one endpoint.
///
/// ```js
/// const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini" })
/// const result = await client.run("What is the weather in Paris?", { toolkit })
/// ```
#[wasm_bindgen(js_name = Client)]
pub struct ClientHandle {
    pub(crate) core: Client,
    pub(crate) store: JsValue,
}

impl ClientHandle {
    fn resume(&self, ctx: &JsValue, what: &str, through_store: bool) -> Result<RunFuture, JsValue> {
        let invalid = |m: String| js_error("invalid_options", &m);
        let mut c = RunContext::read(ctx, what)?;
        let pending = to_json(&get(ctx, "pending"))
            .and_then(Request::from_json)
            .map_err(|_| {
                invalid(format!(
                    "{what}: pending must be the halted run's Request {{id, kind, prompt, ...}}"
                ))
            })?;
        let answer = to_json(&get(ctx, "answer"))
            .ok()
            .filter(Value::is_object)
            .ok_or_else(|| {
                invalid(format!(
                    "{what}: answer must be an Answer {{id, ok, data?, reason?}}"
                ))
            })?;
        check_resume_ids(&pending, &answer).map_err(|e| run_error(&e))?;
        if through_store && c.id.is_none() {
            return Err(invalid(format!("{what}: id is required")));
        }
        if !through_store {
            c.id = None;
        }
        let resume = Some(Resume { pending, answer });
        let signal = c.run_signal(self.core.config.timeout_ms.is_some());
        let input = RunInput {
            toolkit: c.toolkit,
            prompt: Default::default(),
            history: message::from_values(c.history),
            history_text: None,
            history_host: None,
            signal,
            events: None,
            resume,
        };
        Ok(match c.id {
            Some(id) => self
                .core
                .ask(Rc::new(JsStore(self.store.clone())), id, input),
            None => self.core.run(input),
        })
    }

    /// The run (or `ask`, with an `id`) a context asks for, with `events` as its sink.
    fn start(
        &self,
        prompt: Prompt,
        c: RunContext,
        events: Option<Rc<dyn RunEvents>>,
    ) -> (RunFuture, Option<Signal>) {
        let signal = c.run_signal(self.core.config.timeout_ms.is_some() || events.is_some());
        let input = RunInput {
            toolkit: c.toolkit,
            prompt,
            history: message::from_values(c.history),
            history_text: c.history_text,
            history_host: c.history_host,
            signal: signal.clone(),
            events,
            resume: None,
        };
        let future = match c.id {
            Some(id) => self
                .core
                .ask(Rc::new(JsStore(self.store.clone())), id, input),
            None => self.core.run(input),
        };
        (future, signal)
    }
}

#[wasm_bindgen(js_class = Client)]
impl ClientHandle {
    /// Runs the loop to its end: `status` is `"done"`, `"pending"` (a tool suspended and there
    /// is no `waitFor`), or `"incomplete"` (`limit` says which). Rejects when the model call
    /// fails, a hook throws, or the run is aborted or times out.
    ///
    /// ```js
    /// const r = await client.run("Book it", { toolkit, signal: controller.signal })
    /// if (r.status === "pending") save(JSON.stringify(r))
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn run(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Prompt")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RunOptions")] ctx: JsValue,
    ) -> js_sys::Promise {
        let started = prompt_of(&prompt, "run").and_then(|prompt| {
            // The history stays JSON text in JavaScript (the transport completes each body
            // there) unless a hook needs it: then it is copied in as text (`bodyTransform`),
            // or decoded (`beforeLLM`).
            let mode = if self.core.takes_host_history() {
                HistoryMode::Host
            } else if !self.core.hooks.has_before_llm() {
                HistoryMode::Text
            } else {
                HistoryMode::Messages
            };
            let mut c = RunContext::read_with(&ctx, "run", mode)?;
            c.id = None;
            let items = c.history_items.clone();
            Ok((self.start(prompt, c, None).0, items))
        });
        match started {
            Ok((future, None)) => promise_of(future),
            Ok((future, Some(items))) => crate::js::promise::promise(async move {
                let result = future.await.map_err(|e| run_error(&e))?;
                Ok(run_result(&result, Some(&items)))
            }),
            Err(e) => js_sys::Promise::reject(&e),
        }
    }

    /// `run` with memory: with an `id`, the transcript is loaded from the store first and
    /// saved after (a failing `save` leaves `saveError` on the result). With `onText`, the
    /// model calls stream and each text delta goes to the callback as it arrives.
    ///
    /// ```js
    /// const r = await client.ask("What is my name?", { toolkit, id: "thread-1", onText: (t) => out.append(t) })
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn ask(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Prompt")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AskOptions")] ctx: JsValue,
    ) -> js_sys::Promise {
        let started = prompt_of(&prompt, "ask").and_then(|prompt| {
            let mut c = RunContext::read(&ctx, "ask")?;
            c.history = Vec::new();
            let events = c
                .on_text
                .take()
                .map(|f| Rc::new(JsTextSink(f)) as Rc<dyn RunEvents>);
            Ok(self.start(prompt, c, events).0)
        });
        match started {
            Ok(future) => promise_of(future),
            Err(e) => js_sys::Promise::reject(&e),
        }
    }

    /// The events of a streamed run, for the package's `stream()` (an async iterable).
    #[wasm_bindgen(js_name = streamEvents)]
    pub fn stream_events(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Prompt")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "StreamOptions")] ctx: JsValue,
    ) -> Result<RunStream, JsValue> {
        let prompt = prompt_of(&prompt, "stream")?;
        let mut c = RunContext::read(&ctx, "stream")?;
        c.history = Vec::new();
        let sink = StreamSink::default();
        let (future, signal) = self.start(prompt, c, Some(Rc::new(sink.clone())));
        let producer = sink.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let outcome = future.await.map(|result| {
                let done: JsValue = js_sys::Object::new().into();
                set(&done, "type", &"done".into());
                set(&done, "result", &run_result(&result, None));
                done
            });
            producer.end(outcome.map_err(|e| run_error(&e)));
        });
        Ok(RunStream::new(sink, signal))
    }

    /// Resumes a halted run (SPEC §10 durable resume): `{toolkit, history, pending, answer,
    /// signal?}` where `history` and `pending` come from the halted `RunResult` (plain JSON, so
    /// it may have crossed a reload or a process). `answer.id` must be `pending.id`; an expired
    /// request resumes as declined. Every call of the halted turn ends with one result.
    ///
    /// ```js
    /// const halted = JSON.parse(localStorage.run)
    /// const r = await client.runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending,
    ///   answer: { id: halted.pending.id, ok: true } })
    /// ```
    #[wasm_bindgen(js_name = runWithAnswer, unchecked_return_type = "Promise<RunResult>")]
    pub fn run_with_answer(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ResumeOptions")] ctx: JsValue,
    ) -> js_sys::Promise {
        match self.resume(&ctx, "runWithAnswer", false) {
            Ok(future) => promise_of(future),
            Err(e) => js_sys::Promise::reject(&e),
        }
    }

    /// `runWithAnswer` through the store: `{toolkit, id, pending, answer, signal?}` loads the
    /// transcript saved under `id`, resumes it, and saves the result's transcript.
    ///
    /// ```js
    /// await client.askWithAnswer({ toolkit, id: "thread-1", pending, answer: { id: pending.id, ok: true } })
    /// ```
    #[wasm_bindgen(js_name = askWithAnswer, unchecked_return_type = "Promise<RunResult>")]
    pub fn ask_with_answer(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AskResumeOptions")] ctx: JsValue,
    ) -> js_sys::Promise {
        match self.resume(&ctx, "askWithAnswer", true) {
            Ok(future) => promise_of(future),
            Err(e) => js_sys::Promise::reject(&e),
        }
    }

    /// A stateful conversation: each `send` continues the same transcript.
    ///
    /// ```js
    /// const chat = client.conversation({ toolkit })
    /// await chat.send("Hi, I am Ada")
    /// ```
    pub fn conversation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ConversationOptions")] ctx: JsValue,
    ) -> Result<Conversation, JsValue> {
        let c = RunContext::read(&ctx, "conversation")?;
        Ok(Conversation {
            core: self.core.clone(),
            context: Rc::new(c),
            messages: Default::default(),
        })
    }

    /// The conversation store `ask` uses: the `store` option itself, else the client's own
    /// `InMemoryConversationStore`.
    #[wasm_bindgen(js_name = conversationStore, unchecked_return_type = "ConversationStore")]
    pub fn conversation_store(&self) -> JsValue {
        self.store.clone()
    }

    /// The Prometheus text exposition of this client's metrics, byte-identical to the
    /// reference ports'; before any activity only the `# HELP` / `# TYPE` lines.
    ///
    /// ```js
    /// res.end(client.metrics()) // text/plain; version=0.0.4
    /// ```
    pub fn metrics(&self) -> String {
        self.core.telemetry.render()
    }
}

/// A conversation that keeps its transcript between sends.
#[wasm_bindgen]
pub struct Conversation {
    core: Client,
    context: Rc<RunContext>,
    messages: Rc<std::cell::RefCell<Vec<Message>>>,
}

#[wasm_bindgen]
impl Conversation {
    /// Sends the next user turn; resolves to the run's result.
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn send(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Prompt")] prompt: JsValue,
    ) -> js_sys::Promise {
        let prompt = match prompt_of(&prompt, "send") {
            Ok(prompt) => prompt,
            Err(e) => return js_sys::Promise::reject(&e),
        };
        let toolkit: Rc<Toolkit> = self.context.toolkit.clone();
        let history = self.messages.borrow().clone();
        let signal = self
            .context
            .run_signal(self.core.config.timeout_ms.is_some());
        let run = self.core.run(RunInput {
            toolkit,
            prompt,
            history,
            history_text: None,
            history_host: None,
            signal,
            events: None,
            resume: None,
        });
        let messages = self.messages.clone();
        crate::js::promise::promise(async move {
            let result = run.await.map_err(|e| run_error(&e))?;
            let value = run_result(&result, None);
            *messages.borrow_mut() = result.messages;
            Ok(value)
        })
    }

    /// The whole transcript so far (a copy).
    #[wasm_bindgen(getter, unchecked_return_type = "Message[]")]
    pub fn messages(&self) -> Result<JsValue, JsValue> {
        messages_to_js(&self.messages.borrow())
    }

    /// Forgets the transcript.
    pub fn reset(&self) {
        self.messages.borrow_mut().clear();
    }
}
