//! Content parts (SPEC §1B, §8A): the record's checks, the edge constructors and the
//! provider blocks, including every refusal.
#![allow(clippy::unwrap_used, clippy::panic)]

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
