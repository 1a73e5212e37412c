//! One client keeps its endpoint, headers and body template between model calls and runs
//! (`client::request_cache`): every body is still exactly the one of its own run's tool list,
//! system prompt and streaming, and a `beforeLLM` hook that swaps the tools is heard at once.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::hooks::LlmOverride;
use toolnexus::core::tool::SharedTool;
use toolnexus::core::toolkit::{Sources, Toolkit};
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn kit(tools: &[&str], skills_prompt: &str) -> Rc<Toolkit> {
    let extras: Vec<SharedTool> = tools
        .iter()
        .map(|name| FnTool::returning(name, ToolResult::ok("x")) as SharedTool)
        .collect();
    let sources = Sources {
        extras,
        skills_prompt: skills_prompt.to_owned(),
        ..Sources::default()
    };
    Rc::new(Toolkit::assemble(sources).0)
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|t| {
                    let name = t.get("function").map_or(&t["name"], |f| &f["name"]);
                    name.as_str().unwrap().to_owned()
                })
                .collect()
        })
        .unwrap_or_default()
}

fn system_of(style: Style, body: &Value) -> String {
    match style {
        Style::OpenAi => body["messages"][0]["content"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        Style::Anthropic => body["system"].as_str().unwrap().to_owned(),
    }
}

#[test]
fn each_run_of_one_client_sends_its_own_tools_and_system_prompt() {
    for style in BOTH {
        let replies = (0..4).map(|_| text_reply(style, "ok")).collect();
        let mut rig = Rig::new(style, ScriptedHttp::replies(replies));
        rig.config.system_prompt = "Be brief.".into();
        rig.config.api_key = Some("sk-test".into());
        let client = rig.client();
        let kits = [
            kit(&["alpha"], ""),
            kit(&["beta", "gamma"], ""),
            kit(&[], ""),
            kit(&["alpha"], "Skills: pdf."),
        ];
        for toolkit in &kits {
            let mut input = rig.input("hi");
            input.toolkit = toolkit.clone();
            block_on(client.run(input)).unwrap();
        }
        let names: Vec<Vec<String>> = (0..4).map(|n| tool_names(&rig.http.body(n))).collect();
        assert_eq!(
            names,
            [vec!["alpha"], vec!["beta", "gamma"], vec![], vec!["alpha"]],
            "{style:?}"
        );
        assert!(
            rig.http.body(2).get("tools").is_none(),
            "{style:?}: no tools, no key"
        );
        let systems: Vec<String> = (0..4)
            .map(|n| system_of(style, &rig.http.body(n)))
            .collect();
        assert_eq!(systems[0], "Be brief.");
        assert_eq!(systems[2], "Be brief.");
        assert!(
            systems[3].starts_with("Be brief.") && systems[3].contains("Skills: pdf."),
            "{systems:?}"
        );
        for n in 0..4 {
            let sent = rig.http.request(n);
            assert_eq!(sent.url, rig.http.request(0).url);
            assert_eq!(sent.headers, rig.http.request(0).headers);
            assert_eq!(rig.http.body(n)["model"], json!(MODEL));
        }
    }
}

#[test]
fn tools_a_before_llm_hook_swaps_in_go_out_with_the_next_call() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            calls_reply(style, &[("c1", "alpha", json!({}))]),
            text_reply(style, "done"),
        ]);
        let swapped = kit(&["omega"], "")
            .tool_list(style.dialect().name(), |specs| style.dialect().tools(specs));
        let swapped_value = swapped.value().clone();
        let hooks = Rc::new(FakeHooks {
            before_llm: Some(Box::new(move |_, _, turn| {
                Ok(LlmOverride {
                    messages: None,
                    tools: (turn == 1).then(|| swapped_value.clone()),
                })
            })),
            ..FakeHooks::default()
        });
        let rig = Rig::new(style, http)
            .tool(FnTool::returning("alpha", ToolResult::ok("x")))
            .hooks(&hooks);
        rig.run("go").unwrap();
        assert_eq!(tool_names(&rig.http.body(0)), ["alpha"], "{style:?}");
        assert_eq!(tool_names(&rig.http.body(1)), ["omega"], "{style:?}");
    }
}
