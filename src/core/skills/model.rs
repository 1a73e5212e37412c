//! What a skill is (SPEC §3): the data a host supplies, what discovery makes of it, and why a
//! candidate was skipped.

use crate::core::json::value::{Map, Value};

use crate::core::host::LocalBoxFuture;
use crate::core::json::record::invalid_type;

crate::record! {
    /// A skill supplied as data (S1): no filesystem involved. `null` reads as absent.
    ///
    /// ```
    /// # use toolnexus::core::skills::SkillDef;
    /// let def = SkillDef::from_json(toolnexus::json!({"name": "pdf", "resources": null})).unwrap();
    /// assert!(def.resources.is_empty() && def.content.is_empty() && def.base.is_none());
    /// ```
    #[derive(Default, Eq)]
    pub struct SkillDef as "struct SkillDef" {
        /// The skill's name; a missing or empty one skips the skill (`missing-name`).
        pub name: Option<String> = "name",
        /// Shown in the prompt catalog; a skill without one is not listed there.
        pub description: Option<String> = "description",
        /// The instructions the `skill` tool hands back.
        pub content: String = "content" or default,
        /// Logical resource names listed in `<skill_files>`.
        pub resources: Vec<String> = "resources" or default,
        /// The logical base; `skill://<name>/` when absent or empty.
        pub base: Option<String> = "base",
    }
}

impl SkillDef {
    /// Reads a JSON array of skills.
    ///
    /// ```
    /// # use toolnexus::core::skills::SkillDef;
    /// let err = SkillDef::list_from_json(toolnexus::json!({"name": "pdf"})).unwrap_err();
    /// assert_eq!(err, "invalid type: map, expected a sequence");
    /// ```
    pub fn list_from_json(value: Value) -> Result<Vec<SkillDef>, String> {
        match value {
            Value::Array(items) => items.into_iter().map(SkillDef::from_json).collect(),
            other => Err(invalid_type(&other, "a sequence")),
        }
    }

    /// A data skill with a name, a description and content.
    ///
    /// ```
    /// # use toolnexus::core::skills::SkillDef;
    /// assert_eq!(SkillDef::new("a", "does a", "body").name.as_deref(), Some("a"));
    /// ```
    pub fn new(name: &str, description: &str, content: &str) -> Self {
        SkillDef {
            name: Some(name.into()),
            description: Some(description.into()),
            content: content.into(),
            ..SkillDef::default()
        }
    }
}

/// Where a skill came from, which decides how the `skill` tool renders it (S4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A `SKILL.md` on a filesystem: a `file://` base and sampled sibling files.
    Fs,
    /// Data: a logical base and the supplied resource names.
    Logical {
        /// The logical base, `skill://<name>/` by default.
        base: String,
        /// The resource names.
        resources: Vec<String>,
    },
}

/// A discovered skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillInfo {
    /// Its unique name.
    pub name: String,
    /// Its description, when it has one.
    pub description: Option<String>,
    /// The path of its `SKILL.md`, or the logical base of a data skill.
    pub location: String,
    /// The body after the frontmatter.
    pub content: String,
    /// Filesystem or data.
    pub origin: Origin,
}

impl SkillInfo {
    /// The JSON the JS `listSkills` returns: `{name, description?, location, content, origin,
    /// resources?, base?}`.
    ///
    /// ```
    /// # use toolnexus::core::skills::{SkillInfo, Origin};
    /// let s = SkillInfo { name: "a".into(), description: None, location: "/s/a/SKILL.md".into(),
    ///     content: "x".into(), origin: Origin::Fs };
    /// assert_eq!(s.to_json()["origin"], "fs");
    /// ```
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), crate::json_value!(self.name));
        if let Some(description) = &self.description {
            map.insert("description".into(), crate::json_value!(description));
        }
        map.insert("location".into(), crate::json_value!(self.location));
        map.insert("content".into(), crate::json_value!(self.content));
        match &self.origin {
            Origin::Fs => {
                map.insert("origin".into(), crate::json_value!("fs"));
            }
            Origin::Logical { base, resources } => {
                map.insert("origin".into(), crate::json_value!("logical"));
                map.insert("resources".into(), crate::json_value!(resources));
                map.insert("base".into(), crate::json_value!(base));
            }
        }
        Value::Object(map)
    }
}

/// Why a candidate did not become a skill (S3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// No `name` (or an empty one).
    MissingName,
    /// The `---` fenced frontmatter is not valid YAML.
    MalformedFrontmatter,
    /// An earlier skill already has the name (first wins).
    DuplicateName,
    /// The `SKILL.md` could not be read.
    Unreadable,
}

impl SkipReason {
    /// The reason as the contract spells it.
    ///
    /// ```
    /// # use toolnexus::core::skills::SkipReason;
    /// assert_eq!(SkipReason::MalformedFrontmatter.as_str(), "malformed-frontmatter");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::MissingName => "missing-name",
            SkipReason::MalformedFrontmatter => "malformed-frontmatter",
            SkipReason::DuplicateName => "duplicate-name",
            SkipReason::Unreadable => "unreadable",
        }
    }
}

/// One skipped candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillSkip {
    /// The `SKILL.md` path, or a data skill's base.
    pub location: String,
    /// Why it was skipped.
    pub reason: SkipReason,
}

/// What `listSkills` finds: every valid skill (unfiltered) and every skip.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inventory {
    /// The skills, in discovery order (directories first, then data).
    pub skills: Vec<SkillInfo>,
    /// The skipped candidates, in discovery order.
    pub skipped: Vec<SkillSkip>,
}

impl Inventory {
    /// `{skills: [...], skipped: [{location, reason}]}`.
    ///
    /// ```
    /// # use toolnexus::core::skills::Inventory;
    /// assert_eq!(Inventory::default().to_json().to_string(), r#"{"skills":[],"skipped":[]}"#);
    /// ```
    pub fn to_json(&self) -> Value {
        let skills: Vec<Value> = self.skills.iter().map(SkillInfo::to_json).collect();
        let skipped: Vec<Value> = self
            .skipped
            .iter()
            .map(|s| crate::json_value!({"location": s.location, "reason": s.reason.as_str()}))
            .collect();
        crate::json_value!({"skills": skills, "skipped": skipped})
    }
}

/// A lazy source of data skills, resolved once when a toolkit is built (S1).
///
/// ```
/// use toolnexus::core::{host::LocalBoxFuture, skills::{SkillDef, SkillProvider}};
/// struct Fixed;
/// impl SkillProvider for Fixed {
///     fn provide(&self) -> LocalBoxFuture<'static, Result<Vec<SkillDef>, String>> {
///         Box::pin(async { Ok(vec![SkillDef::new("a", "does a", "body")]) })
///     }
/// }
/// ```
pub trait SkillProvider {
    /// The skills, or why the provider failed (the failure is isolated with a warning).
    fn provide(&self) -> LocalBoxFuture<'static, Result<Vec<SkillDef>, String>>;
}
