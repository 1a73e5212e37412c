//! `webfetch` over the scripted transport, and the HTML converter it uses.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::builtins_support;
use crate::common;

use builtins_support::*;
use common::http::{respond, ScriptedHttp, Step};
use std::rc::Rc;
use toolnexus::core::builtins::{html_to_markdown, html_to_text, BuiltinHost};
use toolnexus::core::fs::MemoryFs;
use toolnexus::core::host::{Clock, HttpError};
use toolnexus::json;

fn kit_with(http: Rc<ScriptedHttp>, clock: Rc<dyn Clock>) -> Kit {
    Kit::with(
        BuiltinHost::new(Rc::new(MemoryFs::new()), http, clock),
        None,
    )
}

const PAGE: &str = "<!doctype html><html><head><title>T</title><style>p{}</style></head><body><h2>News</h2><p>Hello <a href=\"https://x.test/a\">world</a>.</p><script>alert(1)</script></body></html>";

#[test]
fn webfetch_gets_the_url_and_converts_html_to_markdown_by_default() {
    let http = ScriptedHttp::replies(vec![respond(200, PAGE)]);
    let kit = kit_with(http.clone(), TestClock::never());
    let r = kit.run("webfetch", json!({"url": "https://x.test/page"}));
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(r.output, "## News\n\nHello [world](https://x.test/a).");
    assert_eq!(
        r.metadata.unwrap(),
        json!({"status": 200, "format": "markdown"})
            .as_object()
            .unwrap()
            .clone()
    );
    let sent = http.request(0);
    assert_eq!(sent.url, "https://x.test/page");
    assert!(sent.text.is_empty(), "a GET has no body");
}

#[test]
fn webfetch_text_and_html_formats() {
    let http = ScriptedHttp::replies(vec![respond(200, PAGE), respond(200, PAGE)]);
    let kit = kit_with(http, TestClock::never());
    let text = kit.run(
        "webfetch",
        json!({"url": "https://x.test", "format": "text"}),
    );
    assert_eq!(text.output, "News\n\nHello world.");
    let html = kit.run(
        "webfetch",
        json!({"url": "https://x.test", "format": "html"}),
    );
    assert_eq!(html.output, PAGE);
}

#[test]
fn a_body_that_is_not_html_comes_back_as_it_is() {
    let json_body = r#"{"a": "<b>not html</b> & more"}"#;
    let http = ScriptedHttp::replies(vec![
        respond(200, json_body),
        respond(200, "plain & simple"),
    ]);
    let kit = kit_with(http, TestClock::never());
    assert_eq!(
        kit.run("webfetch", json!({"url": "https://x.test/j"}))
            .output,
        json_body
    );
    let plain = kit.run(
        "webfetch",
        json!({"url": "https://x.test/t", "format": "text"}),
    );
    assert_eq!(plain.output, "plain & simple");
}

#[test]
fn a_non_2xx_status_is_the_error_http_status() {
    let http = ScriptedHttp::replies(vec![respond(404, "<h1>Not here</h1>"), respond(503, "")]);
    let kit = kit_with(http, TestClock::never());
    let r = kit.run("webfetch", json!({"url": "https://x.test/missing"}));
    assert!(r.is_error);
    assert_eq!(r.output, "HTTP 404");
    assert_eq!(r.metadata.unwrap()["status"], json!(404));
    assert_eq!(
        kit.run("webfetch", json!({"url": "https://x.test/busy"}))
            .output,
        "HTTP 503"
    );
}

#[test]
fn network_failures_timeouts_and_bad_arguments_are_error_results() {
    let offline = ScriptedHttp::replies(vec![Err(HttpError::Network("connection refused".into()))]);
    let kit = kit_with(offline, TestClock::never());
    let r = kit.run("webfetch", json!({"url": "https://x.test"}));
    assert_eq!(
        (r.output.as_str(), r.is_error),
        ("webfetch: connection refused", true)
    );
    let hangs = ScriptedHttp::new(vec![Step::HangUntilAborted, Step::HangUntilAborted]);
    let clock = TestClock::instant();
    let kit = kit_with(hangs, clock.clone());
    let r = kit.run("webfetch", json!({"url": "https://x.test", "timeout": 2}));
    assert_eq!(r.output, "webfetch: timed out after 2 s");
    let r = kit.run("webfetch", json!({"url": "https://x.test"}));
    assert_eq!(r.output, "webfetch: timed out after 30 s");
    assert_eq!(*clock.slept.borrow(), vec![2000.0, 30000.0]);
    let r = kit.run(
        "webfetch",
        json!({"url": "https://x.test", "format": "pdf"}),
    );
    assert!(
        r.is_error && r.output.contains("Invalid arguments"),
        "{}",
        r.output
    );
    let r = kit.run("webfetch", json!({"url": ""}));
    assert_eq!(r.output, "webfetch: url is required");
}

#[test]
fn the_converter_renders_structure_as_markdown() {
    let html = r#"<body>
      <h1>Title &amp; more</h1>
      <p>One <strong>bold</strong>, <em>em</em> and <code>x = 1</code>.<br>Next   line.</p>
      <ul><li>first</li><li>second<ul><li>nested</li></ul></li></ul>
      <ol><li>a</li><li>b</li></ol>
      <pre><code>fn main() {
    print!("&lt;hi&gt;");
}</code></pre>
      <blockquote><p>Quoted</p><p>Twice</p></blockquote>
      <table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table>
      <p><img src="/i.png" alt="pic"> <a href="javascript:void(0)">js</a> <b></b><a href="/x"></a></p>
      <hr><p>&#169; &#x263A; &copy; &unknown; &nbsp;end</p>
    </body>"#;
    let want = "# Title & more\n\nOne **bold**, *em* and `x = 1`.\nNext line.\n\n- first\n- second\n  - nested\n\n1. a\n2. b\n\n```\nfn main() {\n    print!(\"<hi>\");\n}\n```\n\n> Quoted\n>\n> Twice\n\nk | v\n1 | 2\n\n![pic](/i.png) js\n\n---\n\n© ☺ © &unknown; end";
    assert_eq!(html_to_markdown(html), want);
}

#[test]
fn the_text_converter_keeps_layout_without_markdown() {
    let html = "<h1>T</h1><p>a <b>b</b> <a href='/x'>c</a></p><ul><li>i</li></ul><pre>  keep\n  spaces</pre><img alt='pic' src='/p.png'>";
    assert_eq!(
        html_to_text(html),
        "T\n\na b c\n\n- i\n\n  keep\n  spaces\n\npic"
    );
}

#[test]
fn broken_html_never_fails() {
    for html in [
        "<",
        "<p",
        "<a href=\"x",
        "<!-- open",
        "</>",
        "<<b>>",
        "a < b > c",
        "<script>never closed",
        "<p><b><i>deep",
    ] {
        let _ = html_to_markdown(html);
        let _ = html_to_text(html);
    }
    assert_eq!(html_to_markdown("a < b > c"), "a < b > c");
    assert_eq!(html_to_markdown("<p><b><i>deep"), "***deep***");
    assert_eq!(
        html_to_markdown("<head><title>x</title><body>shown"),
        "shown"
    );
}
