//! `createClient`, `createInProcessClient` and the `Client` class (SPEC §8, §10).

use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::callbacks::{JsGenerate, JsHooks, JsStore, JsWaitFor};
use super::client_options::{api_key, common, function_opt, string_opt};
use super::convert::{from_json, get, js_error, to_json, type_name};
use super::host::{set, signal_from, JsClock};
use super::http::FetchHttp;
use super::store::InMemoryConversationStore;
use super::toolkit::core_toolkit;
use crate::core::client::config::Style;
use crate::core::client::error::RunError;
use crate::core::client::in_process::{InProcessHttp, IN_PROCESS_BASE_URL};
use crate::core::client::run::{Client, RunInput};
use crate::core::host::{Http, Signal};

/// A run's failure as a JS `Error`: `code` says what kind, `name` is `"AbortError"` for an
/// aborted run. The message never holds a key or a header value.
pub fn run_error(error: &RunError) -> JsValue {
    let js = js_error(error.code(), &error.to_string());
    if matches!(error, RunError::Aborted(_)) {
        set(&js, "name", &"AbortError".into());
    }
    js
}

/// The parts of a `run`/`ask` context: `{toolkit, signal?, history?, id?}`.
struct RunContext {
    toolkit: Rc<crate::core::toolkit::Toolkit>,
    signal: Option<Signal>,
    history: Vec<Value>,
    id: Option<String>,
}

fn run_context(ctx: &JsValue, what: &str) -> Result<RunContext, JsValue> {
    let invalid = |m: String| js_error("invalid_options", &m);
    let toolkit = core_toolkit(&get(ctx, "toolkit")).ok_or_else(|| {
        invalid(format!(
            "{what}: ctx.toolkit must be a Toolkit made by createToolkit"
        ))
    })?;
    let signal = signal_from(ctx).map_err(|m| invalid(format!("{what}: {m}")))?;
    let history = match to_json(&get(ctx, "history")) {
        Ok(Value::Null) => Vec::new(),
        Ok(Value::Array(messages)) => messages,
        _ => {
            return Err(invalid(format!(
                "{what}: ctx.history must be an array of messages"
            )))
        }
    };
    let id = string_opt(ctx, "id", what)?;
    if !get(ctx, "on_text").is_undefined() {
        let message = format!(
            "{what}: on_text (streaming) is not available in this version of toolnexus-wasm yet"
        );
        return Err(js_error("unsupported", &message));
    }
    let signal = signal.map(|s| s as Signal);
    Ok(RunContext {
        toolkit,
        signal,
        history,
        id,
    })
}

fn promise_of(
    future: crate::core::host::LocalBoxFuture<
        'static,
        Result<crate::core::client::result::RunResult, RunError>,
    >,
) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        future
            .await
            .map(|result| from_json(&result))
            .map_err(|e| run_error(&e))
    })
}

fn rejected(error: JsValue) -> js_sys::Promise {
    js_sys::Promise::reject(&error)
}

/// An agent client: runs the tool-calling loop against one endpoint.
///
/// ```js
/// const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini" })
/// const result = await client.run("What is the weather in Paris?", { toolkit })
/// result.text // the model's answer
/// ```
#[wasm_bindgen(js_name = Client)]
pub struct ClientHandle {
    core: Client,
    store: JsValue,
}

#[wasm_bindgen(js_class = Client)]
impl ClientHandle {
    /// Runs the loop to its end: `status` is `"done"`, `"pending"` (a tool suspended and there
    /// is no `waitFor`), or `"incomplete"` (`limit` says which). Rejects when the model call
    /// fails, a hook throws, or the run is aborted.
    ///
    /// ```js
    /// const r = await client.run("Book it", { toolkit, signal: controller.signal })
    /// if (r.status === "pending") save(JSON.stringify(r))
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn run(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RunOptions")] ctx: JsValue,
    ) -> js_sys::Promise {
        let Some(prompt) = prompt.as_string() else {
            return rejected(js_error(
                "invalid_argument",
                &format!("run: prompt must be a string, got {}", type_name(&prompt)),
            ));
        };
        match run_context(&ctx, "run") {
            Ok(c) => promise_of(self.core.run(RunInput {
                toolkit: c.toolkit,
                prompt,
                history: c.history,
                signal: c.signal,
            })),
            Err(e) => rejected(e),
        }
    }

    /// `run` with memory: with an `id`, the transcript is loaded from the store first and
    /// saved after. A failing `save` does not lose the result: it comes back with `saveError`.
    ///
    /// ```js
    /// await client.ask("My name is Ada", { toolkit, id: "thread-1" })
    /// const r = await client.ask("What is my name?", { toolkit, id: "thread-1" })
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn ask(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AskOptions")] ctx: JsValue,
    ) -> js_sys::Promise {
        let Some(prompt) = prompt.as_string() else {
            return rejected(js_error(
                "invalid_argument",
                &format!("ask: prompt must be a string, got {}", type_name(&prompt)),
            ));
        };
        let c = match run_context(&ctx, "ask") {
            Ok(c) => c,
            Err(e) => return rejected(e),
        };
        let input = RunInput {
            toolkit: c.toolkit,
            prompt,
            history: Vec::new(),
            signal: c.signal,
        };
        match c.id {
            Some(id) => promise_of(
                self.core
                    .ask(Rc::new(JsStore(self.store.clone())), id, input),
            ),
            None => promise_of(self.core.run(input)),
        }
    }

    /// A stateful conversation: each `send` continues the same transcript.
    ///
    /// ```js
    /// const chat = client.conversation({ toolkit })
    /// await chat.send("Hi, I am Ada")
    /// await chat.send("Who am I?")
    /// ```
    pub fn conversation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ConversationOptions")] ctx: JsValue,
    ) -> Result<Conversation, JsValue> {
        let c = run_context(&ctx, "conversation")?;
        Ok(Conversation {
            core: self.core.clone(),
            toolkit: c.toolkit,
            signal: c.signal,
            messages: Rc::new(std::cell::RefCell::new(Vec::new())),
        })
    }

    /// The conversation store `ask` uses: the `store` option itself, else the client's own
    /// `InMemoryConversationStore`.
    #[wasm_bindgen(js_name = conversationStore, unchecked_return_type = "ConversationStore")]
    pub fn conversation_store(&self) -> JsValue {
        self.store.clone()
    }
}

/// A conversation that keeps its transcript between sends.
#[wasm_bindgen]
pub struct Conversation {
    core: Client,
    toolkit: Rc<crate::core::toolkit::Toolkit>,
    signal: Option<Signal>,
    messages: Rc<std::cell::RefCell<Vec<Value>>>,
}

#[wasm_bindgen]
impl Conversation {
    /// Sends the next user turn; resolves to the run's result.
    #[wasm_bindgen(unchecked_return_type = "Promise<RunResult>")]
    pub fn send(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] prompt: JsValue,
    ) -> js_sys::Promise {
        let Some(prompt) = prompt.as_string() else {
            return rejected(js_error(
                "invalid_argument",
                "send: prompt must be a string",
            ));
        };
        let history = self.messages.borrow().clone();
        let run = self.core.run(RunInput {
            toolkit: self.toolkit.clone(),
            prompt,
            history,
            signal: self.signal.clone(),
        });
        let messages = self.messages.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let result = run.await.map_err(|e| run_error(&e))?;
            *messages.borrow_mut() = result.messages.clone();
            Ok(from_json(&result))
        })
    }

    /// The whole transcript so far (a copy).
    #[wasm_bindgen(getter, unchecked_return_type = "Message[]")]
    pub fn messages(&self) -> JsValue {
        from_json(&*self.messages.borrow())
    }

    /// Forgets the transcript.
    pub fn reset(&self) {
        self.messages.borrow_mut().clear();
    }
}

fn build(
    options: &JsValue,
    style: Style,
    base_url: String,
    http: Rc<dyn Http>,
    what: &str,
) -> Result<ClientHandle, JsValue> {
    let mut config = common(options, style, base_url, what)?;
    let browser_access = get(options, "anthropicBrowserAccess").as_bool() == Some(true);
    if style == Style::Anthropic && browser_access {
        let header = (
            "anthropic-dangerous-direct-browser-access".to_owned(),
            "true".to_owned(),
        );
        config.headers.insert(0, header);
    }
    let hooks = get(options, "hooks");
    if !(hooks.is_undefined() || hooks.is_null() || hooks.is_object()) {
        return Err(js_error(
            "invalid_options",
            &format!("{what}: hooks must be an object"),
        ));
    }
    let body_transform = function_opt(options, "bodyTransform", what)?;
    let wait_for = function_opt(options, "waitFor", what)?
        .map(|f| Rc::new(JsWaitFor(f)) as Rc<dyn crate::core::client::hooks::WaitFor>);
    let store = get(options, "store");
    let store = if store.is_undefined() || store.is_null() {
        JsValue::from(InMemoryConversationStore::new())
    } else if get(&store, "get").is_function() && get(&store, "save").is_function() {
        store
    } else {
        return Err(js_error(
            "invalid_options",
            &format!("{what}: store must have get(id) and save(id, messages) functions"),
        ));
    };
    let core = Client {
        config: Rc::new(config),
        dialect: style.dialect(),
        http,
        hooks: Rc::new(JsHooks::new(hooks, body_transform)),
        wait_for,
        clock: Rc::new(JsClock),
    };
    Ok(ClientHandle { core, store })
}

/// A client for any OpenAI- or Anthropic-style endpoint, over `fetch`.
///
/// ```js
/// const client = createClient({
///   baseUrl: "http://127.0.0.1:11434/v1", style: "openai", model: "llama3.2",
///   waitFor: async (request) => ({ id: request.id, ok: confirm(request.prompt) }),
/// })
/// ```
#[wasm_bindgen(js_name = createClient)]
pub fn create_client(
    #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
) -> Result<ClientHandle, JsValue> {
    let what = "createClient";
    let style = match get(&options, "style")
        .as_string()
        .as_deref()
        .and_then(Style::parse)
    {
        Some(style) => style,
        None => {
            return Err(js_error(
                "invalid_options",
                "createClient: style must be \"openai\" or \"anthropic\"",
            ))
        }
    };
    let base_url = string_opt(&options, "baseUrl", what)?
        .ok_or_else(|| js_error("invalid_options", "createClient: baseUrl is required"))?;
    let fetch = function_opt(&options, "fetch", what)?;
    let http = FetchHttp::new(fetch).ok_or_else(|| {
        js_error(
            "unsupported",
            "createClient: this runtime has no fetch; pass the fetch option",
        )
    })?;
    let mut client = build(&options, style, base_url, Rc::new(http), what)?;
    let config = Rc::make_mut(&mut client.core.config);
    config.api_key = api_key(&options, style, what)?;
    Ok(client)
}

/// A client whose model runs in this process: `generate({messages, tools, model, body})`
/// returns `{content}` or `{toolCalls: [{id?, name, arguments}]}` (plus optional `usage`).
/// Messages are OpenAI-shaped. Failures of `generate` are final.
///
/// ```js
/// const client = createInProcessClient({ model: "scripted", generate: async ({ messages }) => ({ content: "Hello!" }) })
/// ```
#[wasm_bindgen(js_name = createInProcessClient)]
pub fn create_in_process_client(
    #[wasm_bindgen(unchecked_param_type = "InProcessOptions")] options: JsValue,
) -> Result<ClientHandle, JsValue> {
    let what = "createInProcessClient";
    let generate = function_opt(&options, "generate", what)?.ok_or_else(|| {
        js_error(
            "invalid_options",
            "createInProcessClient requires a generate function",
        )
    })?;
    let http = InProcessHttp {
        generate: Rc::new(JsGenerate(generate)),
    };
    build(
        &options,
        Style::OpenAi,
        IN_PROCESS_BASE_URL.into(),
        Rc::new(http),
        what,
    )
}
