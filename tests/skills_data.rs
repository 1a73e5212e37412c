//! Data skills: the `skill` tool's output, the not-found message, the sample limit, the
//! prompt catalog and the toolkit's prompt, byte-exact to the reference port.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use crate::skills_common;

use toolnexus::json;

use skills_common::{call, data, def, load_now};
use toolnexus::core::skills::{SkillsConfig, DESCRIPTION};
use toolnexus::core::toolkit::{Sources, Toolkit};

const PREAMBLE: &str = "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.";
const RELATIVE: &str =
    "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.";

#[test]
fn a_data_skill_without_resources_is_instruction_only() {
    let (set, warnings) = load_now(data(vec![def(
        "pdf",
        Some("Reads PDFs"),
        "\n\n  Use pdftotext.\n",
        &[],
    )]));
    assert!(warnings.is_empty());
    let out = call(&set, "pdf");
    assert!(!out.is_error);
    assert_eq!(
        out.output,
        format!("<skill_content name=\"pdf\">\n# Skill: pdf\n\nUse pdftotext.\n\nBase directory for this skill: skill://pdf/\n{RELATIVE}\n</skill_content>")
    );
    assert_eq!(
        serde_json::to_value(&out.metadata).unwrap(),
        json!({"name": "pdf", "dir": "skill://pdf/"})
    );
}

#[test]
fn a_data_skill_lists_its_resources_under_its_own_base() {
    let mut with_base = def(
        "api",
        Some("Calls the API"),
        "Body",
        &["spec.yaml", "auth.md"],
    );
    with_base.base = Some("https://cdn.test/skills/api/".into());
    let (set, _) = load_now(data(vec![with_base]));
    assert_eq!(
        call(&set, "api").output,
        format!("<skill_content name=\"api\">\n# Skill: api\n\nBody\n\nBase directory for this skill: https://cdn.test/skills/api/\n{RELATIVE}\nNote: file list is sampled.\n\n<skill_files>\n<file>spec.yaml</file>\n<file>auth.md</file>\n</skill_files>\n</skill_content>")
    );
}

#[test]
fn an_empty_base_falls_back_to_the_skill_url() {
    let mut empty_base = def("a", None, "x", &[]);
    empty_base.base = Some(String::new());
    let (set, _) = load_now(data(vec![empty_base]));
    assert!(call(&set, "a")
        .output
        .contains("Base directory for this skill: skill://a/\n"));
}

fn resources(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("r{i}.md")).collect()
}

fn listed(limit: i64, count: usize) -> Option<Vec<String>> {
    let mut skill = def("s", None, "x", &[]);
    skill.resources = resources(count);
    let config = SkillsConfig {
        sample_limit: limit,
        ..data(vec![skill])
    };
    let out = call(&load_now(config).0, "s").output;
    let block = out.split_once("<skill_files>\n")?.1;
    let block = block.split_once("\n</skill_files>")?.0;
    Some(
        block
            .lines()
            .map(|l| {
                l.trim_start_matches("<file>")
                    .trim_end_matches("</file>")
                    .into()
            })
            .collect(),
    )
}

#[test]
fn the_sample_limit_zero_is_ten_a_positive_one_caps_and_minus_one_omits() {
    assert_eq!(listed(0, 12).unwrap(), resources(10));
    assert_eq!(listed(0, 3).unwrap(), resources(3));
    assert_eq!(listed(2, 12).unwrap(), resources(2));
    assert_eq!(listed(50, 12).unwrap(), resources(12));
    assert_eq!(listed(-1, 12), None);
    let mut skill = def("s", None, "x", &["a"]);
    skill.resources = resources(1);
    let config = SkillsConfig {
        sample_limit: -1,
        ..data(vec![skill])
    };
    let out = call(&load_now(config).0, "s").output;
    assert!(!out.contains("Note: file list is sampled."));
    assert!(out.ends_with(&format!("{RELATIVE}\n</skill_content>")));
}

#[test]
fn an_unknown_skill_lists_the_available_names_sorted_by_code_unit() {
    let defs = vec![
        def("zeta", None, "", &[]),
        def("Alpha", None, "", &[]),
        def("beta", None, "", &[]),
    ];
    let out = call(&load_now(data(defs)).0, "gamma");
    assert!(out.is_error);
    assert_eq!(
        out.output,
        "Skill \"gamma\" not found. Available skills: Alpha, beta, zeta"
    );
    let out = call(&load_now(data(Vec::new())).0, "x");
    assert_eq!(out.output, "Skill \"x\" not found. Available skills: none");
}

#[test]
fn the_tool_is_named_skill_with_the_loader_description_and_schema() {
    let (set, _) = load_now(data(Vec::new()));
    let tool = set.tool();
    let spec = tool.spec();
    assert_eq!(spec.name, "skill");
    assert_eq!(spec.source, "skill");
    assert_eq!(spec.description, DESCRIPTION);
    assert!(DESCRIPTION.starts_with("Load a specialized skill when the task at hand matches one of the skills listed in the system prompt.\n\nUse this tool to inject"));
    assert_eq!(
        spec.input_schema,
        json!({"type": "object", "properties": {"name": {"type": "string", "description": "The name of the skill to load"}}, "required": ["name"], "additionalProperties": false})
    );
}

#[test]
fn the_prompt_lists_described_skills_in_locale_order() {
    let defs = vec![
        def("pdf", Some("Reads PDFs"), "", &[]),
        def("silent", None, "", &[]),
        def("Zip", Some("Packs files"), "", &[]),
        def("api-v2", Some("Calls v2"), "", &[]),
        def("api_v1", Some("Calls v1"), "", &[]),
        def("blank", Some(""), "", &[]),
    ];
    let (set, _) = load_now(data(defs));
    assert_eq!(
        set.prompt(),
        format!("{PREAMBLE}\n\n## Available Skills\n- **api_v1**: Calls v1\n- **api-v2**: Calls v2\n- **blank**: \n- **pdf**: Reads PDFs\n- **Zip**: Packs files")
    );
    let (set, _) = load_now(data(vec![def("quiet", None, "", &[])]));
    assert_eq!(set.prompt(), "No skills are currently available.");
}

#[test]
fn the_toolkit_carries_the_skill_tool_and_its_prompt() {
    let (set, _) = load_now(data(vec![def("pdf", Some("Reads PDFs"), "x", &[])]));
    let (kit, _) = Toolkit::assemble(Sources {
        skill: Some(set.tool()),
        skills_prompt: set.prompt(),
        ..Sources::default()
    });
    assert_eq!(
        kit.skills_prompt(),
        format!("{PREAMBLE}\n\n## Available Skills\n- **pdf**: Reads PDFs")
    );
    assert!(kit.get("skill").is_some());
    assert_eq!(Toolkit::default().skills_prompt(), "");
}
