//! The MCP config (SPEC §0.3, §2): wrappers, reserved sibling keys, type inference, the
//! enabled/disabled precedence, the default timeout, entries that cannot be used, `${ENV}`
//! expansion, and the normalized form `parseMcpConfig` returns.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use toolnexus::core::mcp::config::{
    expand_env, parse_config, Endpoint, ServerEntry, DEFAULT_TIMEOUT_MS, RESERVED_KEYS,
};
use toolnexus::core::mcp::config_json::McpServerConfig;
use toolnexus::{core::json::value::Value, json};

fn names(entries: &[ServerEntry]) -> Vec<&str> {
    entries.iter().map(|e| e.name.as_str()).collect()
}

fn one(server: Value) -> ServerEntry {
    parse_config(&json!({"mcpServers": {"s": server}}))
        .unwrap()
        .remove(0)
}

#[test]
fn each_wrapper_is_accepted_and_the_first_present_wins() {
    for key in ["mcpServers", "servers", "mcp"] {
        let entries =
            parse_config(&json!({key: {"a": {"url": "http://a"}}, "other": {"url": "http://o"}}))
                .unwrap();
        assert_eq!(names(&entries), ["a"], "{key}");
    }
    let both =
        json!({"servers": {"s": {"url": "http://s"}}, "mcpServers": {"m": {"url": "http://m"}}});
    assert_eq!(names(&parse_config(&both).unwrap()), ["m"]);
    let null_first = json!({"mcpServers": null, "mcp": {"x": {"url": "http://x"}}});
    assert_eq!(names(&parse_config(&null_first).unwrap()), ["x"]);
}

#[test]
fn without_a_wrapper_the_reserved_sections_are_not_servers() {
    assert_eq!(RESERVED_KEYS, ["builtins", "agents", "a2a", "mcpServer"]);
    let raw = json!({
        "builtins": false, "agents": {"x": {"url": "http://agent"}}, "a2a": {"name": "me"},
        "mcpServer": {"name": "serve"}, "docs": {"url": "http://docs"}, "fs": {"command": "fs-server"}
    });
    assert_eq!(names(&parse_config(&raw).unwrap()), ["docs", "fs"]);
    assert!(
        parse_config(&json!({"builtins": {"tools": {"bash": false}}}))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_config_or_wrapper_that_is_not_an_object_is_refused() {
    assert_eq!(
        parse_config(&json!([1])).unwrap_err(),
        "an MCP config must be an object, got array"
    );
    assert_eq!(
        parse_config(&json!({"mcpServers": []})).unwrap_err(),
        "MCP config: \"mcpServers\" must be an object of servers, got array"
    );
}

#[test]
fn type_is_inferred_from_url_or_command_unless_given() {
    let remote = one(json!({"url": "http://r", "headers": {"X": "1"}}));
    assert_eq!(
        remote.config.unwrap().endpoint,
        Endpoint::Remote {
            url: "http://r".into(),
            headers: vec![("X".into(), "1".into())]
        }
    );
    let local =
        one(json!({"command": ["node", "srv.js", "--v"], "environment": {"A": "1"}, "cwd": "/w"}));
    assert_eq!(
        local.config.unwrap().endpoint,
        Endpoint::Local {
            command: "node".into(),
            args: vec!["srv.js".into(), "--v".into()],
            env: vec![("A".into(), "1".into())],
            cwd: Some("/w".into())
        }
    );
    let claude = one(json!({"command": "npx", "args": ["-y", "pkg"], "env": {"B": "2"}}));
    match claude.config.unwrap().endpoint {
        Endpoint::Local {
            command, args, env, ..
        } => {
            assert_eq!(
                (command.as_str(), args, env),
                (
                    "npx",
                    vec!["-y".to_string(), "pkg".into()],
                    vec![("B".to_string(), "2".to_string())]
                )
            );
        }
        other => panic!("{other:?}"),
    }
    let forced_local = one(json!({"type": "local", "url": "http://x", "command": "c"}));
    assert!(matches!(
        forced_local.config.unwrap().endpoint,
        Endpoint::Local { .. }
    ));
    for kind in ["remote", "http", "sse", "streamable-http"] {
        let forced = one(json!({"type": kind, "url": "http://x", "command": "c"}));
        assert!(
            matches!(forced.config.unwrap().endpoint, Endpoint::Remote { .. }),
            "{kind}"
        );
    }
    assert!(matches!(
        one(json!({"type": "stdio", "command": "c"}))
            .config
            .unwrap()
            .endpoint,
        Endpoint::Local { .. }
    ));
}

#[test]
fn disabled_true_or_enabled_false_turns_a_server_off() {
    let cases = [
        (json!({}), true),
        (json!({"enabled": true}), true),
        (json!({"disabled": false}), true),
        (json!({"enabled": false}), false),
        (json!({"disabled": true}), false),
        (json!({"enabled": true, "disabled": true}), false),
        (json!({"enabled": false, "disabled": false}), false),
        (json!({"enabled": "no"}), true),
    ];
    for (flags, on) in cases {
        let mut server = json!({"url": "http://x"});
        server
            .as_object_mut()
            .unwrap()
            .extend(flags.as_object().unwrap().clone());
        assert_eq!(one(server).enabled, on, "{flags}");
    }
    // A disabled entry is disabled even when it could not be used anyway.
    let broken = one(json!({"enabled": false}));
    assert!(!broken.enabled && broken.config.is_err());
}

#[test]
fn the_timeout_defaults_to_30000_ms() {
    assert_eq!(DEFAULT_TIMEOUT_MS, 30_000.0);
    assert_eq!(
        one(json!({"url": "http://x"})).config.unwrap().timeout_ms,
        30_000.0
    );
    assert_eq!(
        one(json!({"url": "http://x", "timeout": 1500}))
            .config
            .unwrap()
            .timeout_ms,
        1500.0
    );
    for bad in [json!(0), json!(-5), json!("10")] {
        let entry = one(json!({"url": "http://x", "timeout": bad}));
        assert!(
            entry
                .config
                .unwrap_err()
                .starts_with("\"timeout\" must be a positive number"),
            "{bad}"
        );
    }
}

#[test]
fn an_entry_that_cannot_be_used_keeps_its_reason() {
    let cases = [
        (
            json!("http://x"),
            "a server entry must be an object, got string",
        ),
        (
            json!({}),
            "a server needs a \"url\" (remote) or a \"command\" (local)",
        ),
        (
            json!({"type": "remote"}),
            "a remote server needs a \"url\" string",
        ),
        (json!({"command": []}), "\"command\" must not be empty"),
        (
            json!({"command": 5}),
            "\"command\" must be a string or an array of strings, got number",
        ),
        (
            json!({"command": ["a", 1]}),
            "\"command\" must contain only strings",
        ),
        (
            json!({"command": "a", "args": "b"}),
            "\"args\" must be an array of strings",
        ),
        (
            json!({"url": "http://x", "headers": {"A": 1}}),
            "\"headers.A\" must be a string",
        ),
        (
            json!({"url": "http://x", "tools": {"a": "yes"}}),
            "\"tools.a\" must be true or false",
        ),
        (
            json!({"command": "a", "cwd": 1}),
            "\"cwd\" must be a string",
        ),
    ];
    for (server, why) in cases {
        assert_eq!(one(server.clone()).config.unwrap_err(), why, "{server}");
    }
}

#[test]
fn the_tools_filter_keeps_config_order() {
    let entry = one(json!({"url": "http://x", "tools": {"b": true, "a": false}}));
    assert_eq!(
        entry.config.unwrap().tools,
        vec![("b".to_string(), true), ("a".to_string(), false)]
    );
}

#[test]
fn env_expansion_replaces_only_braced_names() {
    let env = |name: &str| match name {
        "A" => Some("1".to_string()),
        "LONG_NAME_2" => Some("two".to_string()),
        _ => None,
    };
    let cases = [
        ("Bearer ${A}", "Bearer 1"),
        ("${A}${LONG_NAME_2}", "1two"),
        ("${MISSING}x", "x"),
        ("$A ${A", "$A ${A"),
        ("${}", "${}"),
        ("${A-B}", "${A-B}"),
        ("€${A}€", "€1€"),
        ("no vars", "no vars"),
    ];
    for (input, want) in cases {
        assert_eq!(expand_env(input, &env), want, "{input}");
    }
}

#[test]
fn the_normalized_form_fills_type_command_enabled_and_timeout() {
    let entries = parse_config(&json!({"servers": {
        "r": {"url": "http://r", "headers": {"Authorization": "Bearer ${TOKEN}"}, "tools": {"x": true}},
        "l": {"command": "srv", "args": ["-v"], "env": {"K": "v"}, "disabled": true, "timeout": 10},
        "bad": {"url": 5}
    }}))
    .unwrap();
    let json: Vec<Value> = entries.iter().map(ServerEntry::to_json).collect();
    assert_eq!(
        json[0],
        json!({"type": "remote", "url": "http://r", "headers": {"Authorization": "Bearer ${TOKEN}"}, "enabled": true, "timeout": 30000.0, "tools": {"x": true}})
    );
    assert_eq!(
        json[1],
        json!({"type": "local", "command": ["srv", "-v"], "environment": {"K": "v"}, "enabled": false, "timeout": 10.0})
    );
    assert_eq!(json[2]["type"], "invalid");
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn the_shared_conformance_config_parses() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/mcp.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let entries = parse_config(&serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(names(&entries), ["everything", "example-remote"]);
    assert!(entries[0].enabled && !entries[1].enabled);
    let everything = entries[0].config.clone().unwrap();
    assert_eq!(everything.timeout_ms, 30_000.0);
    assert!(matches!(everything.endpoint, Endpoint::Local { ref command, .. } if command == "npx"));
    assert!(matches!(
        entries[1].config.clone().unwrap().endpoint,
        Endpoint::Remote { .. }
    ));
}

#[test]
fn the_normalized_entries_read_back_as_the_record_they_were_written_from() {
    let entries = parse_config(&json!({"mcpServers": {
        "docs": {"url": "https://x/mcp", "headers": {"A": "${T}"}, "tools": {"search": true}},
        "fs": {"command": ["srv", "-v"], "env": {"K": "v"}, "cwd": "/w", "timeout": 5},
        "plain": {"command": "srv"},
    }}))
    .unwrap();
    for entry in &entries {
        let written = entry.to_json();
        let record = McpServerConfig::from_json(written.clone()).unwrap();
        assert_eq!(record.to_json_text(), written.to_string(), "{}", entry.name);
    }
    assert_eq!(
        McpServerConfig::from_json(json!({"type": "stdio"})).unwrap_err(),
        "unknown variant `stdio`, expected `remote` or `local`"
    );
}
