//! Skills (SPEC §3): data skills, a lazy provider and directory skills over a [`Fs`], merged
//! first-name-wins, filtered per agent, and exposed as one `skill` tool plus a system-prompt
//! catalog.
//!
//! ```
//! use toolnexus::core::skills::{load, SkillDef, SkillsConfig};
//! let config = SkillsConfig { defs: vec![SkillDef::new("pdf", "Reads PDFs", "Use pdftotext.")], ..Default::default() };
//! let (set, warnings) = futures_executor::block_on(load(config));
//! assert!(warnings.is_empty());
//! assert!(set.prompt().ends_with("- **pdf**: Reads PDFs"));
//! ```

pub mod discovery;
pub mod frontmatter;
mod model;
pub mod paths;
pub mod prompt;
pub mod select;
mod tool;
pub mod yaml;

pub use model::{Inventory, Origin, SkillDef, SkillInfo, SkillProvider, SkillSkip, SkipReason};
pub use tool::{SkillTool, DESCRIPTION};

use std::rc::Rc;

use crate::core::fs::SharedFs;
use crate::core::tool::SharedTool;

/// Where skills come from and how they are shown.
#[derive(Default, Clone)]
pub struct SkillsConfig {
    /// Skill directories (`skillsDir`), searched for `**/SKILL.md`; needs `fs`.
    pub dirs: Vec<String>,
    /// The filesystem the directories are on.
    pub fs: Option<SharedFs>,
    /// Skills as data (`skills`).
    pub defs: Vec<SkillDef>,
    /// A lazy provider of more data skills (`skillProvider`), resolved once by [`load`].
    pub provider: Option<Rc<dyn SkillProvider>>,
    /// The per-agent filter (`skillsFilter` with `disableSkills` folded in), in key order.
    pub filter: Vec<(String, bool)>,
    /// `skillSampleLimit`: `0` ⇒ 10 files, `n > 0` ⇒ at most `n`, negative ⇒ no `<skill_files>`.
    pub sample_limit: i64,
}

/// The skills a toolkit exposes, after merging and filtering.
pub struct SkillSet {
    skills: Vec<SkillInfo>,
    fs: Option<SharedFs>,
    sample_limit: i64,
}

impl SkillSet {
    /// The skills, in discovery order.
    pub fn skills(&self) -> &[SkillInfo] {
        &self.skills
    }

    /// The filesystem directory skills are read from.
    pub fn fs(&self) -> Option<&SharedFs> {
        self.fs.as_ref()
    }

    /// How many files `<skill_files>` lists; `None` when the block is left out.
    pub fn sample_limit(&self) -> Option<usize> {
        match self.sample_limit {
            0 => Some(10),
            n if n > 0 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            _ => None,
        }
    }

    /// The system-prompt catalog (`skillsPrompt()`).
    pub fn prompt(&self) -> String {
        prompt::catalog(&self.skills)
    }

    /// The `skill` tool over this set.
    pub fn tool(self: &Rc<Self>) -> SharedTool {
        Rc::new(SkillTool::new(self.clone()))
    }
}

/// Every candidate in source order: directories (each root in turn), then data skills, then
/// the provider's skills. A failing provider adds a warning and nothing else.
async fn candidates(
    config: &SkillsConfig,
    warnings: &mut Vec<String>,
) -> Vec<discovery::Candidate> {
    let mut out = Vec::new();
    match &config.fs {
        Some(fs) => {
            for root in &config.dirs {
                out.extend(discovery::candidates_from_dir(fs.as_ref(), root, warnings).await);
            }
        }
        None if !config.dirs.is_empty() => {
            warnings.push("skills dirs given without a filesystem: ignored".into());
        }
        None => {}
    }
    out.extend(select::candidates_from_defs(&config.defs));
    if let Some(provider) = &config.provider {
        match provider.provide().await {
            Ok(defs) => out.extend(select::candidates_from_defs(&defs)),
            Err(why) => warnings.push(format!("skill provider failed: {why}")),
        }
    }
    out
}

/// Discovers, merges and filters: the toolkit's skills, and the warnings to show.
pub async fn load(config: SkillsConfig) -> (Rc<SkillSet>, Vec<String>) {
    let mut warnings = Vec::new();
    let all = candidates(&config, &mut warnings).await;
    let inventory = select::merge(all, &mut warnings);
    let skills = select::apply_filter(inventory.skills, &config.filter, &mut warnings);
    let set = SkillSet {
        skills,
        fs: config.fs,
        sample_limit: config.sample_limit,
    };
    (Rc::new(set), warnings)
}

/// The unfiltered inventory of the same sources (`listSkills`, S3): skills and typed skips.
///
/// ```
/// use toolnexus::core::skills::{list, SkillDef, SkillsConfig};
/// let defs = vec![SkillDef::new("a", "", ""), SkillDef::new("a", "", ""), SkillDef::default()];
/// let (inventory, _) = futures_executor::block_on(list(&SkillsConfig { defs, ..Default::default() }));
/// assert_eq!(inventory.skills.len(), 1);
/// assert_eq!(inventory.to_json()["skipped"].to_string(),
///     r#"[{"location":"skill://a/","reason":"duplicate-name"},{"location":"skill://","reason":"missing-name"}]"#);
/// ```
pub async fn list(config: &SkillsConfig) -> (Inventory, Vec<String>) {
    let mut warnings = Vec::new();
    let all = candidates(config, &mut warnings).await;
    let inventory = select::merge(all, &mut warnings);
    (inventory, warnings)
}
