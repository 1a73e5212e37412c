//! The little URL handling OAuth needs: an http(s) URL's origin and path, a query read or
//! added, and `application/x-www-form-urlencoded` bodies (through `form_urlencoded`).

/// An absolute `http:` or `https:` URL split into its parts (no normalisation beyond a lower-case
/// scheme and host).
///
/// ```
/// use toolnexus::core::mcp::auth::url::HttpUrl;
/// let u = HttpUrl::parse("https://Example.com:8443/a/b?x=1#f").unwrap();
/// assert_eq!(u.origin(), "https://example.com:8443");
/// assert_eq!(u.path, "/a/b");
/// assert_eq!(u.query.as_deref(), Some("x=1"));
/// assert!(HttpUrl::parse("ftp://x").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl {
    /// `http` or `https`.
    pub scheme: String,
    /// Host and port, lower case.
    pub authority: String,
    /// The path, `/` when there is none.
    pub path: String,
    /// The query without its `?`.
    pub query: Option<String>,
}

impl HttpUrl {
    /// Reads `text`, `None` when it is not an absolute http(s) URL with a host.
    pub fn parse(text: &str) -> Option<HttpUrl> {
        let (scheme, rest) = text.trim().split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let rest = rest.split('#').next().unwrap_or("");
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        if authority.is_empty() || authority.contains(['@', ' ']) {
            return None;
        }
        let (path, query) = match tail.split_once('?') {
            Some((path, query)) => (path, Some(query.to_owned())),
            None => (tail, None),
        };
        Some(HttpUrl {
            scheme,
            authority: authority.to_ascii_lowercase(),
            path: if path.is_empty() {
                "/".into()
            } else {
                path.into()
            },
            query,
        })
    }

    /// `scheme://authority`.
    pub fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }

    /// The value of query parameter `name`, decoded.
    ///
    /// ```
    /// # use toolnexus::core::mcp::auth::url::HttpUrl;
    /// let u = HttpUrl::parse("http://h/cb?code=a%2Bb&state=s").unwrap();
    /// assert_eq!(u.param("code").as_deref(), Some("a+b"));
    /// assert_eq!(u.param("iss"), None);
    /// ```
    pub fn param(&self, name: &str) -> Option<String> {
        let query = self.query.as_deref()?;
        form_urlencoded::parse(query.as_bytes())
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    }
}

/// `pairs` as `application/x-www-form-urlencoded` text.
///
/// ```
/// # use toolnexus::core::mcp::auth::url::form;
/// assert_eq!(form(&[("a", "x y"), ("b", "1&2")]), "a=x+y&b=1%262");
/// ```
pub fn form(pairs: &[(&str, &str)]) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        out.append_pair(k, v);
    }
    out.finish()
}

/// `base` with `pairs` added to its query.
///
/// ```
/// # use toolnexus::core::mcp::auth::url::with_query;
/// assert_eq!(with_query("https://as/authorize", &[("a", "1")]), "https://as/authorize?a=1");
/// assert_eq!(with_query("https://as/authorize?t=x", &[("a", "1")]), "https://as/authorize?t=x&a=1");
/// ```
pub fn with_query(base: &str, pairs: &[(&str, &str)]) -> String {
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}{}", form(pairs))
}
