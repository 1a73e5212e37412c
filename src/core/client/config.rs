//! What a client is configured with.

use crate::core::json::value::{Map, Value};
use crate::core::text::JoinWith;
use std::rc::Rc;

use crate::core::wire::{anthropic::Anthropic, openai::OpenAi, Dialect};

/// Which wire format the endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `POST {baseUrl}/chat/completions`.
    OpenAi,
    /// `POST {baseUrl}/v1/messages`.
    Anthropic,
}

impl Style {
    /// Reads `"openai"` or `"anthropic"`.
    ///
    /// ```
    /// # use toolnexus::core::client::config::Style;
    /// assert_eq!(Style::parse("anthropic"), Some(Style::Anthropic));
    /// assert_eq!(Style::parse("gemini"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Style> {
        match text {
            "openai" => Some(Style::OpenAi),
            "anthropic" => Some(Style::Anthropic),
            _ => None,
        }
    }

    /// The dialect that speaks this style.
    pub fn dialect(self) -> Rc<dyn Dialect> {
        match self {
            Style::OpenAi => Rc::new(OpenAi),
            Style::Anthropic => Rc::new(Anthropic),
        }
    }
}

/// A client's settings. Header values and the key are secrets: they are sent, never printed.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The wire format.
    pub style: Style,
    /// The endpoint's base URL.
    pub base_url: String,
    /// Sent verbatim as `model`; shared with every run's result.
    pub model: Rc<str>,
    /// The API key; `None` for local and proxy endpoints.
    pub api_key: Option<String>,
    /// Extra headers, sent after the client's own (they win on the same name).
    pub headers: Vec<(String, String)>,
    /// Prepended to the toolkit's skills prompt.
    pub system_prompt: String,
    /// Model calls per run before it stops as `incomplete` (default 10).
    pub max_turns: u32,
    /// Shallow-merged into every body after the client builds it (they win).
    pub request_params: Map<String, Value>,
    /// Retries of a model call on 429, 500, 502, 503, 504 and network errors (default 2).
    pub retries: u32,
    /// The backoff base in milliseconds: `base * 2^attempt` plus up to 100 ms of jitter.
    pub retry_base_ms: f64,
    /// The whole run's deadline in milliseconds.
    pub timeout_ms: Option<f64>,
    /// The largest content part a request carries, in decoded bytes (SPEC §1B): a larger part
    /// the caller attached fails the request before it is sent; a tool's is sent as its
    /// placeholder text. `None`: no limit.
    pub max_part_bytes: Option<usize>,
    /// What a part the provider has no block for becomes, for attached and tool parts alike
    /// (`onUnsupportedPart`); `None`: an attached one fails, a tool's is described.
    pub on_unsupported_part: Option<crate::core::parts::OnUnsupported>,
}

impl ClientConfig {
    /// A config with the defaults for everything but style, base URL and model.
    ///
    /// ```
    /// # use toolnexus::core::client::config::{ClientConfig, Style};
    /// let c = ClientConfig::new(Style::OpenAi, "http://127.0.0.1:1/v1", "m");
    /// assert_eq!(c.max_turns, 10);
    /// ```
    pub fn new(style: Style, base_url: impl Into<String>, model: impl Into<Rc<str>>) -> Self {
        ClientConfig {
            style,
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            headers: Vec::new(),
            system_prompt: String::new(),
            max_turns: 10,
            request_params: Map::new(),
            retries: 2,
            retry_base_ms: 500.0,
            timeout_ms: None,
            max_part_bytes: None,
            on_unsupported_part: None,
        }
    }

    /// The system prompt of a run: `systemPrompt` and the skills prompt joined by a blank line,
    /// leaving out whichever is empty.
    ///
    /// ```
    /// # use toolnexus::core::client::config::{ClientConfig, Style};
    /// let mut c = ClientConfig::new(Style::OpenAi, "u", "m");
    /// c.system_prompt = "Be brief.".into();
    /// assert_eq!(c.system_with("## Available Skills"), "Be brief.\n\n## Available Skills");
    /// assert_eq!(c.system_with(""), "Be brief.");
    /// ```
    pub fn system_with(&self, skills_prompt: &str) -> String {
        [self.system_prompt.as_str(), skills_prompt]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join_with("\n\n")
    }

    /// Every secret this client holds (the key, each header value, and each word of a header
    /// value such as the token of `Bearer <token>`), longest first, for redaction.
    pub fn secrets(&self) -> Vec<String> {
        let mut secrets: Vec<String> = Vec::new();
        for (_, value) in &self.headers {
            secrets.push(value.clone());
            secrets.extend(value.split_whitespace().map(str::to_owned));
        }
        secrets.extend(self.api_key.clone());
        secrets.retain(|s| {
            s.len() >= 4 && !matches!(s.as_str(), "Bearer" | "Basic" | "true" | "false")
        });
        // Longest first; equal ones side by side for `dedup`.
        crate::core::sorting::sort_by(&mut secrets, &|a, b| {
            b.len().cmp(&a.len()).then_with(|| a.cmp(b))
        });
        secrets.dedup();
        secrets
    }
}
