//! Who the client is to an authorization server, in the order the MCP spec gives: a
//! pre-registered client (`auth.clientId`), a Client ID Metadata Document URL
//! (`auth.clientMetadataUrl`) when the server supports them, a client this store registered
//! with that issuer before, else dynamic client registration (RFC 7591), kept per issuer.

use std::rc::Rc;

use super::config::AuthConfig;
use super::discovery::Metadata;
use super::fetch::Exchange;
use super::store::{client_key, read, write};
use super::token::{oauth_error, ClientCredentials};
use super::url::HttpUrl;
use crate::core::host::TokenStore;
use crate::core::json::value::Value;

/// The client for this issuer, registering one when it must.
pub async fn client_for(
    exchange: &Exchange,
    store: &Rc<dyn TokenStore>,
    config: &AuthConfig,
    issuer: &str,
    metadata: &Metadata,
    scope: Option<&str>,
) -> Result<ClientCredentials, String> {
    if let Some(id) = &config.client_id {
        let method = config
            .token_endpoint_auth_method
            .clone()
            .unwrap_or_else(|| choose_method(metadata, config.client_secret.is_some()).to_owned());
        return Ok(ClientCredentials {
            id: id.clone(),
            secret: config.client_secret.clone(),
            method,
        });
    }
    if let Some(url) = &config.client_metadata_url {
        if metadata.flag("client_id_metadata_document_supported") {
            return Ok(ClientCredentials {
                id: url.clone(),
                secret: None,
                method: "none".into(),
            });
        }
    }
    let redirect = config.redirect_url.as_deref().unwrap_or("");
    let key = client_key(issuer, redirect);
    if let Some(kept) = read(store, &key).await?.as_ref().and_then(from_record) {
        return Ok(kept);
    }
    let Some(endpoint) = metadata.text("registration_endpoint") else {
        return Err(format!(
            "the authorization server {issuer} offers no dynamic client registration; set auth.clientId (a pre-registered client) or auth.clientMetadataUrl"
        ));
    };
    let client = register(exchange, endpoint, config, metadata, scope).await?;
    write(store, &key, &to_record(&client)).await?;
    Ok(client)
}

/// The method for a client without a configured one: `client_secret_basic` when it has a
/// secret and the server takes it (or names none), else `client_secret_post`, else `none`.
///
/// ```
/// # use toolnexus::core::mcp::auth::{discovery::Metadata, register::choose_method};
/// let m = Metadata(toolnexus::json!({"token_endpoint_auth_methods_supported": ["client_secret_post"]}));
/// assert_eq!(choose_method(&m, true), "client_secret_post");
/// assert_eq!(choose_method(&m, false), "none");
/// ```
pub fn choose_method(metadata: &Metadata, has_secret: bool) -> &'static str {
    if !has_secret {
        return "none";
    }
    match metadata.list("token_endpoint_auth_methods_supported") {
        None => "client_secret_basic",
        Some(l) if l.is_empty() => "client_secret_basic",
        Some(l) => ["client_secret_basic", "client_secret_post"]
            .into_iter()
            .find(|m| l.iter().any(|s| s == m))
            .unwrap_or("none"),
    }
}

async fn register(
    exchange: &Exchange,
    endpoint: &str,
    config: &AuthConfig,
    metadata: &Metadata,
    scope: Option<&str>,
) -> Result<ClientCredentials, String> {
    let redirect = config.redirect_url.clone().unwrap_or_default();
    let native = HttpUrl::parse(&redirect).is_none_or(|u| {
        let host = u
            .authority
            .rsplit_once(':')
            .map_or(u.authority.as_str(), |(h, _)| h);
        matches!(host, "localhost" | "127.0.0.1" | "[::1]")
    });
    let mut body = crate::json_value!({
        "client_name": config.client_name.clone().unwrap_or_else(|| "toolnexus-wasm".into()),
        "redirect_uris": [redirect],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "application_type": if native { "native" } else { "web" },
    });
    if let Some(map) = body.as_object_mut() {
        if let Some(method) = &config.token_endpoint_auth_method {
            map.insert(
                "token_endpoint_auth_method".into(),
                Value::String(method.clone()),
            );
        }
        if let Some(scope) = scope {
            map.insert("scope".into(), Value::String(scope.to_owned()));
        }
    }
    let headers = vec![
        ("content-type".to_owned(), "application/json".to_owned()),
        ("accept".to_owned(), "application/json".to_owned()),
    ];
    let answer = exchange
        .send(
            "the client registration",
            "POST",
            endpoint,
            headers,
            Some(crate::core::json::text::to_text(&body)),
        )
        .await?;
    let doc = answer.object();
    if !(200..300).contains(&answer.status) {
        return Err(format!(
            "the client registration at {endpoint} answered HTTP {}{}",
            answer.status,
            oauth_error(doc.as_ref())
        ));
    }
    let doc = doc.ok_or("the client registration's answer is not a JSON object")?;
    let text = |k: &str| {
        doc.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let id = text("client_id").ok_or("the client registration's answer has no client_id")?;
    let secret = text("client_secret");
    let method = text("token_endpoint_auth_method")
        .unwrap_or_else(|| choose_method(metadata, secret.is_some()).to_owned());
    Ok(ClientCredentials { id, secret, method })
}

fn to_record(client: &ClientCredentials) -> Value {
    crate::json_value!({"client_id": client.id, "client_secret": client.secret, "method": client.method})
}

fn from_record(value: &Value) -> Option<ClientCredentials> {
    Some(ClientCredentials {
        id: value.get("client_id")?.as_str()?.to_owned(),
        secret: value
            .get("client_secret")
            .and_then(Value::as_str)
            .map(str::to_owned),
        method: value
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("none")
            .to_owned(),
    })
}
