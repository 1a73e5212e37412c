//! `grep` and `glob` on both filesystems, and the glob matcher itself.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::builtins_support;

use builtins_support::*;
use toolnexus::core::builtins::glob::Glob;
use toolnexus::json;

fn tree(case: &Case) {
    case.put("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
    case.put("src/lib/util.rs", "pub fn helper() {}\n// TODO: more\n");
    case.put("src/lib/notes.md", "TODO: write docs\n");
    case.put("README.md", "# Project\nTODO list\n");
    case.put("node_modules/dep/index.js", "TODO in a dependency\n");
    case.put(".git/config", "TODO in git\n");
}

#[test]
fn the_matcher_knows_stars_globstars_classes_and_alternatives() {
    let yes = [
        ("*.rs", "a.rs"),
        ("*.rs", "deep/dir/a.rs"),
        ("src/*.rs", "src/a.rs"),
        ("src/**/*.rs", "src/a.rs"),
        ("src/**/*.rs", "src/x/y/a.rs"),
        ("**/*.md", "README.md"),
        ("**", "any/thing"),
        ("a/**", "a/b/c"),
        ("?.txt", "a.txt"),
        ("[abc].txt", "b.txt"),
        ("[a-c]x", "bx"),
        ("[!a]x", "bx"),
        ("[^a]x", "cx"),
        ("*.{rs,md}", "x.md"),
        ("{src,lib}/**/{a,b{1,2}}.ts", "lib/q/b2.ts"),
        ("\\*.txt", "*.txt"),
        ("[x", "[x"),
        ("{a", "{a"),
    ];
    for (pattern, path) in yes {
        assert!(
            Glob::new(pattern).matches(path),
            "{pattern} should match {path}"
        );
    }
    let no = [
        ("src/*.rs", "src/x/a.rs"),
        ("src/**/*.rs", "srcx/a.rs"),
        ("**/a.rs", "xa.rs"),
        ("?.txt", "ab.txt"),
        ("[abc].txt", "d.txt"),
        ("[!a]x", "ax"),
        ("*.{rs,md}", "x.ts"),
        ("a?b", "a/b"),
        ("a*b", "a/b"),
    ];
    for (pattern, path) in no {
        assert!(
            !Glob::new(pattern).matches(path),
            "{pattern} should not match {path}"
        );
    }
}

#[test]
fn a_pathological_pattern_stays_fast() {
    let pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*b";
    let text = "a".repeat(200);
    assert!(!Glob::new(pattern).matches(&text));
    let braces = "{a,b}".repeat(20);
    assert!(Glob::new(&braces).matches("aaaaaaaa") || !Glob::new(&braces).matches("x"));
}

#[test]
fn glob_lists_sorted_relative_paths_and_skips_dependency_folders() {
    for case in both() {
        tree(&case);
        let kit = case.kit();
        let r = kit.run("glob", json!({"pattern": "**/*.rs"}));
        assert!(!r.is_error, "{}", r.output);
        assert_eq!(r.output, "src/lib/util.rs\nsrc/main.rs", "{}", case.label);
        assert_eq!(r.metadata.unwrap()["count"], json!(2));
        let md = kit.run("glob", json!({"pattern": "*.md"})).output;
        assert_eq!(md, "README.md\nsrc/lib/notes.md");
        let under = kit
            .run("glob", json!({"pattern": "*", "path": "src/lib"}))
            .output;
        assert_eq!(under, "notes.md\nutil.rs");
        let limited = kit.run("glob", json!({"pattern": "**", "limit": 2})).output;
        assert_eq!(limited.lines().count(), 2);
        let none = kit.run("glob", json!({"pattern": "*.zig"}));
        assert_eq!((none.output.as_str(), none.is_error), ("", false));
    }
}

#[test]
fn glob_and_grep_failures_are_error_results() {
    for case in both() {
        let kit = case.kit();
        let r = kit.run("glob", json!({"pattern": "*", "path": "nowhere"}));
        assert_eq!(
            r.output, "glob: no such file or directory: nowhere",
            "{}",
            case.label
        );
        assert_eq!(
            kit.run("glob", json!({"pattern": ""})).output,
            "glob: pattern is required"
        );
        let r = kit.run("grep", json!({"pattern": "(unclosed"}));
        assert!(
            r.is_error && r.output.starts_with("grep: invalid regex: "),
            "{}",
            r.output
        );
        assert_eq!(
            kit.run("grep", json!({"pattern": ""})).output,
            "grep: pattern is required"
        );
        let r = kit.run("grep", json!({"pattern": "x", "path": "nowhere"}));
        assert_eq!(r.output, "grep: no such file or directory: nowhere");
    }
}

#[test]
fn grep_prints_file_line_text_for_each_match() {
    for case in both() {
        tree(&case);
        let kit = case.kit();
        let r = kit.run("grep", json!({"pattern": "TODO", "path": "."}));
        assert!(!r.is_error, "{}", r.output);
        let want = "./README.md:2:TODO list\n./src/lib/notes.md:1:TODO: write docs\n./src/lib/util.rs:2:// TODO: more";
        assert_eq!(r.output, want, "{}", case.label);
        assert_eq!(r.metadata.unwrap()["count"], json!(3));
        let default_root = kit.run("grep", json!({"pattern": "^fn main"})).output;
        assert_eq!(
            default_root,
            format!("{}/src/main.rs:1:fn main() {{", case.root)
        );
    }
}

#[test]
fn grep_filters_by_include_and_stops_at_the_limit() {
    for case in both() {
        tree(&case);
        let kit = case.kit();
        let rs = kit.run(
            "grep",
            json!({"pattern": "TODO", "path": "src", "include": "*.rs"}),
        );
        assert_eq!(
            rs.output, "src/lib/util.rs:2:// TODO: more",
            "{}",
            case.label
        );
        let alt = json!({"pattern": "TODO", "path": "src", "include": "*.{md,rs}"});
        assert_eq!(kit.run("grep", alt).output.lines().count(), 2);
        let one = kit.run("grep", json!({"pattern": "TODO", "path": ".", "limit": 1}));
        assert_eq!(one.output, "./README.md:2:TODO list");
        case.put("many.txt", &"hit\n".repeat(150));
        let capped = kit.run("grep", json!({"pattern": "hit", "path": "many.txt"}));
        assert_eq!(capped.output.lines().count(), 100);
        assert!(capped.output.starts_with("many.txt:1:hit\nmany.txt:2:hit"));
        let regex = kit.run("grep", json!({"pattern": r"print\w+!", "path": "src"}));
        assert_eq!(regex.output, "src/main.rs:2:    println!(\"hi\");");
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_is_walked_once() {
    let dir = TempDir::new();
    let case_fs = std::rc::Rc::new(StdFs { cwd: dir.path() });
    let kit = Kit::on(case_fs);
    std::fs::create_dir_all(dir.0.join("a")).unwrap();
    std::fs::write(dir.0.join("a/file.txt"), "needle\n").unwrap();
    std::os::unix::fs::symlink(dir.0.join("a"), dir.0.join("a/loop")).unwrap();
    let r = kit.run("grep", json!({"pattern": "needle"}));
    assert_eq!(r.output.lines().count(), 1, "{}", r.output);
    let g = kit.run("glob", json!({"pattern": "**/*.txt"}));
    assert_eq!(g.output, "a/file.txt");
}
