//! The one `skill` tool (SPEC §3): loads a skill's instructions and its files on demand, in the
//! reference's progressive-disclosure block, byte for byte.

use crate::core::json::value::{Map, Value};
use crate::core::text::JoinWith;
use std::rc::Rc;

use super::discovery::sample_siblings;
use super::model::{Origin, SkillInfo};
use super::paths::dirname;
use super::prompt::sorted_names;
use super::SkillSet;
use crate::core::fs::normalize;
use crate::core::host::LocalBoxFuture;
use crate::core::jsfmt::{file_url, string_of, trim};
use crate::core::spec::ToolSpec;
use crate::core::tool::{Context, Tool};
use crate::core::types::ToolResult;

/// The loader description (verbatim from the reference).
pub const DESCRIPTION: &str = "Load a specialized skill when the task at hand matches one of the skills listed in the system prompt.\n\nUse this tool to inject the skill's instructions and resources into current conversation. The output may contain detailed workflow guidance as well as references to scripts, files, etc in the same directory as the skill.\n\nThe skill name must match one of the skills listed in your system prompt.";

/// The `skill` tool over a loaded [`SkillSet`].
pub struct SkillTool {
    spec: ToolSpec,
    set: Rc<SkillSet>,
}

impl SkillTool {
    /// The tool for `set`.
    pub fn new(set: Rc<SkillSet>) -> Self {
        let schema = crate::json_value!({
            "type": "object",
            "properties": {"name": {"type": "string", "description": "The name of the skill to load"}},
            "required": ["name"],
            "additionalProperties": false
        });
        let spec = ToolSpec {
            name: "skill".into(),
            description: DESCRIPTION.into(),
            input_schema: schema.into(),
            source: "skill".into(),
        };
        SkillTool { spec, set }
    }
}

impl Tool for SkillTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, args: Value, _ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let set = self.set.clone();
        Box::pin(async move {
            let name = match args.get("name") {
                None | Some(Value::Null) => String::new(),
                Some(value) => string_of(value),
            };
            match set.skills().iter().find(|s| s.name == name) {
                Some(info) => render(&set, info).await,
                None => {
                    let names = sorted_names(set.skills().iter().map(|s| s.name.as_str()));
                    ToolResult::error(format!(
                        "Skill \"{name}\" not found. Available skills: {names}"
                    ))
                }
            }
        })
    }
}

/// The output block of one skill.
async fn render(set: &SkillSet, info: &SkillInfo) -> ToolResult {
    let limit = set.sample_limit();
    let (base, files, dir, emit_files) = match &info.origin {
        Origin::Logical { base, resources } => {
            let files: Vec<String> = match limit {
                Some(n) => resources.iter().take(n).cloned().collect(),
                None => resources.clone(),
            };
            let emit = limit.is_some() && !resources.is_empty();
            (base.clone(), files, base.clone(), emit)
        }
        Origin::Fs => {
            let dir = dirname(&info.location);
            let (absolute, files) = match (set.fs(), limit) {
                (Some(fs), Some(n)) => (
                    normalize(&fs.cwd(), &dir),
                    sample_siblings(fs.as_ref(), &dir, n).await,
                ),
                (Some(fs), None) => (normalize(&fs.cwd(), &dir), Vec::new()),
                (None, _) => (normalize("/", &dir), Vec::new()),
            };
            (file_url(&absolute), files, dir, limit.is_some())
        }
    };
    let mut lines = vec![
        format!("<skill_content name=\"{}\">", info.name),
        format!("# Skill: {}", info.name),
        String::new(),
        trim(&info.content).to_owned(),
        String::new(),
        format!("Base directory for this skill: {base}"),
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.".into(),
    ];
    if emit_files {
        lines.push("Note: file list is sampled.".into());
        lines.push(String::new());
        lines.push("<skill_files>".into());
        lines.push(
            files
                .iter()
                .map(|f| format!("<file>{f}</file>"))
                .collect::<Vec<_>>()
                .join_with("\n"),
        );
        lines.push("</skill_files>".into());
    }
    lines.push("</skill_content>".into());
    let mut metadata = Map::new();
    metadata.insert("name".into(), crate::json_value!(info.name));
    metadata.insert("dir".into(), crate::json_value!(dir));
    ToolResult {
        parts: None,
        output: lines.join_with("\n"),
        is_error: false,
        metadata: Some(metadata),
    }
}
