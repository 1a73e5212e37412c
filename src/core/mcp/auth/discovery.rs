//! Finding the authorization server of an MCP server: its protected resource metadata
//! (RFC 9728: the URL a 401 names in `resource_metadata`, else the path-based then the root
//! well-known URL), the resource it names checked against the server's URL, then the
//! authorization server's metadata (RFC 8414 and OpenID Connect discovery, path-aware), and,
//! for a 2025-03-26 server without resource metadata, the server's origin as the
//! authorization server with its default endpoints.

use super::challenge::Challenge;
use super::fetch::Exchange;
use super::url::HttpUrl;
use crate::core::json::value::Value;

/// The key of the made-up metadata of the 2025-03-26 default endpoints: why they were used.
pub const FALLBACK: &str = "toolnexus_fallback";

/// What discovery found.
#[derive(Debug, Clone)]
pub struct Discovered {
    /// The issuer identifier the metadata was looked up from.
    pub issuer: String,
    /// The resource (RFC 8707) to ask tokens for; `None` for a 2025-03-26 server.
    pub resource: Option<String>,
    /// The resource's `scopes_supported`.
    pub resource_scopes: Option<Vec<String>>,
    /// The authorization server's metadata (its endpoints; defaults for an old server).
    pub metadata: Metadata,
}

/// An authorization server's metadata document, read through its accessors.
#[derive(Debug, Clone)]
pub struct Metadata(pub Value);

impl Metadata {
    /// A string field.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.0
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    }

    /// A list-of-strings field.
    pub fn list(&self, key: &str) -> Option<Vec<String>> {
        let items = self.0.get(key)?.as_array()?;
        Some(
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
        )
    }

    /// Whether a list field names `word`.
    pub fn lists(&self, key: &str, word: &str) -> bool {
        self.list(key).is_some_and(|l| l.iter().any(|w| w == word))
    }

    /// A boolean field, `false` when absent.
    pub fn flag(&self, key: &str) -> bool {
        self.0.get(key).and_then(Value::as_bool) == Some(true)
    }
}

/// The URLs where the protected resource metadata may be, in order.
///
/// ```
/// # use toolnexus::core::mcp::auth::{challenge::Challenge, discovery::resource_metadata_urls};
/// let urls = resource_metadata_urls("https://h/mcp", &Challenge::default());
/// assert_eq!(urls, ["https://h/.well-known/oauth-protected-resource/mcp", "https://h/.well-known/oauth-protected-resource"]);
/// ```
pub fn resource_metadata_urls(server: &str, challenge: &Challenge) -> Vec<String> {
    let mut urls = Vec::new();
    if let Some(named) = challenge
        .resource_metadata
        .as_deref()
        .filter(|u| HttpUrl::parse(u).is_some())
    {
        urls.push(named.to_owned());
    }
    if let Some(url) = HttpUrl::parse(server) {
        let origin = url.origin();
        let path = url.path.trim_end_matches('/');
        if !path.is_empty() {
            urls.push(format!(
                "{origin}/.well-known/oauth-protected-resource{path}"
            ));
        }
        urls.push(format!("{origin}/.well-known/oauth-protected-resource"));
    }
    urls.dedup();
    urls
}

/// The URLs where an issuer's metadata may be, in order (RFC 8414 §3.1, then OpenID Connect
/// discovery in both of its placements for an issuer with a path).
///
/// ```
/// # use toolnexus::core::mcp::auth::discovery::metadata_urls;
/// assert_eq!(metadata_urls("https://as/tenant1").unwrap(), [
///     "https://as/.well-known/oauth-authorization-server/tenant1",
///     "https://as/.well-known/openid-configuration/tenant1",
///     "https://as/tenant1/.well-known/openid-configuration"]);
/// assert_eq!(metadata_urls("https://as").unwrap().len(), 2);
/// ```
pub fn metadata_urls(issuer: &str) -> Option<Vec<String>> {
    let url = HttpUrl::parse(issuer)?;
    let origin = url.origin();
    let path = url.path.trim_end_matches('/');
    Some(if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    })
}

/// Whether a resource metadata's `resource` may stand for the server at `server`: same
/// origin, and the server's path within the resource's (RFC 9728 §3.3, RFC 8707).
///
/// ```
/// # use toolnexus::core::mcp::auth::discovery::resource_matches;
/// assert!(resource_matches("https://h/mcp", "https://h/mcp"));
/// assert!(resource_matches("https://h/", "https://h/mcp"));
/// assert!(!resource_matches("https://evil.example.com/mcp", "https://h/mcp"));
/// assert!(!resource_matches("https://h/other", "https://h/mcp"));
/// ```
pub fn resource_matches(resource: &str, server: &str) -> bool {
    let (Some(r), Some(s)) = (HttpUrl::parse(resource), HttpUrl::parse(server)) else {
        return false;
    };
    if r.origin() != s.origin() {
        return false;
    }
    let rp = r.path.trim_end_matches('/');
    let sp = s.path.trim_end_matches('/');
    sp == rp || sp.starts_with(&format!("{rp}/"))
}

/// Runs discovery for the server at `server` after `challenge`.
pub async fn discover(
    exchange: &Exchange,
    server: &str,
    challenge: &Challenge,
) -> Result<Discovered, String> {
    let mut problems: Vec<String> = Vec::new();
    if let Some(named) = &challenge.resource_metadata {
        if HttpUrl::parse(named).is_none() {
            problems.push(format!(
                "the WWW-Authenticate resource_metadata \"{}\" is not an http(s) URL",
                clip(named)
            ));
        }
    }
    let urls = resource_metadata_urls(server, challenge);
    let what = "the protected resource metadata request";
    let resource_doc = first_document(exchange, what, urls, &mut problems).await?;
    let Some((_, doc)) = resource_doc else {
        // A 2025-03-26 server: its origin is the authorization server.
        return legacy(exchange, server, &problems).await;
    };
    let resource = doc.get("resource").and_then(Value::as_str).unwrap_or("");
    if !resource_matches(resource, server) {
        return Err(format!(
            "the protected resource metadata names the resource \"{}\", which is not this server ({server}); refusing to authorize for it",
            clip(resource)
        ));
    }
    let meta = Metadata(doc.clone());
    let Some(issuer) = meta
        .list("authorization_servers")
        .and_then(|l| l.into_iter().next())
    else {
        return Err("the protected resource metadata names no authorization_servers".into());
    };
    let metadata = authorization_server(exchange, &issuer).await?;
    Ok(Discovered {
        issuer,
        resource: Some(resource.to_owned()),
        resource_scopes: meta.list("scopes_supported"),
        metadata,
    })
}

/// The metadata of `issuer`, checked to name it (RFC 8414 §3.3).
pub async fn authorization_server(exchange: &Exchange, issuer: &str) -> Result<Metadata, String> {
    let urls = metadata_urls(issuer).ok_or_else(|| {
        format!(
            "the authorization server \"{}\" is not an http(s) URL",
            clip(issuer)
        )
    })?;
    let mut problems = Vec::new();
    let what = "the authorization server metadata request";
    let Some((url, doc)) = first_document(exchange, what, urls, &mut problems).await? else {
        return Err(format!(
            "no authorization server metadata for {issuer} ({})",
            problems.join("; ")
        ));
    };
    let metadata = Metadata(doc);
    let named = metadata.text("issuer").unwrap_or("");
    if named != issuer {
        return Err(format!(
            "the authorization server metadata at {url} names the issuer \"{}\", not \"{issuer}\"; refusing it",
            clip(named)
        ));
    }
    has_endpoints(&metadata, &url)?;
    Ok(metadata)
}

/// Refuses metadata without an http(s) token endpoint, or with an authorization endpoint that
/// is not http(s). A server for grants without a person may leave the authorization endpoint
/// out (RFC 8414 §2); the sign-in refuses such metadata when it needs one.
fn has_endpoints(metadata: &Metadata, url: &str) -> Result<(), String> {
    for (key, required) in [("authorization_endpoint", false), ("token_endpoint", true)] {
        let value = metadata.text(key);
        if (required || value.is_some()) && value.and_then(HttpUrl::parse).is_none() {
            return Err(format!(
                "the authorization server metadata at {url} has no http(s) {key}"
            ));
        }
    }
    Ok(())
}

/// The first of `urls` that answers 2xx with a JSON object, with its URL; each one that does
/// not is noted in `problems`. A network failure or timeout is an error.
async fn first_document(
    exchange: &Exchange,
    what: &str,
    urls: Vec<String>,
    problems: &mut Vec<String>,
) -> Result<Option<(String, Value)>, String> {
    for url in urls {
        let answer = exchange.get(what, &url).await?;
        if !(200..300).contains(&answer.status) {
            problems.push(format!("{url}: HTTP {}", answer.status));
            continue;
        }
        match answer.object() {
            Some(doc) => return Ok(Some((url, doc))),
            None => problems.push(format!("{url}: not a JSON object")),
        }
    }
    Ok(None)
}

/// 2025-03-26: no resource metadata; the server's origin is the authorization server, its
/// metadata at the root well-known URL, else `/authorize`, `/token` and `/register`.
async fn legacy(
    exchange: &Exchange,
    server: &str,
    problems: &[String],
) -> Result<Discovered, String> {
    let origin = HttpUrl::parse(server)
        .map(|u| u.origin())
        .ok_or_else(|| format!("the server URL {server} is not an http(s) URL"))?;
    let url = format!("{origin}/.well-known/oauth-authorization-server");
    let answer = exchange
        .get("the authorization server metadata request", &url)
        .await?;
    let metadata = match answer.object() {
        Some(doc) if (200..300).contains(&answer.status) => {
            let metadata = Metadata(doc);
            has_endpoints(&metadata, &url)?;
            metadata
        }
        _ if answer.status == 404 => Metadata(crate::json_value!({
            "issuer": origin,
            "authorization_endpoint": format!("{origin}/authorize"),
            "token_endpoint": format!("{origin}/token"),
            "registration_endpoint": format!("{origin}/register"),
            "toolnexus_fallback": format!(
                "no protected resource metadata ({}) and no authorization server metadata ({url}: HTTP 404), so the 2025-03-26 default endpoints at {origin} were used",
                problems.join("; ")
            ),
        })),
        _ => {
            return Err(format!(
                "no protected resource metadata ({}) and no authorization server metadata at {url} (HTTP {})",
                problems.join("; "),
                answer.status
            ))
        }
    };
    Ok(Discovered {
        issuer: origin,
        resource: None,
        resource_scopes: None,
        metadata,
    })
}

fn clip(text: &str) -> String {
    text.chars().take(200).collect()
}
