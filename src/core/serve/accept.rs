//! Reading an HTTP `Accept` header (RFC 9110 §12.5.1) far enough to pick between the two
//! answers a streamable-HTTP server has: one JSON object or an event stream.

/// The form a JSON-RPC answer takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// `application/json`: the response object as the body.
    Json,
    /// `text/event-stream`: one `message` event carrying the response.
    EventStream,
}

/// The answer `accept` prefers: the higher quality wins, JSON on a tie (one object, nothing
/// to stream); no header, or `*/*`, is JSON; `None` when it takes neither (a 406).
///
/// ```
/// # use toolnexus::core::serve::accept::{choose, Answer};
/// assert_eq!(choose(Some("application/json, text/event-stream")), Some(Answer::Json));
/// assert_eq!(choose(Some("text/event-stream")), Some(Answer::EventStream));
/// assert_eq!(choose(Some("application/json;q=0.5, text/event-stream")), Some(Answer::EventStream));
/// assert_eq!(choose(Some("text/html")), None);
/// ```
pub fn choose(accept: Option<&str>) -> Option<Answer> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return Some(Answer::Json);
    };
    let json = quality(accept, "application", "json");
    let stream = quality(accept, "text", "event-stream");
    if json <= 0.0 && stream <= 0.0 {
        None
    } else if stream > json {
        Some(Answer::EventStream)
    } else {
        Some(Answer::Json)
    }
}

/// The quality `accept` gives `kind/sub`: the most specific range that matches decides.
fn quality(accept: &str, kind: &str, sub: &str) -> f64 {
    let mut best: Option<(u8, f64)> = None;
    for range in accept.split(',') {
        let mut pieces = range.split(';');
        let media = pieces.next().unwrap_or_default().trim();
        let (k, s) = media.split_once('/').unwrap_or((media, ""));
        let specificity = match (k.trim(), s.trim()) {
            ("*", "*") => 1,
            (k, "*") if k.eq_ignore_ascii_case(kind) => 2,
            (k, s) if k.eq_ignore_ascii_case(kind) && s.eq_ignore_ascii_case(sub) => 3,
            _ => continue,
        };
        let q = pieces
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f64>().ok())
            .unwrap_or(1.0)
            .clamp(0.0, 1.0);
        if best.is_none_or(|(at, _)| specificity > at) {
            best = Some((specificity, q));
        }
    }
    best.map_or(0.0, |(_, q)| q)
}
