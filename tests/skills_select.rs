//! Which skills a toolkit exposes: first name wins, the provider (isolated when it fails), the
//! filter, `disableSkills`, and the unfiltered inventory with typed skips.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use crate::skills_common;

use std::rc::Rc;
use toolnexus::json;

use skills_common::{call, data, def, load_now};
use toolnexus::core::host::LocalBoxFuture;
use toolnexus::core::skills::select::fold_disabled;
use toolnexus::core::skills::{list, SkillDef, SkillProvider, SkillsConfig, SkipReason};

fn names(config: SkillsConfig) -> (Vec<String>, Vec<String>) {
    let (set, warnings) = load_now(config);
    (
        set.skills().iter().map(|s| s.name.clone()).collect(),
        warnings,
    )
}

fn abc(filter: Vec<(&str, bool)>) -> SkillsConfig {
    let defs = ["a", "b", "c"]
        .iter()
        .map(|n| def(n, Some(n), "", &[]))
        .collect();
    SkillsConfig {
        filter: filter
            .into_iter()
            .map(|(n, on)| (n.to_owned(), on))
            .collect(),
        ..data(defs)
    }
}

#[test]
fn the_filter_is_an_allowlist_with_any_true_and_a_drop_list_otherwise() {
    assert_eq!(names(abc(vec![])).0, ["a", "b", "c"]);
    assert_eq!(names(abc(vec![("b", true), ("c", false)])).0, ["b"]);
    assert_eq!(names(abc(vec![("b", false)])).0, ["a", "c"]);
    let (kept, warnings) = names(abc(vec![("nope", false), ("a", false)]));
    assert_eq!(kept, ["b", "c"]);
    assert_eq!(warnings, ["skill filter name \"nope\" matched no skill"]);
    let (kept, _) = names(abc(vec![("nope", true)]));
    assert!(
        kept.is_empty(),
        "an allowlist naming nothing real keeps nothing"
    );
}

#[test]
fn the_filter_narrows_the_prompt_and_the_lookup_alike() {
    let (set, _) = load_now(abc(vec![("a", false)]));
    assert!(!set.prompt().contains("**a**"));
    assert_eq!(
        call(&set, "a").output,
        "Skill \"a\" not found. Available skills: b, c"
    );
}

#[test]
fn disabled_skills_fold_in_as_false_without_overriding_explicit_entries() {
    let disabled = ["a".to_owned(), "b".to_owned()];
    let explicit = vec![("a".to_owned(), true)];
    let folded = fold_disabled(explicit, &disabled);
    assert_eq!(folded, [("a".to_owned(), true), ("b".to_owned(), false)]);
    let config = SkillsConfig {
        filter: folded,
        ..abc(vec![])
    };
    assert_eq!(names(config).0, ["a"], "a true entry makes it an allowlist");
    let config = SkillsConfig {
        filter: fold_disabled(Vec::new(), &disabled),
        ..abc(vec![])
    };
    assert_eq!(names(config).0, ["c"]);
}

#[test]
fn the_first_name_wins_and_later_duplicates_are_skipped_with_a_warning() {
    let defs = vec![
        def("a", Some("first"), "1", &[]),
        def("a", Some("second"), "2", &[]),
    ];
    let (set, warnings) = load_now(data(defs));
    assert_eq!(set.skills().len(), 1);
    assert_eq!(set.skills()[0].description.as_deref(), Some("first"));
    assert_eq!(
        warnings,
        ["duplicate skill name \"a\" (skill://a/) — keeping first"]
    );
}

struct Provider(Result<Vec<SkillDef>, String>);

impl SkillProvider for Provider {
    fn provide(&self) -> LocalBoxFuture<'static, Result<Vec<SkillDef>, String>> {
        let result = self.0.clone();
        Box::pin(async move { result })
    }
}

#[test]
fn provider_skills_come_after_the_data_skills() {
    let config = SkillsConfig {
        provider: Some(Rc::new(Provider(Ok(vec![
            def("a", Some("from provider"), "", &[]),
            def("p", Some("provided"), "", &[]),
        ])))),
        ..data(vec![def("a", Some("from data"), "", &[])])
    };
    let (set, warnings) = load_now(config);
    let got: Vec<_> = set
        .skills()
        .iter()
        .map(|s| (s.name.as_str(), s.description.as_deref().unwrap()))
        .collect();
    assert_eq!(got, [("a", "from data"), ("p", "provided")]);
    assert_eq!(warnings.len(), 1);
}

#[test]
fn a_failing_provider_is_isolated_with_a_warning() {
    let config = SkillsConfig {
        provider: Some(Rc::new(Provider(Err("catalog offline".into())))),
        ..data(vec![def("a", Some("still here"), "", &[])])
    };
    let (set, warnings) = load_now(config);
    assert_eq!(set.skills().len(), 1);
    assert_eq!(warnings, ["skill provider failed: catalog offline"]);
}

#[test]
fn the_inventory_is_unfiltered_and_types_every_skip() {
    let nameless = SkillDef {
        base: Some("skill://lost/".into()),
        ..SkillDef::default()
    };
    let config = SkillsConfig {
        filter: vec![("a".into(), false)],
        ..data(vec![
            def("a", Some("x"), "", &[]),
            def("a", None, "", &[]),
            nameless,
            def("", None, "", &[]),
        ])
    };
    let (inventory, _) = futures_executor::block_on(list(&config));
    assert_eq!(inventory.skills.len(), 1, "the filter does not apply");
    let reasons: Vec<_> = inventory
        .skipped
        .iter()
        .map(|s| (s.location.as_str(), s.reason))
        .collect();
    assert_eq!(
        reasons,
        [
            ("skill://a/", SkipReason::DuplicateName),
            ("skill://lost/", SkipReason::MissingName),
            ("skill://", SkipReason::MissingName)
        ]
    );
    assert_eq!(
        inventory.to_json()["skills"],
        json!([{"name": "a", "description": "x", "location": "skill://a/", "content": "", "origin": "logical", "resources": [], "base": "skill://a/"}])
    );
}

#[test]
fn skill_defs_read_from_json_as_the_reference_writes_them() {
    let def: SkillDef = serde_json::from_value(serde_json::json!({
        "name": "a", "content": null, "resources": null, "extra": 1
    }))
    .unwrap();
    assert_eq!(def.content, "");
    assert!(def.resources.is_empty());
    assert!(serde_json::from_value::<SkillDef>(serde_json::json!({"name": 7})).is_err());
}
