//! Which candidates become the toolkit's skills: first name wins across sources (S1), then the
//! per-agent filter (S2) with the semantics of the MCP tools filter and the builtins toggle.

use super::discovery::Candidate;
use super::model::{Inventory, SkillDef, SkillInfo, SkillSkip, SkipReason};

/// Data skills as candidates (logical origin, `skill://<name>/` base unless one is given).
///
/// ```
/// # use toolnexus::core::skills::{select::candidates_from_defs, SkillDef};
/// let got = candidates_from_defs(&[SkillDef::new("a", "does a", "body")]);
/// assert_eq!(got[0].as_ref().unwrap().location, "skill://a/");
/// ```
pub fn candidates_from_defs(defs: &[SkillDef]) -> Vec<Candidate> {
    defs.iter()
        .map(|def| {
            let Some(name) = def.name.clone().filter(|n| !n.is_empty()) else {
                let location = def.base.clone().unwrap_or_else(|| "skill://".into());
                return Err(SkillSkip {
                    location,
                    reason: SkipReason::MissingName,
                });
            };
            let base = match &def.base {
                Some(base) if !base.is_empty() => base.clone(),
                _ => format!("skill://{name}/"),
            };
            Ok(SkillInfo {
                name,
                description: def.description.clone(),
                location: base.clone(),
                content: def.content.clone(),
                origin: super::model::Origin::Logical {
                    base,
                    resources: def.resources.clone(),
                },
            })
        })
        .collect()
}

/// Deduplicates by name, first wins; a later duplicate becomes a `duplicate-name` skip and a
/// warning.
pub fn merge(candidates: Vec<Candidate>, warnings: &mut Vec<String>) -> Inventory {
    let mut inventory = Inventory::default();
    for candidate in candidates {
        match candidate {
            Err(skip) => inventory.skipped.push(skip),
            Ok(info) if inventory.skills.iter().any(|s| s.name == info.name) => {
                warnings.push(format!(
                    "duplicate skill name \"{}\" ({}) — keeping first",
                    info.name, info.location
                ));
                inventory.skipped.push(SkillSkip {
                    location: info.location,
                    reason: SkipReason::DuplicateName,
                });
            }
            Ok(info) => inventory.skills.push(info),
        }
    }
    inventory
}

/// `disableSkills` folded into the filter as `false` entries, never overriding an explicit
/// entry of `skillsFilter`.
///
/// ```
/// # use toolnexus::core::skills::select::fold_disabled;
/// let filter = vec![("a".to_string(), true)];
/// let got = fold_disabled(filter, &["a".into(), "b".into()]);
/// assert_eq!(got, vec![("a".to_string(), true), ("b".to_string(), false)]);
/// ```
pub fn fold_disabled(filter: Vec<(String, bool)>, disabled: &[String]) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    for name in disabled {
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.clone(), false));
        }
    }
    for (name, on) in filter {
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 = on,
            None => out.push((name, on)),
        }
    }
    out
}

/// Applies the filter: empty ⇒ every skill; any `true` ⇒ only the `true` names; only `false`
/// entries ⇒ every skill but those. A name that matches no skill is ignored with a warning.
///
/// ```
/// # use toolnexus::core::skills::{select::{apply_filter, candidates_from_defs, merge}, SkillDef};
/// let defs = [SkillDef::new("a", "", ""), SkillDef::new("b", "", "")];
/// let skills = merge(candidates_from_defs(&defs), &mut Vec::new()).skills;
/// let kept = apply_filter(skills, &[("b".into(), false)], &mut Vec::new());
/// assert_eq!(kept.len(), 1);
/// ```
pub fn apply_filter(
    skills: Vec<SkillInfo>,
    filter: &[(String, bool)],
    warnings: &mut Vec<String>,
) -> Vec<SkillInfo> {
    if filter.is_empty() {
        return skills;
    }
    for (name, _) in filter {
        if !skills.iter().any(|s| s.name == *name) {
            warnings.push(format!("skill filter name \"{name}\" matched no skill"));
        }
    }
    let allowlist = filter.iter().any(|(_, on)| *on);
    let entry = |name: &str| filter.iter().find(|(n, _)| n == name).map(|(_, on)| *on);
    skills
        .into_iter()
        .filter(|s| {
            if allowlist {
                entry(&s.name) == Some(true)
            } else {
                entry(&s.name) != Some(false)
            }
        })
        .collect()
}
