//! `edit`: exact-string replacement in one file.

use super::args;
use super::tool::{ok_with, Builtin};
use crate::core::fs::SharedFs;

/// `edit {path, oldString, newString, replaceAll?}`: replaces the one occurrence of
/// `oldString` (every occurrence with `replaceAll: true`). Missing or, without `replaceAll`,
/// repeated `oldString` is an error and the file is left as it was.
pub fn tool(fs: SharedFs) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path to the file to edit"},
            "oldString": {"type": "string", "description": "Exact string to replace"},
            "newString": {"type": "string", "description": "Replacement string"},
            "replaceAll": {"type": "boolean", "description": "Replace all occurrences"}
        },
        "required": ["path", "oldString", "newString"],
        "additionalProperties": false
    }"#;
    let description = "Replaces exact text in a file. oldString must occur exactly once unless \
                       replaceAll is true, which replaces every occurrence.";
    Builtin::new("edit", description, schema, move |args, _ctx| {
        let fs = fs.clone();
        Box::pin(async move {
            let path = args::required(&args, "path")?;
            let old = args::required(&args, "oldString")?;
            let new = args::text(&args, "newString");
            let all = args::flag(&args, "replaceAll");
            let content = fs.read(&path).await.map_err(|e| e.to_string())?;
            let count = content.matches(old.as_str()).count();
            if count == 0 {
                return Err(format!("oldString not found in {path}"));
            }
            if count > 1 && !all {
                return Err(format!(
                    "oldString is not unique in {path} ({count} occurrences); use replaceAll"
                ));
            }
            let (next, replaced) = if all {
                (content.replace(old.as_str(), &new), count)
            } else {
                (content.replacen(old.as_str(), &new, 1), 1)
            };
            fs.write(&path, &next).await.map_err(|e| e.to_string())?;
            let plural = if replaced == 1 { "" } else { "s" };
            Ok(ok_with(
                format!("Edited {path} ({replaced} replacement{plural})"),
                crate::json_value!({"replacements": replaced}),
            ))
        })
    })
}
