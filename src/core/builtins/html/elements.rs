//! What each HTML element does to the output: block breaks, markdown marks, list bullets,
//! code fences, quotes and table cells.

use super::{attr, Writer, LINE, PARAGRAPH, VOID};
use crate::core::text::JoinWith;

impl Writer {
    pub(super) fn open(&mut self, name: &str, attrs: &[(String, String)]) {
        match name {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.block(2);
                let level = name.get(1..).and_then(|n| n.parse().ok()).unwrap_or(1);
                self.mark(name, format!("{} ", "#".repeat(level)), String::new());
            }
            "a" => {
                let href = attr(attrs, "href");
                if href.is_empty() || href.starts_with("javascript:") {
                    return;
                }
                self.mark(name, "[".into(), format!("]({href})"));
            }
            "b" | "strong" => self.mark(name, "**".into(), "**".into()),
            "i" | "em" => self.mark(name, "*".into(), "*".into()),
            "code" | "kbd" | "samp" if self.pre == 0 => self.mark(name, "`".into(), "`".into()),
            "img" => {
                let (src, alt) = (attr(attrs, "src"), attr(attrs, "alt"));
                match (self.plain, src.is_empty()) {
                    (true, _) if !alt.is_empty() => self.put(alt),
                    (false, false) => self.put(&format!("![{alt}]({src})")),
                    _ => {}
                }
            }
            "br" => {
                self.flush();
                let trimmed = self.out.trim_end_matches([' ', '\t']).len();
                self.out.truncate(trimmed);
                self.out.push('\n');
                self.space = false;
            }
            "hr" => {
                self.block(2);
                if !self.plain {
                    self.put("---");
                }
                self.block(2);
            }
            "pre" => {
                self.block(2);
                if !self.plain {
                    self.put("```\n");
                }
                self.pre += 1;
            }
            "blockquote" => {
                self.block(2);
                self.flush();
                self.quotes.push(self.out.len());
            }
            "ul" | "ol" => {
                self.block(if self.lists.is_empty() { 2 } else { 1 });
                self.lists.push((name == "ol").then_some(0));
            }
            "li" => {
                self.block(1);
                let indent = "  ".repeat(self.lists.len().saturating_sub(1));
                let bullet = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{n}. ")
                    }
                    _ => "- ".to_owned(),
                };
                self.put(&format!("{indent}{bullet}"));
            }
            "tr" => {
                self.block(1);
                self.cells = 0;
            }
            "td" | "th" => {
                if self.cells > 0 {
                    self.put(" | ");
                }
                self.cells += 1;
            }
            _ if PARAGRAPH.contains(&name) => self.block(2),
            _ if LINE.contains(&name) => self.block(1),
            _ => {}
        }
    }

    pub(super) fn close(&mut self, name: &str) {
        if VOID.contains(&name) {
            return;
        }
        if self.marks.iter().any(|m| m.tag == name) {
            while let Some(mark) = self.marks.pop() {
                let done = mark.tag == name;
                self.end_mark(mark);
                if done {
                    break;
                }
            }
        }
        match name {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "hr" => self.block(2),
            "pre" if self.pre > 0 => {
                self.pre -= 1;
                if !self.plain {
                    if !self.out.ends_with('\n') {
                        self.out.push('\n');
                    }
                    self.out.push_str("```");
                }
                self.block(2);
            }
            "blockquote" => self.close_quote(),
            "ul" | "ol" => {
                self.lists.pop();
                self.block(if self.lists.is_empty() { 2 } else { 1 });
            }
            _ if PARAGRAPH.contains(&name) => self.block(2),
            _ if LINE.contains(&name) || name == "li" => self.block(1),
            _ => {}
        }
    }

    fn close_quote(&mut self) {
        let Some(start) = self.quotes.pop() else {
            return;
        };
        if !self.plain && start <= self.out.len() {
            let inner = self.out.split_off(start);
            let quoted: Vec<String> = inner
                .trim_end()
                .lines()
                .map(|l| {
                    if l.is_empty() {
                        ">".into()
                    } else {
                        format!("> {l}")
                    }
                })
                .collect();
            self.out.push_str(&quoted.join_with("\n"));
        }
        self.block(2);
    }
}
