//! A remote server entry's `auth` block.

use crate::core::json::value::{Map, Value};

/// How a remote server's client signs in (the entry's `auth`; every key optional).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AuthConfig {
    /// `redirectUrl`: where the sign-in comes back to (the authorization-code grant needs it).
    pub redirect_url: Option<String>,
    /// `clientId`: a pre-registered client.
    pub client_id: Option<String>,
    /// `clientSecret`: with `clientId`; `${ENV}` expanded when the server is loaded.
    pub client_secret: Option<String>,
    /// `clientMetadataUrl`: a Client ID Metadata Document URL, the client id where supported.
    pub client_metadata_url: Option<String>,
    /// `clientName`: for dynamic registration.
    pub client_name: Option<String>,
    /// `scope`: overrides the scope discovery picks.
    pub scope: Option<String>,
    /// `tokenEndpointAuthMethod`.
    pub token_endpoint_auth_method: Option<String>,
    /// `grant`: `authorization_code` (the default) or an extension's grant.
    pub grant: String,
    /// The whole block, for extensions' own keys.
    pub raw: Map<String, Value>,
}

/// Reads an `auth` block.
///
/// ```
/// # use toolnexus::core::mcp::auth::config::parse_auth;
/// let a = parse_auth(&toolnexus::json!({"redirectUrl": "http://localhost/cb", "scope": "read"})).unwrap();
/// assert_eq!(a.grant, "authorization_code");
/// assert!(parse_auth(&toolnexus::json!({"scope": 5})).unwrap_err().contains("auth.scope"));
/// ```
pub fn parse_auth(value: &Value) -> Result<AuthConfig, String> {
    let Value::Object(map) = value else {
        return Err(format!(
            "\"auth\" must be an object, got {}",
            crate::core::spec::json_type(value)
        ));
    };
    let text = |key: &str| -> Result<Option<String>, String> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(format!(
                "auth.{key} must be a string, got {}",
                crate::core::spec::json_type(other)
            )),
        }
    };
    let method = text("tokenEndpointAuthMethod")?;
    if let Some(m) = &method {
        const KNOWN: [&str; 4] = [
            "client_secret_basic",
            "client_secret_post",
            "none",
            "private_key_jwt",
        ];
        if !KNOWN.contains(&m.as_str()) {
            return Err(format!(
                "auth.tokenEndpointAuthMethod must be one of {}, got \"{m}\"",
                KNOWN.join(", ")
            ));
        }
    }
    let client_metadata_url = text("clientMetadataUrl")?;
    if let Some(url) = &client_metadata_url {
        if !url.starts_with("https://") || super::url::HttpUrl::parse(url).is_none() {
            return Err("auth.clientMetadataUrl must be an https URL".into());
        }
    }
    Ok(AuthConfig {
        redirect_url: text("redirectUrl")?,
        client_id: text("clientId")?,
        client_secret: text("clientSecret")?,
        client_metadata_url,
        client_name: text("clientName")?,
        scope: text("scope")?,
        token_endpoint_auth_method: method,
        grant: text("grant")?.unwrap_or_else(|| "authorization_code".into()),
        raw: map.clone(),
    })
}
