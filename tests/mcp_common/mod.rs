//! Fakes for the MCP host tests: a scripted server behind `Http`, a virtual clock, a scripted
//! `waitFor`, and a scripted child process.
#![allow(
    dead_code,
    unused_imports,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::expect_used,
    clippy::result_large_err,
    clippy::type_complexity
)]

pub mod clock;
pub mod load;
pub mod oauth;
pub mod ring_signer;
pub mod server;
pub mod server_body;
pub mod stdio;

use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::{core::json::value::Value, json};

use toolnexus::core::client::hooks::WaitFor;
use toolnexus::core::host::{Clock, Http, LocalBoxFuture};
use toolnexus::core::mcp::config::parse_config;
use toolnexus::core::mcp::process::Process;
use toolnexus::core::mcp::McpHost;
use toolnexus::core::types::Request;

pub use clock::{run, run_spawning, VirtualClock};
pub use load::{call, load_with, names};
pub use server::{FakeMcp, Mode, Reply};

/// A `waitFor` that records each request and answers with `answer(request)`.
pub struct ScriptedWaitFor {
    pub seen: RefCell<Vec<Request>>,
    answer: Box<dyn Fn(&Request) -> Result<Value, String>>,
}

impl ScriptedWaitFor {
    pub fn new(answer: impl Fn(&Request) -> Result<Value, String> + 'static) -> Rc<Self> {
        Rc::new(ScriptedWaitFor {
            seen: RefCell::default(),
            answer: Box::new(answer),
        })
    }
}

impl WaitFor for ScriptedWaitFor {
    fn wait_for(&self, request: &Request) -> LocalBoxFuture<'static, Result<Value, String>> {
        self.seen.borrow_mut().push(request.clone());
        let answer = (self.answer)(request);
        Box::pin(async move { answer })
    }
}

/// A host over these fakes; the env knows `TOKEN=s3cret-value`.
pub fn host(http: Option<Rc<dyn Http>>, clock: Rc<dyn Clock>) -> McpHost {
    McpHost {
        http,
        process: Err("no process API in this test".into()),
        clock,
        env: Rc::new(|name: &str| (name == "TOKEN").then(|| "s3cret-value".to_owned())),
        wait_for: None,
        spawn: None,
        token_store: None,
        signer: None,
    }
}

pub fn with_process(mut host: McpHost, process: Rc<dyn Process>) -> McpHost {
    host.process = Ok(process);
    host
}

pub fn with_wait_for(mut host: McpHost, wait_for: Rc<dyn WaitFor>) -> McpHost {
    host.wait_for = Some(wait_for);
    host
}

/// `{"mcpServers": {name: {"url": "http://fake/<name>", ...extra}}}` as parsed entries.
pub fn remote(servers: &[(&str, Value)]) -> Vec<toolnexus::core::mcp::config::ServerEntry> {
    let mut map = toolnexus::core::json::value::Map::new();
    for (name, extra) in servers {
        let mut server = json!({"url": format!("http://fake/{name}")});
        server
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        map.insert((*name).to_owned(), server);
    }
    parse_config(&json!({"mcpServers": map})).unwrap()
}

/// Routes each request to the fake named by the last URL segment.
pub struct Router(pub Vec<(&'static str, Rc<FakeMcp>)>);

impl Http for Router {
    fn send(
        &self,
        request: &toolnexus::core::host::HttpRequest,
    ) -> LocalBoxFuture<
        'static,
        Result<toolnexus::core::host::HttpResponse, toolnexus::core::host::HttpError>,
    > {
        let _ = request;
        Box::pin(async {
            Err(toolnexus::core::host::HttpError::Network(
                "use open_with_headers".into(),
            ))
        })
    }
    fn open_with_headers(
        &self,
        request: &toolnexus::core::host::HttpRequest,
    ) -> LocalBoxFuture<
        'static,
        Result<toolnexus::core::host::HeadedResponse, toolnexus::core::host::HttpError>,
    > {
        self.pick(&request.url).open(request.clone())
    }
}

impl Router {
    fn pick(&self, url: &str) -> Rc<FakeMcp> {
        let name = url.rsplit('/').next().unwrap();
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| f.clone())
            .unwrap()
    }
}
