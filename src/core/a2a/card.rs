//! Reading an Agent Card (SPEC §7A resolve): the agent's name, its skills, the JSON-RPC
//! endpoint, and which dialect of the wire it speaks. The reference's minimal card has a
//! top-level `url`; an A2A 1.0 card lists `supportedInterfaces` instead, each with a
//! `protocolBinding` and a `protocolVersion`.

use crate::core::json::value::Value;
use crate::core::spec::json_type;

/// Which shape of the wire an agent speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// The reference's subset: `role: "user"`, parts `{kind: "text", text}`,
    /// `configuration: {blocking: false}`.
    Reference,
    /// A2A 1.0 over JSON-RPC, as the official SDKs speak it: the `A2A-Version: 1.0` header,
    /// `role: "ROLE_USER"`, parts `{text}`, `configuration: {returnImmediately: true}`.
    V1,
}

/// One advertised skill.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// `id`, else `name` (the tool name's second half).
    pub id: String,
    /// `description`, else `name`, else the id.
    pub description: String,
}

/// What a card says that the tools need.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// `name` (`"agent"` when absent): the tool name prefix.
    pub name: String,
    /// Where JSON-RPC requests go.
    pub endpoint: String,
    /// The wire shape.
    pub dialect: Dialect,
    /// The skills, in card order.
    pub skills: Vec<Skill>,
}

/// Reads card `text`, fetched from `card_url`. The endpoint is the card's `url`, else the
/// `url` of its JSON-RPC interface, else the card URL's origin.
///
/// ```
/// # use toolnexus::core::a2a::card::{read_card, Dialect};
/// let card = read_card(r#"{"name":"reviewer","skills":[{"id":"review","description":"Review code"}]}"#,
///     "http://127.0.0.1:8000/.well-known/agent-card.json").unwrap();
/// assert_eq!(card.endpoint, "http://127.0.0.1:8000");
/// assert_eq!((card.name.as_str(), card.dialect), ("reviewer", Dialect::Reference));
/// assert_eq!(card.skills[0].id, "review");
/// ```
pub fn read_card(text: &str, card_url: &str) -> Result<Card, String> {
    let value: Value = crate::core::json::parse::from_str(text).map_err(|e| {
        format!(
            "the Agent Card is not JSON ({e}): {}",
            super::wire::clip(text)
        )
    })?;
    let Value::Object(card) = &value else {
        return Err(format!(
            "the Agent Card must be a JSON object, got {}",
            json_type(&value)
        ));
    };
    let name = match card.get("name") {
        Some(Value::String(name)) => name.clone(),
        None | Some(Value::Null) => "agent".to_owned(),
        Some(other) => {
            return Err(format!(
                "the Agent Card's name must be a string, got {}",
                json_type(other)
            ))
        }
    };
    let interface = jsonrpc_interface(&value);
    let endpoint = card
        .get("url")
        .and_then(Value::as_str)
        .filter(|u| !u.is_empty())
        .or_else(|| interface.and_then(|i| i.get("url")).and_then(Value::as_str))
        .map(str::to_owned)
        .map_or_else(|| origin(card_url), Ok)?;
    let dialect = match interface {
        Some(_) => Dialect::V1,
        None => Dialect::Reference,
    };
    let skills = match card.get("skills") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items.iter().filter_map(skill).collect(),
        Some(other) => {
            return Err(format!(
                "the Agent Card's skills must be an array, got {}",
                json_type(other)
            ))
        }
    };
    Ok(Card {
        name,
        endpoint,
        dialect,
        skills,
    })
}

/// The A2A 1.0 interface bound to JSON-RPC, when the card lists one.
fn jsonrpc_interface(card: &Value) -> Option<&Value> {
    let Some(Value::Array(interfaces)) = card.get("supportedInterfaces") else {
        return None;
    };
    interfaces.iter().find(|i| {
        i.get("protocolBinding")
            .and_then(Value::as_str)
            .is_some_and(|b| b.eq_ignore_ascii_case("JSONRPC"))
            && i.get("url").and_then(Value::as_str).is_some()
    })
}

fn skill(value: &Value) -> Option<Skill> {
    let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    let id = text("id").or_else(|| text("name")).unwrap_or_default();
    let description = text("description")
        .or_else(|| text("name"))
        .unwrap_or_else(|| id.clone());
    value.is_object().then_some(Skill { id, description })
}

/// `scheme://host[:port]` of an absolute URL.
///
/// ```
/// # use toolnexus::core::a2a::card::origin;
/// assert_eq!(origin("https://a.example:8443/x/y?z").unwrap(), "https://a.example:8443");
/// assert!(origin("/relative").is_err());
/// ```
pub fn origin(url: &str) -> Result<String, String> {
    let Some(scheme_end) = crate::core::text::find(url, "://") else {
        return Err(format!(
            "the Agent Card URL must be absolute (http:// or https://), got \"{url}\""
        ));
    };
    let rest = url.get(scheme_end + 3..).unwrap_or("");
    let host_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Ok(url
        .get(..scheme_end + 3 + host_len)
        .unwrap_or(url)
        .to_owned())
}
