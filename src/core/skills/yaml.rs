//! Frontmatter YAML through a real YAML parser (`yaml-rust2`'s event parser), resolved with the
//! YAML 1.2 core schema the reference's `yaml` library uses, so block scalars (`|`, `>`, with
//! chomping), quoting, multi-line plain scalars, anchors and aliases all read as they do there.
//! Only the top-level mapping's scalar values are kept, as strings (`String(value)` of JS).

use crate::core::names::Names;
use crate::core::text::JoinWith;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::TScalarStyle;

use crate::core::jsfmt;

/// Why the frontmatter is not valid YAML.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YamlError {
    /// The parser refused it.
    #[error("invalid YAML: {0}")]
    Syntax(String),
    /// A mapping repeats a key.
    #[error("duplicate key \"{0}\"")]
    DuplicateKey(String),
    /// More than one YAML document.
    #[error("more than one YAML document")]
    MultipleDocuments,
}

/// A scalar as the core schema resolves it.
#[derive(Debug, Clone, PartialEq)]
enum Scalar {
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
}

impl Scalar {
    /// `String(value)`; `None` for null.
    fn text(&self) -> Option<String> {
        match self {
            Scalar::Null => None,
            Scalar::Bool(b) => Some(b.to_string()),
            Scalar::Number(n) => Some(jsfmt::number(*n)),
            Scalar::Str(s) => Some(s.clone()),
        }
    }
}

enum Node {
    Scalar(Scalar),
    Collection,
}

/// An open collection while events stream in.
enum Frame {
    Seq,
    /// Keys seen so far (their scalar text) and whether the next node is a key.
    Map {
        keys: Vec<Option<Scalar>>,
        pending_key: Option<Node>,
        entries: Vec<(String, Scalar)>,
    },
}

/// The top-level mapping's scalar values as trimmed strings, in document order (null values,
/// nested collections and non-mapping documents give nothing).
///
/// ```
/// # use toolnexus::core::skills::yaml::top_level_scalars;
/// let got = top_level_scalars("name: pdf\ndescription: >\n  Reads\n  PDFs\nversion: 1.0\n").unwrap();
/// assert_eq!(got, vec![("name".into(), "pdf".into()), ("description".into(), "Reads PDFs".into()),
///     ("version".into(), "1".into())]);
/// assert!(top_level_scalars("name: [unclosed").is_err());
/// ```
pub fn top_level_scalars(text: &str) -> Result<Vec<(String, String)>, YamlError> {
    match scalars_of(text) {
        Err(error) if text.contains(":\t") => scalars_of(&tabs_after_keys(text)).map_err(|_| error),
        result => result,
    }
}

/// `key:<TAB>value` lines with the tabs after the colon made spaces: YAML allows tabs as the
/// separator there (the reference's parser reads them), `yaml-rust2` refuses them. Lines inside
/// a block scalar are content and stay as written. Only used when the text does not parse.
fn tabs_after_keys(text: &str) -> String {
    let mut block: Option<usize> = None;
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        if block.is_some_and(|open| body.is_empty() || indent > open) {
            out.push(line.to_owned());
            continue;
        }
        block = None;
        let key_len = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(body.len());
        let (key, rest) = body.split_at(key_len);
        let value = rest.strip_prefix(':').unwrap_or("");
        let value = value.trim_start_matches([' ', '\t']);
        if key.is_empty() || !rest.starts_with(':') {
            out.push(line.to_owned());
            continue;
        }
        let indicator = value.split('#').next().unwrap_or("").trim_end();
        if indicator.starts_with(['|', '>'])
            && indicator
                .chars()
                .skip(1)
                .all(|c| c == '-' || c == '+' || c.is_ascii_digit())
        {
            block = Some(indent);
        }
        if rest.starts_with(":\t") {
            out.push(format!("{}{key}: {value}", " ".repeat(indent)));
        } else {
            out.push(line.to_owned());
        }
    }
    out.join_with("\n")
}

fn scalars_of(text: &str) -> Result<Vec<(String, String)>, YamlError> {
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: Names<Scalar, usize> = Names::default();
    let mut documents = 0;
    let mut top: Vec<(String, String)> = Vec::new();
    loop {
        let (event, _) = parser
            .next_token()
            .map_err(|e| YamlError::Syntax(e.to_string()))?;
        let node = match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(YamlError::MultipleDocuments);
                }
                continue;
            }
            Event::Scalar(value, style, anchor, tag) => {
                let forced_string = tag.as_ref().is_some_and(|t| t.suffix == "str");
                let scalar = resolve(value, style, forced_string);
                if anchor != 0 {
                    anchors.insert(anchor, scalar.clone());
                }
                Node::Scalar(scalar)
            }
            Event::Alias(id) => match anchors.get(&id) {
                Some(scalar) => Node::Scalar(scalar.clone()),
                None => Node::Collection,
            },
            Event::SequenceStart(..) => {
                stack.push(Frame::Seq);
                continue;
            }
            Event::MappingStart(..) => {
                stack.push(Frame::Map {
                    keys: Vec::new(),
                    pending_key: None,
                    entries: Vec::new(),
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let closed = stack.pop();
                if stack.is_empty() {
                    if let Some(Frame::Map { entries, .. }) = closed {
                        top = entries
                            .into_iter()
                            .filter_map(|(k, v)| v.text().map(|t| (k, jsfmt::trim(&t).to_owned())))
                            .collect();
                    }
                }
                Node::Collection
            }
            _ => continue,
        };
        if let Some(frame) = stack.last_mut() {
            add_node(frame, node)?;
        }
    }
    Ok(top)
}

/// Adds a finished node to the open collection: a key, or the value of the pending key.
fn add_node(frame: &mut Frame, node: Node) -> Result<(), YamlError> {
    let Frame::Map {
        keys,
        pending_key,
        entries,
    } = frame
    else {
        return Ok(());
    };
    match pending_key.take() {
        None => {
            if let Node::Scalar(key) = &node {
                if keys.iter().flatten().any(|k| k == key) {
                    let shown = key.text().unwrap_or_default();
                    return Err(YamlError::DuplicateKey(shown));
                }
                keys.push(Some(key.clone()));
            } else {
                keys.push(None);
            }
            *pending_key = Some(node);
        }
        Some(key) => {
            if let (Node::Scalar(key), Node::Scalar(value)) = (key, node) {
                entries.push((key.text().unwrap_or_default(), value));
            }
        }
    }
    Ok(())
}

/// Resolves one scalar: quoted and block scalars (and `!!str`) are strings; a plain scalar
/// may be null, a boolean or a number under the YAML 1.2 core schema.
fn resolve(value: String, style: TScalarStyle, forced_string: bool) -> Scalar {
    if forced_string || style != TScalarStyle::Plain {
        return Scalar::Str(value);
    }
    match value.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => return Scalar::Null,
        "true" | "True" | "TRUE" => return Scalar::Bool(true),
        "false" | "False" | "FALSE" => return Scalar::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return Scalar::Number(f64::NAN),
        _ => {}
    }
    match core_number(&value) {
        Some(n) => Scalar::Number(n),
        None => Scalar::Str(value),
    }
}

fn digits(s: &str, radix: u32) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_digit(radix))
}

fn radix_value(s: &str, radix: u32) -> f64 {
    s.chars().fold(0.0, |acc, c| {
        acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
    })
}

/// A core-schema int (`0o17`, `0x1F`, `-12`) or float (`1.5`, `.5`, `1e3`, `-.inf`).
fn core_number(text: &str) -> Option<f64> {
    if let Some(octal) = text.strip_prefix("0o").filter(|d| digits(d, 8)) {
        return Some(radix_value(octal, 8));
    }
    if let Some(hex) = text.strip_prefix("0x").filter(|d| digits(d, 16)) {
        return Some(radix_value(hex, 16));
    }
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    let sign = if negative { -1.0 } else { 1.0 };
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(sign * f64::INFINITY);
    }
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (unsigned, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => digits(frac, 10),
        Some((int, frac)) => digits(int, 10) && (frac.is_empty() || digits(frac, 10)),
        None => digits(mantissa, 10),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.trim_start_matches(['-', '+']), 10))
        && exponent.is_none_or(|e| e.matches(['-', '+']).count() <= 1);
    if !(mantissa_ok && exponent_ok) {
        return None;
    }
    unsigned.parse::<f64>().ok().map(|n| sign * n)
}
