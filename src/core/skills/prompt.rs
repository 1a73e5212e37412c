//! The system-prompt catalog (`skillsPrompt()`), byte-exact to the reference: the preamble and
//! `## Available Skills` list of the described skills, ordered as JavaScript's `localeCompare`
//! orders them.

use crate::core::text::JoinWith;
use std::cmp::Ordering;

use super::model::SkillInfo;
use crate::core::sorting::sort_by;

/// The fixed preamble of a non-empty catalog (identical in every port).
pub const PREAMBLE: &str = "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.";

/// What the catalog says when no skill has a description.
pub const NONE_AVAILABLE: &str = "No skills are currently available.";

/// The catalog of `skills`: only those with a description are listed.
///
/// ```
/// # use toolnexus::core::skills::{prompt::catalog, select::candidates_from_defs, select::merge, SkillDef};
/// let defs = [SkillDef::new("pdf", "Reads PDFs", ""), SkillDef::new("Api", "Calls APIs", "")];
/// let skills = merge(candidates_from_defs(&defs), &mut Vec::new()).skills;
/// assert!(catalog(&skills).ends_with("## Available Skills\n- **Api**: Calls APIs\n- **pdf**: Reads PDFs"));
/// assert_eq!(catalog(&[]), "No skills are currently available.");
/// ```
pub fn catalog(skills: &[SkillInfo]) -> String {
    let mut described: Vec<(&str, &str)> = skills
        .iter()
        .filter_map(|s| s.description.as_deref().map(|d| (s.name.as_str(), d)))
        .collect();
    if described.is_empty() {
        return NONE_AVAILABLE.to_owned();
    }
    sort_by(&mut described, &|a, b| locale_compare(a.0, b.0));
    let mut lines = vec![
        PREAMBLE.to_owned(),
        String::new(),
        "## Available Skills".into(),
    ];
    lines.extend(
        described
            .iter()
            .map(|(name, description)| format!("- **{name}**: {description}")),
    );
    lines.join_with("\n")
}

/// ASCII punctuation, symbols and digits in the order of the Unicode root collation (ICU),
/// which `localeCompare` uses; letters follow, case-insensitively, lowercase first on a tie.
const ORDER: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";

/// Primary weight and case of one character; `None` for an ignorable control character.
fn weight(c: char) -> Option<(u32, bool)> {
    if c.is_ascii_control() {
        return None;
    }
    if c.is_ascii_alphabetic() {
        let lower = c.to_ascii_lowercase();
        return Some((
            100 + u32::from(lower) - u32::from('a'),
            c.is_ascii_uppercase(),
        ));
    }
    if let Some(at) = ORDER.find(c) {
        return Some((at as u32, false));
    }
    // Outside ASCII: after every ASCII character, by code point (an approximation).
    Some((1_000 + u32::from(c), false))
}

/// `a.localeCompare(b)` for the root locale, exact for ASCII names.
///
/// ```
/// # use toolnexus::core::skills::prompt::locale_compare;
/// use std::cmp::Ordering::Less;
/// assert_eq!(locale_compare("a-b", "ab"), Less);
/// assert_eq!(locale_compare("b", "C"), Less);
/// assert_eq!(locale_compare("ab", "aB"), Less);
/// assert_eq!(locale_compare("a_b", "a-b"), Less);
/// ```
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    let key = |s: &str| -> (Vec<u32>, Vec<bool>) { s.chars().filter_map(weight).unzip() };
    let (a_primary, a_case) = key(a);
    let (b_primary, b_case) = key(b);
    a_primary.cmp(&b_primary).then_with(|| a_case.cmp(&b_case))
}

/// The names sorted as JavaScript's default `sort()` does (by UTF-16 code units), joined with
/// `, `; `none` when there are none.
///
/// ```
/// # use toolnexus::core::skills::prompt::sorted_names;
/// assert_eq!(sorted_names(["b", "B", "a"].into_iter()), "B, a, b");
/// assert_eq!(sorted_names(std::iter::empty()), "none");
/// ```
pub fn sorted_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut names: Vec<&str> = names.collect();
    if names.is_empty() {
        return "none".into();
    }
    sort_by(&mut names, &|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    names.join_with(", ")
}
