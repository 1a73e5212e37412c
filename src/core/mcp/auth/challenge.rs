//! A `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3, RFC 9728 §5.1): the protected
//! resource metadata URL, the scope the server asks for, and the error.

/// What a 401 or 403 said.
///
/// ```
/// use toolnexus::core::mcp::auth::challenge::Challenge;
/// let c = Challenge::parse(r#"Bearer error="insufficient_scope", scope="a b", resource_metadata="https://r/.well-known/oauth-protected-resource""#);
/// assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
/// assert_eq!(c.scope.as_deref(), Some("a b"));
/// assert!(c.resource_metadata.unwrap().starts_with("https://r/"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// `resource_metadata`, as given (checked where it is used).
    pub resource_metadata: Option<String>,
    /// `scope`.
    pub scope: Option<String>,
    /// `error` (`invalid_token`, `insufficient_scope`, …).
    pub error: Option<String>,
}

impl Challenge {
    /// Reads the parameters of the `Bearer` challenge of a header value (the first challenge
    /// when there is no `Bearer` one); unknown parameters and bad syntax are skipped.
    pub fn parse(header: &str) -> Challenge {
        let mut out = Challenge::default();
        for (name, value) in params(header) {
            let slot = match name.to_ascii_lowercase().as_str() {
                "resource_metadata" => &mut out.resource_metadata,
                "scope" => &mut out.scope,
                "error" => &mut out.error,
                _ => continue,
            };
            if slot.is_none() && !value.is_empty() {
                *slot = Some(value);
            }
        }
        out
    }
}

/// `name=value` pairs of the header, a quoted value unescaped; the scheme word skipped.
fn params(header: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = header.trim();
    // The scheme (`Bearer`), when the header starts with one.
    if let Some((first, after)) = rest.split_once(' ') {
        if !first.contains('=') {
            rest = after;
        }
    }
    loop {
        rest = rest.trim_start_matches([' ', ',', '\t']);
        let Some(eq) = rest.find('=') else { break };
        let name = rest.get(..eq).unwrap_or("").trim();
        // A new challenge (`Basic realm=…`) ends the Bearer one.
        if name.contains(' ') {
            break;
        }
        rest = rest.get(eq + 1..).unwrap_or("").trim_start();
        let value;
        if let Some(quoted) = rest.strip_prefix('"') {
            let mut text = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((at, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, next)) = chars.next() {
                            text.push(next);
                        }
                    }
                    '"' => {
                        end = at + 1;
                        break;
                    }
                    c => text.push(c),
                }
            }
            value = text;
            rest = quoted.get(end..).unwrap_or("");
        } else {
            let end = rest.find([',', ' ']).unwrap_or(rest.len());
            value = rest.get(..end).unwrap_or("").to_owned();
            rest = rest.get(end..).unwrap_or("");
        }
        if !name.is_empty() {
            out.push((name.to_owned(), value));
        }
    }
    out
}
