//! Content parts (SPEC §1B, §8A): the record's checks, the edge constructors and the
//! provider blocks, including every refusal.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use toolnexus::core::parts::encode::block;
use toolnexus::core::parts::make::{from_bytes, from_named_bytes, from_string, Options};
use toolnexus::core::parts::{describe, estimate_tokens, placeholder, ContentPart, PartError};
use toolnexus::json;

fn part(value: toolnexus::core::json::value::Value) -> ContentPart {
    ContentPart::from_json(value).unwrap()
}

fn invalid(p: &ContentPart) -> String {
    match p.validate() {
        Err(PartError::Invalid(message)) => message,
        other => panic!("expected invalid_part, got {other:?}"),
    }
}

#[test]
fn a_part_needs_exactly_one_of_data_and_url_and_a_mime_type() {
    assert!(part(json!({"type": "text", "text": "hi"}))
        .validate()
        .is_ok());
    assert!(
        part(json!({"type": "image", "mimeType": "image/png", "data": "AAAA"}))
            .validate()
            .is_ok()
    );
    assert!(part(
        json!({"type": "file", "mimeType": "application/pdf", "url": "https://x.test/a.pdf"})
    )
    .validate()
    .is_ok());
    assert_eq!(
        invalid(&part(json!({"type": "text"}))),
        "a text part needs text"
    );
    assert_eq!(
        invalid(&part(
            json!({"type": "video", "mimeType": "video/mp4", "data": "AAAA"})
        )),
        "unknown content part type \"video\""
    );
    assert_eq!(
        invalid(&part(json!({"type": "image", "data": "AAAA"}))),
        "a image part needs a mimeType"
    );
    assert_eq!(
        invalid(&part(
            json!({"type": "image", "mimeType": "image/png", "data": "AAAA", "url": "https://x.test/a.png"})
        )),
        "a image part carries both data and url — exactly one is allowed"
    );
    assert_eq!(
        invalid(&part(json!({"type": "audio", "mimeType": "audio/wav"}))),
        "a audio part carries neither data nor url — exactly one is required"
    );
}

#[test]
fn data_must_be_standard_base64_and_a_url_http() {
    for bad in ["AAA", "A A=", "AA\nAA", "AA-_", "A===", "AAAA="] {
        let p = part(json!({"type": "image", "mimeType": "image/png", "data": bad}));
        assert_eq!(
            invalid(&p),
            "a image part's data is not standard base64",
            "{bad:?}"
        );
    }
    for (url, got) in [
        ("javascript:alert(1)", "a javascript: URL"),
        ("file:///etc/passwd", "a file: URL"),
        ("/shots/a.png", "no scheme"),
        ("data:image/png;base64,AAAA", "a data: URL"),
    ] {
        let p = part(json!({"type": "image", "mimeType": "image/png", "url": url}));
        assert_eq!(
            invalid(&p),
            format!("a image part's url must be an http: or https: URL, got {got}")
        );
    }
}

#[test]
fn constructors_encode_bytes_once_and_take_the_table_or_an_explicit_mime_type() {
    let png = [137u8, 80, 78, 71, 13, 10, 26, 10];
    let p = from_named_bytes("image", &png, Some("shot.PNG"), &Options::default()).unwrap();
    assert_eq!(
        p.to_json_text(),
        r#"{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo=","name":"shot.PNG"}"#
    );
    let p = from_bytes(
        "file",
        b"%PDF",
        &Options {
            mime_type: Some("application/pdf"),
            name: Some("a.pdf"),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(
        p.to_json_text(),
        r#"{"type":"file","mimeType":"application/pdf","data":"JVBERg==","name":"a.pdf"}"#
    );
    assert_eq!(
        from_bytes("image", &png, &Options::default())
            .unwrap_err()
            .to_string(),
        "a mimeType is required when building a part from bytes"
    );
    assert_eq!(
        from_named_bytes("file", b"x", Some("notes.txt"), &Options::default())
            .unwrap_err()
            .to_string(),
        "unknown file extension \".txt\" — pass an explicit mimeType"
    );
    assert_eq!(
        from_named_bytes("file", b"x", Some("Makefile"), &Options::default())
            .unwrap_err()
            .to_string(),
        "file has no extension — pass an explicit mimeType"
    );
    let limit = Options {
        mime_type: Some("image/png"),
        max_part_bytes: Some(4),
        ..Options::default()
    };
    assert_eq!(
        from_bytes("image", &png, &limit).unwrap_err().to_string(),
        "content part is 8 decoded bytes, over the maxPartBytes limit of 4"
    );
}

#[test]
fn string_sources_are_data_urls_or_http_urls() {
    let p = from_string(
        "image",
        "data:image/gif;base64,R0lGODlh",
        &Options::default(),
    )
    .unwrap();
    assert_eq!(
        (p.mime_type.as_deref(), p.data.as_deref(), p.url.as_deref()),
        (Some("image/gif"), Some("R0lGODlh"), None)
    );
    let p = from_string(
        "audio",
        "https://x.test/a/b.WAV?sig=1#t",
        &Options::default(),
    )
    .unwrap();
    assert_eq!(
        (p.mime_type.as_deref(), p.url.as_deref()),
        (Some("audio/wav"), Some("https://x.test/a/b.WAV?sig=1#t"))
    );
    let errors = [
        (
            "data:image/png,AAAA",
            "only base64 data: URLs are supported",
        ),
        ("data:;base64,AAAA", "data: URL carries no mime type"),
        (
            "data:image/png;base64,A",
            "a image part's data is not standard base64",
        ),
        (
            "https://x.test/page",
            "a mimeType is required for a URL whose extension is not in the media table",
        ),
        (
            "javascript:alert(1)",
            "a image part's url must be an http: or https: URL, got a javascript: URL",
        ),
        (
            "./shot.png",
            "a image part's url must be an http: or https: URL, got no scheme",
        ),
    ];
    for (source, message) in errors {
        assert_eq!(
            from_string("image", source, &Options::default())
                .unwrap_err()
                .to_string(),
            message,
            "{source}"
        );
    }
    let limit = Options {
        max_part_bytes: Some(5),
        ..Options::default()
    };
    assert!(from_string("image", "data:image/gif;base64,R0lGODlh", &limit).is_err());
}

#[test]
fn each_style_maps_each_part_type_or_names_its_refusal() {
    let image = from_string("image", "https://x.test/a.png", &Options::default()).unwrap();
    let pdf = from_bytes(
        "file",
        b"%PDF",
        &Options {
            mime_type: Some("application/pdf"),
            name: Some("a.pdf"),
            ..Options::default()
        },
    )
    .unwrap();
    let wav = from_bytes(
        "audio",
        b"RIFF",
        &Options {
            mime_type: Some("audio/wav"),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(
        block(&image, "openai").unwrap(),
        json!({"type": "image_url", "image_url": {"url": "https://x.test/a.png"}})
    );
    assert_eq!(
        block(&image, "anthropic").unwrap(),
        json!({"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}})
    );
    assert_eq!(
        block(&pdf, "openai").unwrap(),
        json!({"type": "file", "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBERg=="}})
    );
    assert_eq!(
        block(&pdf, "anthropic").unwrap(),
        json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERg=="}})
    );
    assert_eq!(
        block(&wav, "openai").unwrap(),
        json!({"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}})
    );
    assert_eq!(
        block(&ContentPart::text("hi"), "anthropic").unwrap(),
        json!({"type": "text", "text": "hi"})
    );

    let refusal = |p: &ContentPart, style: &str| {
        let e = block(p, style).unwrap_err();
        assert_eq!(e.code(), "unsupported_part");
        e.to_string()
    };
    assert_eq!(
        refusal(&wav, "anthropic"),
        "no \"anthropic\" block shape for a audio part (audio/wav)"
    );
    let remote_pdf = from_string("file", "https://x.test/a.pdf", &Options::default()).unwrap();
    assert_eq!(
        refusal(&remote_pdf, "openai"),
        "no \"openai\" block shape for a file part (application/pdf)"
    );
    let ogg = from_bytes(
        "audio",
        b"OggS",
        &Options {
            mime_type: Some("audio/ogg"),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(
        refusal(&ogg, "openai"),
        "no \"openai\" block shape for a audio part (audio/ogg)"
    );
    assert_eq!(
        refusal(&image, "gemini"),
        "no \"gemini\" block shape for a image part (image/png)"
    );
}

#[test]
fn described_placeholdered_and_estimated_without_their_data() {
    let wav = from_bytes(
        "audio",
        &[0u8; 3000],
        &Options {
            mime_type: Some("audio/wav"),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(describe(&wav), "audio (audio/wav, 3000 bytes)");
    assert_eq!(
        placeholder(&wav),
        "[unsupported audio part (audio/wav, 3000 bytes)]"
    );
    assert_eq!(estimate_tokens(&wav), 85);
    let big = from_bytes(
        "image",
        &vec![0u8; 750 * 200],
        &Options {
            mime_type: Some("image/png"),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(estimate_tokens(&big), 200);
    let url = from_string("image", "https://x.test/a.png", &Options::default()).unwrap();
    assert_eq!(describe(&url), "image (image/png, 0 bytes)");
}

mod on_the_wire {
    use toolnexus::core::message::Message;
    use toolnexus::core::parts::PartError;
    use toolnexus::core::wire::parts::for_wire;
    use toolnexus::json;

    fn texts(messages: &[Message]) -> Vec<String> {
        messages.iter().map(|m| m.text().to_owned()).collect()
    }

    fn wire(
        messages: &[toolnexus::core::json::value::Value],
        style: &str,
    ) -> Result<Vec<toolnexus::core::json::value::Value>, PartError> {
        wire_within(messages, style, None)
    }

    fn wire_within(
        messages: &[toolnexus::core::json::value::Value],
        style: &str,
        limit: Option<usize>,
    ) -> Result<Vec<toolnexus::core::json::value::Value>, PartError> {
        let messages: Vec<Message> = messages.iter().cloned().map(Message::from_value).collect();
        Ok(match for_wire(&messages, style, limit, None)? {
            Some(wired) => wired.iter().map(|m| m.value().clone()).collect(),
            None => messages.iter().map(|m| m.value().clone()).collect(),
        })
    }

    const PNG: &str = "iVBORw0KGgo=";

    #[test]
    fn a_transcript_without_parts_is_sent_as_it_is() {
        let plain = [
            Message::role_content(
                "user",
                "say \"mimeType\"? no: the key is checked, not the word",
            ),
            Message::from_value(json!({"role": "assistant", "content": "ok"})),
        ];
        // The text mentions neither key as a key, so nothing is read or copied.
        assert!(for_wire(&plain, "openai", None, None).unwrap().is_none());
        assert_eq!(texts(&plain).len(), 2);
    }

    #[test]
    fn an_attached_image_becomes_each_providers_block() {
        let user = json!({"role": "user", "content": [
            {"type": "text", "text": "What is this?"},
            {"type": "image", "mimeType": "image/png", "data": PNG},
        ]});
        assert_eq!(
            wire(std::slice::from_ref(&user), "openai").unwrap(),
            [json!({"role": "user", "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}},
            ]})]
        );
        assert_eq!(
            wire(&[user], "anthropic").unwrap(),
            [json!({"role": "user", "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            ]})]
        );
    }

    #[test]
    fn an_attached_part_the_provider_cannot_take_fails_before_sending() {
        let user = json!({"role": "user", "content": [{"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="}]});
        let error = wire(&[user], "anthropic").unwrap_err();
        assert_eq!(
            (error.code(), error.to_string().as_str()),
            (
                "unsupported_part",
                "no \"anthropic\" block shape for a audio part (audio/wav)"
            )
        );
        let bad = json!({"role": "user", "content": [{"type": "image", "mimeType": "image/png", "data": "not base64!"}]});
        assert_eq!(wire(&[bad], "openai").unwrap_err().code(), "invalid_part");
    }

    #[test]
    fn on_unsupported_part_decides_for_attached_and_tool_parts_alike() {
        use toolnexus::core::parts::OnUnsupported;
        let clip = json!({"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="});
        let messages: Vec<Message> = [
            json!({"role": "user", "content": [{"type": "text", "text": "listen"}, clip.clone()]}),
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "rec", "parts": [clip]}]}),
        ]
        .into_iter()
        .map(Message::from_value)
        .collect();
        let texts = for_wire(&messages, "anthropic", None, Some(OnUnsupported::Text))
            .unwrap()
            .unwrap();
        let placeholder =
            json!({"type": "text", "text": "[unsupported audio part (audio/wav, 4 bytes)]"});
        assert_eq!(texts[0].value()["content"][1], placeholder);
        assert_eq!(texts[1].value()["content"][0]["content"][1], placeholder);
        // "error": the tool's part fails too (the attached one is checked first).
        let tool_only = &messages[1..];
        let error = for_wire(tool_only, "anthropic", None, Some(OnUnsupported::Error)).unwrap_err();
        assert_eq!(error.code(), "unsupported_part");
        assert!(
            for_wire(tool_only, "anthropic", None, None).is_ok(),
            "by default a tool's is described"
        );
        // Not a shape question: a part over the limit keeps the provenance rule.
        let over = for_wire(tool_only, "openai", Some(1), Some(OnUnsupported::Error))
            .unwrap()
            .unwrap();
        assert!(
            over[0].text().contains("[unsupported audio part"),
            "{}",
            over[0].text()
        );
    }

    #[test]
    fn openai_moves_a_turns_tool_parts_into_one_user_message_after_its_results() {
        let messages = [
            json!({"role": "user", "content": "shoot both"}),
            json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "shot", "arguments": "{}"}},
                {"id": "c2", "type": "function", "function": {"name": "clip", "arguments": "{}"}},
            ]}),
            json!({"role": "tool", "tool_call_id": "c1", "content": "took one", "parts": [
                {"type": "image", "mimeType": "image/png", "data": PNG},
                {"type": "text", "text": "caption"},
            ]}),
            json!({"role": "tool", "tool_call_id": "c2", "content": "recorded", "parts": [
                {"type": "audio", "mimeType": "audio/ogg", "data": "T2dnUw=="},
            ]}),
            json!({"role": "assistant", "content": "done"}),
        ];
        let wired = wire(&messages, "openai").unwrap();
        assert_eq!(wired.len(), 6);
        assert_eq!(
            wired[2],
            json!({"role": "tool", "tool_call_id": "c1", "content": [
                {"type": "text", "text": "took one"}, {"type": "text", "text": "caption"},
            ]})
        );
        assert_eq!(
            wired[3],
            json!({"role": "tool", "tool_call_id": "c2", "content": "recorded"})
        );
        assert_eq!(
            wired[4],
            json!({"role": "user", "content": [
                {"type": "text", "text": "Output of tool shot (c1):"},
                {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}},
                {"type": "text", "text": "Output of tool clip (c2):"},
                // OpenAI takes no ogg audio: a tool's part becomes its placeholder, never an error.
                {"type": "text", "text": "[unsupported audio part (audio/ogg, 4 bytes)]"},
            ]})
        );
        assert_eq!(wired[5], messages[4]);
    }

    #[test]
    fn anthropic_keeps_a_tool_results_parts_in_its_block() {
        let results = json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "took one", "is_error": false, "parts": [
                {"type": "image", "mimeType": "image/png", "url": "https://x.test/a.png"},
                {"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="},
            ]},
        ]});
        assert_eq!(
            wire(&[results], "anthropic").unwrap(),
            [json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "is_error": false, "content": [
                    {"type": "text", "text": "took one"},
                    {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}},
                    {"type": "text", "text": "[unsupported audio part (audio/wav, 4 bytes)]"},
                ]},
            ]})]
        );
    }

    #[test]
    fn a_part_over_max_part_bytes_fails_if_attached_and_is_a_placeholder_if_a_tools() {
        let attached = json!({"role": "user", "content": [{"type": "image", "mimeType": "image/png", "data": PNG}]});
        let error = wire_within(std::slice::from_ref(&attached), "openai", Some(4)).unwrap_err();
        assert_eq!(
            (error.code(), error.to_string().as_str()),
            (
                "invalid_part",
                "content part is 8 decoded bytes, over the maxPartBytes limit of 4"
            )
        );
        assert!(wire_within(&[attached], "openai", Some(8)).is_ok());
        let result = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "shot", "parts": [{"type": "image", "mimeType": "image/png", "data": PNG}]}]});
        assert_eq!(
            wire_within(&[result], "anthropic", Some(4)).unwrap()[0]["content"][0]["content"][1],
            json!({"type": "text", "text": "[unsupported image part (image/png, 8 bytes)]"})
        );
    }
}
