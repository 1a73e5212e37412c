//! The rig of the HTTP tool tests: a scripted transport that also records methods, a clock
//! that records its sleeps, and an environment holding one secret.
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::{core::value::Value, json};

use crate::common::http::{ScriptedHttp, Sent, Step};
use toolnexus::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
use toolnexus::core::http_tool::{HttpTool, HttpToolOptions};
use toolnexus::core::tool::{Context, Tool};
use toolnexus::core::types::ToolResult;

/// Records each request's method, then hands it to the scripted transport.
pub struct Recording {
    pub inner: Rc<ScriptedHttp>,
    pub methods: RefCell<Vec<String>>,
}

impl Http for Recording {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        self.methods.borrow_mut().push(request.method.to_string());
        self.inner.send(request)
    }
}

/// A clock that records every sleep and either wakes at once or never.
pub struct TestClock {
    pub fires: bool,
    pub sleeps: RefCell<Vec<f64>>,
}

impl Clock for TestClock {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()> {
        self.sleeps.borrow_mut().push(ms);
        if self.fires {
            Box::pin(async {})
        } else {
            Box::pin(std::future::pending())
        }
    }
}

pub struct Rig {
    pub http: Rc<Recording>,
    pub clock: Rc<TestClock>,
    pub tool: HttpTool,
}

pub const SECRET: &str = "sk-live-0123456789";

pub fn rig_with(options: HttpToolOptions, steps: Vec<Step>, timer_fires: bool) -> Rig {
    let http = Rc::new(Recording {
        inner: ScriptedHttp::new(steps),
        methods: RefCell::new(Vec::new()),
    });
    let clock = Rc::new(TestClock {
        fires: timer_fires,
        sleeps: RefCell::new(Vec::new()),
    });
    let env = Rc::new(|name: &str| match name {
        "API_TOKEN" => Some(SECRET.to_owned()),
        "lower_case" => Some("low".to_owned()),
        _ => None,
    });
    let tool = HttpTool::new(options, http.clone(), clock.clone(), env).unwrap();
    Rig { http, clock, tool }
}

pub fn rig(options: HttpToolOptions, reply: Result<HttpResponse, HttpError>) -> Rig {
    rig_with(options, vec![Step::Now(reply)], false)
}

pub fn options(method: &str, url: &str) -> HttpToolOptions {
    HttpToolOptions {
        name: "endpoint".into(),
        description: "An endpoint".into(),
        method: method.into(),
        url: url.into(),
        ..HttpToolOptions::default()
    }
}

impl Rig {
    pub fn call(&self, args: Value) -> ToolResult {
        self.call_with(args, Context::default())
    }
    pub fn call_with(&self, args: Value, ctx: Context) -> ToolResult {
        futures_executor::block_on(self.tool.execute(args, ctx))
    }
    pub fn sent(&self) -> Sent {
        self.http.inner.request(0)
    }
    pub fn method(&self) -> String {
        self.http.methods.borrow()[0].clone()
    }
}

/// `result` with `metadata.status`.
pub fn with_status(mut result: ToolResult, status: u16) -> ToolResult {
    let mut metadata = toolnexus::core::value::Map::new();
    metadata.insert("status".into(), json!(status));
    result.metadata = Some(metadata);
    result
}
