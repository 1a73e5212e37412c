//! A forgiving HTML tokenizer: text (entities decoded), start tags with attributes, end tags.
//! Comments, doctypes and the contents of `<script>` / `<style>` are dropped here.

/// One piece of an HTML document.
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// Text, entities decoded, whitespace as written.
    Text(String),
    /// A start tag; `name` is lower-case.
    Open {
        name: String,
        attrs: Vec<(String, String)>,
    },
    /// An end tag; `name` is lower-case.
    Close(String),
}

/// Elements whose contents are never text for a reader.
const RAW: [&str; 2] = ["script", "style"];

/// Splits `html` into tokens; anything that is not a well-formed tag is text.
pub fn tokenize(html: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            tokens.push(Token::Text(decode(rest)));
            break;
        };
        if let Some(text) = rest.get(..lt).filter(|t| !t.is_empty()) {
            tokens.push(Token::Text(decode(text)));
        }
        rest = rest.get(lt..).unwrap_or_default();
        if rest.starts_with("<!--") {
            rest = after(rest, "-->");
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            rest = after(rest, ">");
            continue;
        }
        match tag(rest) {
            Some((token, used)) => {
                rest = rest.get(used..).unwrap_or_default();
                if let Token::Open { name, .. } = &token {
                    if RAW.contains(&name.as_str()) {
                        rest = after_close(rest, name);
                        continue;
                    }
                }
                tokens.push(token);
            }
            None => {
                tokens.push(Token::Text("<".into()));
                rest = rest.get(1..).unwrap_or_default();
            }
        }
    }
    tokens
}

/// What follows the first `end` in `s` (nothing when there is none).
fn after<'a>(s: &'a str, end: &str) -> &'a str {
    match s.find(end) {
        Some(at) => s.get(at + end.len()..).unwrap_or_default(),
        None => "",
    }
}

/// What follows `</name …>` (case-insensitive), skipping everything before it.
fn after_close<'a>(s: &'a str, name: &str) -> &'a str {
    let lower = s.to_ascii_lowercase();
    match lower.find(&format!("</{name}")) {
        Some(at) => after(s.get(at..).unwrap_or_default(), ">"),
        None => "",
    }
}

/// Parses the tag at the start of `s` (which starts with `<`): the token and bytes used.
fn tag(s: &str) -> Option<(Token, usize)> {
    let bytes = s.as_bytes();
    let mut i = 1;
    let closing = bytes.get(i) == Some(&b'/');
    if closing {
        i += 1;
    }
    if !bytes.get(i)?.is_ascii_alphabetic() {
        return None;
    }
    let start = i;
    while bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'-')
    {
        i += 1;
    }
    let name = s.get(start..i)?.to_ascii_lowercase();
    let mut attrs = Vec::new();
    loop {
        while bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            i += 1;
        }
        match bytes.get(i)? {
            b'>' => break,
            _ => {
                let key_start = i;
                while bytes
                    .get(i)
                    .is_some_and(|b| !b.is_ascii_whitespace() && !b"=>/".contains(b))
                {
                    i += 1;
                }
                let key = s.get(key_start..i)?.to_ascii_lowercase();
                let mut value = String::new();
                if bytes.get(i) == Some(&b'=') {
                    i += 1;
                    let (raw, next) = attr_value(s, i)?;
                    value = decode(raw);
                    i = next;
                }
                if !key.is_empty() {
                    attrs.push((key, value));
                }
            }
        }
    }
    let token = if closing {
        Token::Close(name)
    } else {
        Token::Open { name, attrs }
    };
    Some((token, i + 1))
}

/// An attribute value starting at byte `i`: quoted or bare. Returns it and the next index.
fn attr_value(s: &str, i: usize) -> Option<(&str, usize)> {
    let bytes = s.as_bytes();
    match bytes.get(i)? {
        quote @ (b'"' | b'\'') => {
            let len = s.get(i + 1..)?.find(char::from(*quote))?;
            Some((s.get(i + 1..i + 1 + len)?, i + len + 2))
        }
        _ => {
            let mut end = i;
            while bytes
                .get(end)
                .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>')
            {
                end += 1;
            }
            Some((s.get(i..end)?, end))
        }
    }
}

/// Decodes character references: the common named ones and every numeric one.
pub fn decode(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(rest.get(..amp).unwrap_or_default());
        rest = rest.get(amp..).unwrap_or_default();
        let semi = rest
            .get(..12.min(rest.len()))
            .and_then(|head| head.find(';'));
        let decoded = semi.and_then(|semi| entity(rest.get(1..semi)?).map(|c| (c, semi)));
        match decoded {
            Some((c, semi)) => {
                out.push(c);
                rest = rest.get(semi + 1..).unwrap_or_default();
            }
            None => {
                out.push('&');
                rest = rest.get(1..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        return char::from_u32(code);
    }
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "mdash" => '—',
        "ndash" => '–',
        "hellip" => '…',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "laquo" => '«',
        "raquo" => '»',
        "middot" => '·',
        "bull" => '•',
        "times" => '×',
        "euro" => '€',
        _ => return None,
    };
    Some(c)
}
