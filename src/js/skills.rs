//! Skills from JavaScript (SPEC §3): `createToolkit`'s `skills`, `skillProvider`, `skillsDir`,
//! `skillsFilter`, `disableSkills` and `skillSampleLimit`, and the `listSkills` export.

use crate::core::json::value::Value;
use js_sys::Function;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, from_json_text, get, js_error, to_json, type_name};
use super::fs::JsFs;
use super::memfs::core_memory_fs;
use super::promise::settle;
use crate::core::fs::SharedFs;
use crate::core::host::LocalBoxFuture;
use crate::core::skills::{self, select, SkillDef, SkillProvider, SkillsConfig};
use crate::core::tool::SharedTool;

fn invalid(what: &str, message: &str) -> JsValue {
    js_error("invalid_options", &format!("{what}: {message}"))
}

fn absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("[toolnexus] {message}")));
}

/// A JS `skillProvider`: `() => SkillDef[] | Promise<SkillDef[]>`.
struct JsProvider(Function);

impl SkillProvider for JsProvider {
    fn provide(&self) -> LocalBoxFuture<'static, Result<Vec<SkillDef>, String>> {
        let f = self.0.clone();
        Box::pin(async move {
            let returned = f.call0(&JsValue::UNDEFINED).map_err(|e| error_text(&e))?;
            let value = settle(returned).await.map_err(|e| error_text(&e))?;
            to_json(&value)
                .and_then(SkillDef::list_from_json)
                .map_err(|why| format!("it must return an array of skills ({why})"))
        })
    }
}

/// `string | string[]`.
fn dirs_of(value: &JsValue, what: &str, key: &str) -> Result<Vec<String>, JsValue> {
    match to_json(value) {
        Ok(Value::Null) => Ok(Vec::new()),
        Ok(Value::String(dir)) => Ok(vec![dir]),
        Ok(Value::Array(items)) if items.iter().all(Value::is_string) => Ok(items
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()),
        _ => Err(invalid(
            what,
            &format!("{key} must be a string or an array of strings"),
        )),
    }
}

fn defs_of(value: &JsValue, what: &str) -> Result<Vec<SkillDef>, JsValue> {
    if absent(value) {
        return Ok(Vec::new());
    }
    to_json(value).and_then(SkillDef::list_from_json).map_err(|why| {
        invalid(what, &format!("skills must be an array of {{name, description?, content, resources?, base?}} ({why})"))
    })
}

fn provider_of(value: &JsValue, what: &str) -> Result<Option<Rc<dyn SkillProvider>>, JsValue> {
    if absent(value) {
        return Ok(None);
    }
    match value.dyn_ref::<Function>() {
        Some(f) => Ok(Some(Rc::new(JsProvider(f.clone())))),
        None => Err(invalid(
            what,
            &format!("skillProvider must be a function, got {}", type_name(value)),
        )),
    }
}

/// `process.getBuiltinModule("node:fs/promises")` in Node, the `Deno` namespace in Deno.
fn runtime_fs() -> Option<SharedFs> {
    let global = js_sys::global();
    let process = get(&global, "process");
    let load = get(&process, "getBuiltinModule").dyn_into::<Function>();
    if let Ok(module) = load.and_then(|f| f.call1(&process, &"node:fs/promises".into())) {
        if module.is_object() {
            return Some(Rc::new(JsFs::node(module)));
        }
    }
    let deno = get(&global, "Deno");
    get(&deno, "readDirSync")
        .is_function()
        .then(|| Rc::new(JsFs::deno(deno)) as SharedFs)
}

/// The filesystem skill directories are read from: the `fs` option when given (the one the
/// built-in tools use), else the runtime's own.
fn dirs_fs(fs: &JsValue, what: &str) -> Result<SharedFs, JsValue> {
    if let Some(memory) = core_memory_fs(fs) {
        return Ok(Rc::new(memory));
    }
    match fs.as_string().as_deref() {
        None if absent(fs) => {}
        Some("node" | "deno") => {}
        Some(_) | None => {
            if get(fs, "readdir").is_function() {
                return Ok(Rc::new(JsFs::node(fs.clone())));
            }
            if get(fs, "readDir").is_function() && get(fs, "stat").is_function() {
                return Ok(Rc::new(JsFs::host(fs.clone())));
            }
            return Err(invalid(what, "skillsDir needs fs to be a MemoryFileSystem, \"node\", \"deno\", the node:fs/promises module or a ToolnexusFs object"));
        }
    }
    runtime_fs().ok_or_else(|| {
        js_error("unsupported", &format!("{what}: skillsDir needs a filesystem and this runtime has none built in (a browser): pass fs (a MemoryFileSystem or a ToolnexusFs object), or supply skills as data"))
    })
}

/// The filter option (`skillsFilter` of `createToolkit`, `filter` of `loadSkills`) with the
/// `disableSkills` names folded in.
fn filter_of(options: &JsValue, what: &str, key: &str) -> Result<Vec<(String, bool)>, JsValue> {
    let bad = || {
        invalid(
            what,
            &format!("{key} must be an object of booleans keyed by skill name"),
        )
    };
    let filter = match to_json(&get(options, key)) {
        Ok(Value::Null) => Vec::new(),
        Ok(Value::Object(map)) => map
            .into_iter()
            .map(|(name, on)| on.as_bool().map(|on| (name, on)).ok_or_else(bad))
            .collect::<Result<_, _>>()?,
        _ => return Err(bad()),
    };
    let disabled = match to_json(&get(options, "disableSkills")) {
        Ok(Value::Null) => Vec::new(),
        Ok(Value::Array(items)) if items.iter().all(Value::is_string) => items
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => return Err(invalid(what, "disableSkills must be an array of strings")),
    };
    Ok(select::fold_disabled(filter, &disabled))
}

fn sample_limit_of(options: &JsValue, what: &str, key: &str) -> Result<i64, JsValue> {
    let value = get(options, key);
    if absent(&value) {
        return Ok(0);
    }
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && (-1.0..=1e9).contains(&n) => Ok(n as i64),
        _ => Err(invalid(what, &format!("{key} must be a whole number: 0 (10 files), n > 0 (at most n) or -1 (no file list)"))),
    }
}

/// Reads the skill options of `createToolkit`; `None` when none of `skills`, `skillProvider`
/// and `skillsDir` is given (the toolkit then has no `skill` tool and an empty prompt).
pub fn prepare(options: &JsValue) -> Result<Option<SkillsConfig>, JsValue> {
    let what = "createToolkit";
    let (defs, provider, dirs) = (
        get(options, "skills"),
        get(options, "skillProvider"),
        get(options, "skillsDir"),
    );
    if absent(&defs) && absent(&provider) && absent(&dirs) {
        return Ok(None);
    }
    let dirs = dirs_of(&dirs, what, "skillsDir")?;
    let fs = if dirs.is_empty() {
        None
    } else {
        Some(dirs_fs(&get(options, "fs"), what)?)
    };
    Ok(Some(SkillsConfig {
        dirs,
        fs,
        defs: defs_of(&defs, what)?,
        provider: provider_of(&provider, what)?,
        filter: filter_of(options, what, "skillsFilter")?,
        sample_limit: sample_limit_of(options, what, "skillSampleLimit")?,
    }))
}

/// One loaded skill as an Agent Card lists it: its name and description (empty when none).
pub type SkillCardEntry = (String, String);

/// Resolves the provider once, discovers and filters: the `skill` tool, the prompt, and each
/// skill's name and description (the A2A profile's card lists them).
pub async fn load(config: SkillsConfig) -> (SharedTool, String, Vec<SkillCardEntry>) {
    let (set, warnings) = skills::load(config).await;
    warnings.iter().for_each(|w| warn(w));
    let listed = set
        .skills()
        .iter()
        .map(|s| (s.name.clone(), s.description.clone().unwrap_or_default()))
        .collect();
    (set.tool(), set.prompt(), listed)
}

/// Lists the skills of the given sources without building a toolkit: every valid skill
/// (unfiltered) and every skipped candidate with its typed reason (`missing-name`,
/// `malformed-frontmatter`, `duplicate-name`, `unreadable`). A string or an array of strings
/// is a list of skill directories.
///
/// ```js
/// import { listSkills } from "toolnexus-wasm"
/// const { skills, skipped } = await listSkills({ dirs: ["./skills"], skills: [{ name: "pdf", content: "…" }] })
/// skipped // [{ location: "/app/skills/broken/SKILL.md", reason: "malformed-frontmatter" }]
/// ```
#[wasm_bindgen(js_name = listSkills, unchecked_return_type = "Promise<SkillInventory>")]
pub fn list_skills(
    #[wasm_bindgen(unchecked_param_type = "string | string[] | ListSkillsOptions")] input: JsValue,
) -> js_sys::Promise {
    let config = input_config(&input, "listSkills", false);
    crate::js::promise::promise(async move {
        let (inventory, warnings) = skills::list(&config?).await;
        warnings.iter().for_each(|w| warn(w));
        from_json_text(&crate::core::json::text::to_text(&inventory.to_json()))
    })
}

/// The sources of `listSkills` / `loadSkills`: skill directories (a string or an array of
/// strings), or `{dirs?, skills?, skillProvider?, fs?}` (with `filter?` and `sampleLimit?`
/// when `shaping`, as `loadSkills` reads them).
fn input_config(input: &JsValue, what: &str, shaping: bool) -> Result<SkillsConfig, JsValue> {
    let by_dirs = input.is_string() || js_sys::Array::is_array(input);
    let (dirs, options) = if by_dirs {
        (dirs_of(input, what, "dirs")?, JsValue::UNDEFINED)
    } else if input.is_object() {
        (dirs_of(&get(input, "dirs"), what, "dirs")?, input.clone())
    } else {
        return Err(invalid(
            what,
            &format!(
                "expected skill directories or {{dirs?, skills?, skillProvider?, fs?}}, got {}",
                type_name(input)
            ),
        ));
    };
    let fs = if dirs.is_empty() {
        None
    } else {
        Some(dirs_fs(&get(&options, "fs"), what)?)
    };
    let mut config = SkillsConfig {
        dirs,
        fs,
        defs: defs_of(&get(&options, "skills"), what)?,
        provider: provider_of(&get(&options, "skillProvider"), what)?,
        ..SkillsConfig::default()
    };
    if shaping {
        config.filter = filter_of(&options, what, "filter")?;
        config.sample_limit = sample_limit_of(&options, what, "sampleLimit")?;
    }
    Ok(config)
}

/// What [`loadSkills`](load_skills) resolves to: the skills by name, the `skill` tool, and
/// the system-prompt catalog.
#[wasm_bindgen(js_name = SkillSource)]
pub struct SkillSourceHandle {
    set: Rc<skills::SkillSet>,
    tool: JsValue,
}

#[wasm_bindgen(js_class = SkillSource)]
impl SkillSourceHandle {
    /// The skills (after the filter), by name, in discovery order.
    #[wasm_bindgen(getter, unchecked_return_type = "Record<string, SkillInfo>")]
    pub fn skills(&self) -> Result<JsValue, JsValue> {
        let map = self
            .set
            .skills()
            .iter()
            .map(|skill| (skill.name.clone(), skill.to_json()))
            .collect();
        from_json_text(&crate::core::json::text::to_text(&Value::Object(map)))
    }

    /// The `skill` tool: loads one skill's instructions (and sampled files) by name.
    #[wasm_bindgen(getter, unchecked_return_type = "Tool")]
    pub fn tool(&self) -> JsValue {
        self.tool.clone()
    }

    /// The Markdown catalog for the system prompt (`SKILLS_PROMPT_PREAMBLE` first), or
    /// `"No skills are currently available."` when no skill has a description.
    pub fn prompt(&self) -> String {
        self.set.prompt()
    }
}

/// Discovers skills (directories and/or data) and builds the `skill` tool, without a toolkit.
/// `filter` is the allowlist of `createToolkit`'s `skillsFilter`, `sampleLimit` its
/// `skillSampleLimit`. Directories are read asynchronously, so this resolves a Promise (the
/// reference port's `loadSkills` returns the source itself).
///
/// ```js
/// const source = await loadSkills({ skills: [{ name: "pdf", description: "PDF work", content: "…" }] })
/// source.prompt() // "Skills provide specialized instructions…\n\n## Available Skills\n- **pdf**: PDF work"
/// await source.tool.execute({ name: "pdf" })
/// ```
#[wasm_bindgen(js_name = loadSkills, unchecked_return_type = "Promise<SkillSource>")]
pub fn load_skills(
    #[wasm_bindgen(unchecked_param_type = "string | string[] | LoadSkillsOptions")] input: JsValue,
) -> js_sys::Promise {
    let config = input_config(&input, "loadSkills", true);
    crate::js::promise::promise(async move {
        let (set, warnings) = skills::load(config?).await;
        warnings.iter().for_each(|w| warn(w));
        let tool = super::tool::ToolHandle::new(set.tool()).into();
        Ok(SkillSourceHandle { set, tool }.into())
    })
}

/// The reference port's two skill texts, for the entries' `SKILLS_PROMPT_PREAMBLE` and
/// `SKILL_TOOL_DESCRIPTION` constants (the core's own, not copies).
#[wasm_bindgen(js_name = __skillTexts, unchecked_return_type = "[string, string]")]
pub fn skill_texts() -> js_sys::Array {
    [skills::prompt::PREAMBLE, skills::DESCRIPTION]
        .iter()
        .map(|text| JsValue::from_str(text))
        .collect()
}
