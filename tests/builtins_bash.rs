//! `bash` over a fake `Exec` (output, exit codes, timeouts), how the built-ins assemble
//! (no `bash` without an exec, the toggles), and the names and schemas every port shares.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::builtins_support;

use builtins_support::*;
use std::rc::Rc;
use toolnexus::core::builtins::{create, BuiltinHost, ExecOutput, BUILTIN_NAMES};
use toolnexus::core::fs::MemoryFs;
use toolnexus::json;

fn host() -> BuiltinHost {
    BuiltinHost::new(Rc::new(MemoryFs::new()), Rc::new(NoNet), TestClock::never())
}

fn exec_kit(exec: Rc<FakeExec>, clock: Rc<TestClock>) -> Kit {
    let host = BuiltinHost {
        exec: Some(exec),
        clock,
        ..host()
    };
    Kit::with(host, None)
}

#[test]
fn bash_reports_output_exit_codes_and_timeouts() {
    let exec = FakeExec::new(|command| match command {
        "echo hi" => Some(Ok(ExecOutput {
            output: "hi\n".into(),
            exit_code: Some(0),
            timed_out: false,
        })),
        "false" => Some(Ok(ExecOutput {
            output: "oops\n".into(),
            exit_code: Some(2),
            timed_out: false,
        })),
        "sleep 9" => Some(Ok(ExecOutput {
            output: "partial".into(),
            exit_code: None,
            timed_out: true,
        })),
        "killed" => Some(Ok(ExecOutput {
            output: String::new(),
            exit_code: None,
            timed_out: false,
        })),
        "hang" => None,
        _ => Some(Err("spawn /bin/sh ENOENT".into())),
    });
    let kit = exec_kit(exec.clone(), TestClock::never());
    let ok = kit.run(
        "bash",
        json!({"command": "echo hi", "workdir": "/tmp", "description": "greet"}),
    );
    assert_eq!((ok.output.as_str(), ok.is_error), ("hi\n", false));
    assert_eq!(ok.metadata.unwrap()["exitCode"], json!(0));
    assert_eq!(
        exec.calls.borrow()[0],
        ("echo hi".into(), Some("/tmp".into()), 60000.0)
    );
    let failed = kit.run("bash", json!({"command": "false", "timeout": 500}));
    assert_eq!(
        (failed.output.as_str(), failed.is_error),
        ("oops\n\nbash: command exited with code 2", true)
    );
    assert_eq!(exec.calls.borrow()[1].2, 500.0);
    let slow = kit.run("bash", json!({"command": "sleep 9", "timeout": 100}));
    assert_eq!(slow.output, "bash: command timed out after 100ms\npartial");
    assert_eq!(
        kit.run("bash", json!({"command": "killed"})).output,
        "\nbash: command was killed"
    );
    assert_eq!(
        kit.run("bash", json!({"command": "x"})).output,
        "bash: spawn /bin/sh ENOENT"
    );
    assert_eq!(
        kit.run("bash", json!({"command": ""})).output,
        "bash: command is required"
    );
    let guarded = exec_kit(exec, TestClock::instant());
    let hung = guarded.run("bash", json!({"command": "hang", "timeout": 50}));
    assert_eq!(
        (hung.output.as_str(), hung.is_error),
        ("bash: command timed out after 50ms", true)
    );
}

#[test]
fn without_exec_bash_is_not_offered_and_the_toggles_apply() {
    let names = Kit::with(host(), None).names();
    let without_bash: Vec<&str> = BUILTIN_NAMES
        .iter()
        .copied()
        .filter(|n| *n != "bash")
        .collect();
    assert_eq!(names, without_bash);
    let exec = FakeExec::new(|_| None);
    let with_exec = BuiltinHost {
        exec: Some(exec),
        ..host()
    };
    assert_eq!(Kit::with(with_exec, None).names(), BUILTIN_NAMES.to_vec());
    let some_off = Kit::with(
        host(),
        Some(json!({"tools": {"write": false, "edit": false}})),
    )
    .names();
    assert!(!some_off.contains(&"write".to_owned()) && !some_off.contains(&"edit".to_owned()));
    assert_eq!(some_off.len(), 7);
    assert!(Kit::with(host(), Some(json!(false))).names().is_empty());
    assert!(Kit::with(host(), Some(json!({"disabled": true})))
        .names()
        .is_empty());
}

#[test]
fn every_builtin_has_source_builtin_and_the_reference_schema_keys() {
    let exec = FakeExec::new(|_| None);
    let tools = create(&BuiltinHost {
        exec: Some(exec),
        ..host()
    });
    let want = [
        (
            "bash",
            vec!["command", "workdir", "timeout", "description"],
            vec!["command"],
        ),
        ("read", vec!["path", "offset", "limit"], vec!["path"]),
        ("write", vec!["path", "content"], vec!["path", "content"]),
        (
            "edit",
            vec!["path", "oldString", "newString", "replaceAll"],
            vec!["path", "oldString", "newString"],
        ),
        (
            "grep",
            vec!["pattern", "path", "include", "limit"],
            vec!["pattern"],
        ),
        ("glob", vec!["pattern", "path", "limit"], vec!["pattern"]),
        ("webfetch", vec!["url", "format", "timeout"], vec!["url"]),
        ("question", vec!["questions"], vec!["questions"]),
        ("apply_patch", vec!["patchText"], vec!["patchText"]),
        ("todowrite", vec!["todos"], vec!["todos"]),
    ];
    assert_eq!(tools.len(), want.len());
    for (tool, (name, props, required)) in tools.iter().zip(want) {
        let spec = tool.spec();
        assert_eq!(
            (spec.name.as_str(), spec.source.as_str()),
            (name, "builtin")
        );
        assert!(!spec.description.is_empty());
        let schema = &spec.input_schema;
        assert_eq!(schema["type"], "object", "{name}");
        assert_eq!(schema["additionalProperties"], false, "{name}");
        let keys: Vec<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, props, "{name}");
        assert_eq!(schema["required"], json!(required), "{name}");
    }
    let webfetch = &tools[6].spec().input_schema;
    assert_eq!(
        webfetch["properties"]["format"]["enum"],
        json!(["text", "markdown", "html"])
    );
    let question = &tools[7].spec().input_schema["properties"]["questions"]["items"];
    assert_eq!(question["required"], json!(["question"]));
    assert_eq!(
        question["properties"]["options"],
        json!({"type": "array", "items": {"type": "string"}})
    );
}
