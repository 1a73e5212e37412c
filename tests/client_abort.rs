//! Aborting a run (SPEC §8 Resilience): before it starts, during a model call, during a tool,
//! between turns, and an aborted transport.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::ManualSignal;
use futures_executor::block_on;
use futures_util::future::join;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::host::HttpError;
use toolnexus::core::types::ToolResult;
use toolnexus::json;

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn aborted() -> RunError {
    RunError::Aborted("stopped by test".into())
}

#[test]
fn a_signal_fired_before_the_run_makes_no_request() {
    for style in BOTH {
        let stop = Rc::new(ManualSignal::default());
        stop.fire();
        let rig =
            Rig::new(style, ScriptedHttp::replies(vec![text_reply(style, "x")])).signal(&stop);
        let err = rig.run("go").unwrap_err();
        assert_eq!(err, aborted());
        assert_eq!(err.code(), "aborted");
        assert_eq!(err.to_string(), "The run was aborted: stopped by test");
        assert_eq!(rig.http.count(), 0);
    }
}

#[test]
fn a_signal_fired_during_the_model_call_aborts_it() {
    for style in BOTH {
        let stop = Rc::new(ManualSignal::default());
        let rig = Rig::new(style, ScriptedHttp::new(vec![Step::HangUntilAborted])).signal(&stop);
        let client = rig.client();
        let run = client.run(rig.input("go"));
        let fire = {
            let stop = stop.clone();
            async move {
                crate::common::YieldOnce(false).await;
                stop.fire();
            }
        };
        let (result, ()) = block_on(join(run, fire));
        assert_eq!(result.unwrap_err(), aborted());
        assert_eq!(rig.http.count(), 1);
    }
}

#[test]
fn an_aborted_transport_is_an_aborted_run() {
    for style in BOTH {
        let rig = Rig::new(
            style,
            ScriptedHttp::replies(vec![Err(HttpError::Aborted("timeout after 5000ms".into()))]),
        );
        let err = rig.run("go").unwrap_err();
        assert_eq!(err, RunError::Aborted("timeout after 5000ms".into()));
        assert_eq!(err.code(), "aborted");
    }
}

#[test]
fn a_signal_fired_during_a_hanging_tool_aborts_the_run() {
    for style in BOTH {
        let stop = Rc::new(ManualSignal::default());
        let stopper = {
            let stop = stop.clone();
            FnTool::new("stopper", json!({"type": "object"}), move |_, _| {
                stop.fire();
                Box::pin(async { ToolResult::ok("fired") })
            })
        };
        let http = ScriptedHttp::replies(vec![
            calls_reply(
                style,
                &[("c1", "hang", json!({})), ("c2", "stopper", json!({}))],
            ),
            text_reply(style, "never asked"),
        ]);
        let hang = hanging("hang");
        let rig = Rig::new(style, http)
            .tool(hang.clone())
            .tool(stopper)
            .signal(&stop);
        let err = rig.run("go").unwrap_err();
        assert_eq!(err, aborted(), "{style:?}");
        assert_eq!(hang.count(), 1);
        assert_eq!(rig.http.count(), 1, "no model call after the abort");
    }
}

#[test]
fn a_signal_fired_by_a_finished_tool_stops_before_the_next_turn() {
    for style in BOTH {
        let stop = Rc::new(ManualSignal::default());
        let stopper = {
            let stop = stop.clone();
            FnTool::new("stopper", json!({"type": "object"}), move |_, _| {
                let stop = stop.clone();
                Box::pin(async move {
                    stop.fire();
                    ToolResult::ok("fired")
                })
            })
        };
        let http = ScriptedHttp::replies(vec![
            calls_reply(style, &[("c1", "stopper", json!({}))]),
            text_reply(style, "never asked"),
        ]);
        let rig = Rig::new(style, http).tool(stopper).signal(&stop);
        assert_eq!(rig.run("go").unwrap_err(), aborted());
        assert_eq!(rig.http.count(), 1);
    }
}

#[test]
fn a_signal_that_never_fires_changes_nothing() {
    for style in BOTH {
        let rig = Rig::new(
            style,
            ScriptedHttp::replies(vec![
                calls_reply(style, &[("c1", "a", json!({}))]),
                text_reply(style, "fine"),
            ]),
        )
        .tool(FnTool::returning("a", ToolResult::ok("x")))
        .signal(&Rc::new(ManualSignal::default()));
        assert_eq!(rig.run("go").unwrap().text, "fine");
    }
}
