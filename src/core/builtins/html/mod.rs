//! HTML to readable markdown (or plain text) for `webfetch`: headings, paragraphs, links,
//! emphasis, lists, code, quotes, tables as `a | b` rows; scripts, styles and `<head>` dropped.
//!
//! ```
//! use toolnexus::core::builtins::{html_to_markdown, html_to_text};
//! let html = "<h1>Title</h1><p>See <a href=\"/x\">this</a> &amp; <b>that</b>.</p><script>x()</script>";
//! assert_eq!(html_to_markdown(html), "# Title\n\nSee [this](/x) & **that**.");
//! assert_eq!(html_to_text(html), "Title\n\nSee this & that.");
//! ```

mod elements;
mod tokens;

use crate::core::text::JoinWith;
use tokens::{tokenize, Token};

const SKIP: [&str; 7] = [
    "head", "noscript", "template", "svg", "iframe", "object", "select",
];
const PARAGRAPH: [&str; 8] = ["p", "table", "dl", "figure", "form", "details", "ul", "ol"];
const LINE: [&str; 16] = [
    "div",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "aside",
    "nav",
    "tr",
    "dt",
    "dd",
    "figcaption",
    "address",
    "summary",
    "caption",
    "fieldset",
];
const VOID: [&str; 12] = [
    "br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source", "wbr",
];

/// `html` as markdown.
pub fn html_to_markdown(html: &str) -> String {
    render(html, false)
}

/// `html` as plain text: the same layout without markdown syntax.
pub fn html_to_text(html: &str) -> String {
    render(html, true)
}

struct Mark {
    tag: String,
    open: String,
    close: String,
    start: Option<usize>,
}

#[derive(Default)]
struct Writer {
    out: String,
    plain: bool,
    breaks: usize,
    space: bool,
    marks: Vec<Mark>,
    skip: Vec<String>,
    lists: Vec<Option<u32>>,
    quotes: Vec<usize>,
    pre: usize,
    cells: usize,
}

fn render(html: &str, plain: bool) -> String {
    let mut w = Writer {
        plain,
        ..Writer::default()
    };
    for token in tokenize(html) {
        match token {
            Token::Text(text) if w.skip.is_empty() => w.text(&text),
            Token::Open { name, .. } if name == "body" => w.skip.clear(),
            Token::Open { name, .. } if !w.skip.is_empty() || SKIP.contains(&name.as_str()) => {
                if SKIP.contains(&name.as_str()) {
                    w.skip.push(name);
                }
            }
            Token::Close(name) if !w.skip.is_empty() => {
                if w.skip.last() == Some(&name) {
                    w.skip.pop();
                }
            }
            Token::Open { name, attrs } => w.open(&name, &attrs),
            Token::Close(name) => w.close(&name),
            Token::Text(_) => {}
        }
    }
    while let Some(mark) = w.marks.pop() {
        w.end_mark(mark);
    }
    tidy(&w.out)
}

fn attr<'a>(attrs: &'a [(String, String)], key: &str) -> &'a str {
    attrs
        .iter()
        .find(|(k, _)| k == key)
        .map_or("", |(_, v)| v.as_str())
}

impl Writer {
    fn block(&mut self, n: usize) {
        self.breaks = self.breaks.max(n);
        self.space = false;
    }

    fn flush(&mut self) {
        if self.breaks > 0 && !self.out.is_empty() {
            let trimmed = self.out.trim_end_matches([' ', '\t']).len();
            self.out.truncate(trimmed);
            let have = self.out.len() - self.out.trim_end_matches('\n').len();
            for _ in have..self.breaks {
                self.out.push('\n');
            }
        }
        self.breaks = 0;
    }

    /// Writes inline content: pending breaks, a pending space, unopened marks, then `s`.
    fn put(&mut self, s: &str) {
        self.flush();
        if self.space && !self.out.is_empty() && !self.out.ends_with(char::is_whitespace) {
            self.out.push(' ');
        }
        self.space = false;
        for mark in self.marks.iter_mut().filter(|m| m.start.is_none()) {
            mark.start = Some(self.out.len());
            self.out.push_str(&mark.open);
        }
        self.out.push_str(s);
    }

    fn text(&mut self, text: &str) {
        if self.pre > 0 {
            self.put(text);
            return;
        }
        for (i, word) in text.split(char::is_whitespace).enumerate() {
            if i > 0 {
                self.space = true;
            }
            if !word.is_empty() {
                self.put(word);
            }
        }
    }

    fn mark(&mut self, tag: &str, open: String, close: String) {
        let (open, close) = if self.plain {
            (String::new(), String::new())
        } else {
            (open, close)
        };
        self.marks.push(Mark {
            tag: tag.to_owned(),
            open,
            close,
            start: None,
        });
    }

    fn end_mark(&mut self, mark: Mark) {
        let Some(start) = mark.start else { return };
        if mark.tag == "a" {
            let inner = self.out.split_off(start);
            self.out.push_str(inner.replace('\n', " ").trim_end());
        }
        if !mark.close.is_empty() {
            let trimmed = self.out.trim_end().len();
            self.out.truncate(trimmed);
        }
        self.out.push_str(&mark.close);
    }
}

/// Trims every line's end, keeps at most one blank line in a row, trims the whole.
fn tidy(out: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    let mut blank = 0;
    for line in out.lines().map(str::trim_end) {
        blank = if line.is_empty() { blank + 1 } else { 0 };
        if blank < 2 {
            lines.push(line);
        }
    }
    lines.join_with("\n").trim().to_owned()
}
