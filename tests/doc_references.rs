//! Every reference in the code, tests and docs to a document of the repository (`docs/x.md`,
//! `ARCHITECTURE.md`, `method §7`, "the README's key table") names a file and a section that
//! exist, so a comment or a `--help` line never sends the reader to nothing. Markdown links
//! are checked by `docs_links.rs`; this reads prose and comments.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The text files that may refer to a document: sources, tests, scripts and the docs.
fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let dirs = [
        "src", "tests", "benches", "python", "scripts", "docs", ".ci",
    ];
    for dir in dirs {
        walk(&root.join(dir), &mut out);
    }
    for name in [
        "README.md",
        "ARCHITECTURE.md",
        "CONTRIBUTING.md",
        "Cargo.toml",
    ] {
        out.push(root.join(name));
    }
    out.retain(|p| {
        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
        let plain = p.file_name().is_some_and(|n| n == "run" || n == "test");
        matches!(ext, "rs" | "md" | "py" | "pyi" | "toml" | "sh") || plain
    });
    out.retain(|p| !p.ends_with("tests/doc_references.rs"));
    out.sort();
    out
}

/// Every file under `dir`, skipping build output and snapshots of screens.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name == "target" || name.starts_with('.') && name != ".ci" || name == "__pycache__" {
            continue;
        }
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The section numbers of a Markdown file: `## 7. Judges …` gives "7", `### 4.2 …` gives "4.2".
fn sections(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .filter_map(|l| {
            let head = l.trim_start_matches('#').trim();
            let num: String = head
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let num = num.trim_end_matches('.');
            (!num.is_empty()).then(|| num.to_string())
        })
        .collect()
}

/// The headings of a Markdown file, lower-cased.
fn headings(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_lowercase())
        .collect()
}

/// The words (runs of path characters) of a text, with their byte offsets.
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (is_path(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// A document a token names, as a path from the root: `docs/x.md`, `x.md` of docs/ when
/// written from a docs page, or an upper-case root document such as `ARCHITECTURE.md`.
fn document(root: &Path, from: &Path, token: &str) -> Option<Result<PathBuf, String>> {
    let token = token.trim_end_matches('.');
    let stem = token.strip_suffix(".md")?;
    let rooted = token.starts_with("docs/") || token.starts_with("../");
    if stem.is_empty() || stem.ends_with('/') || (token.contains('/') && !rooted) {
        return None; // a glob (`docs/*.md`) or a path the user writes (`results/report.md`)
    }
    let name = stem.rsplit('/').next().unwrap_or(stem);
    if token.starts_with("docs/") || token.starts_with("../") {
        let base = if token.starts_with("../") {
            from.parent().unwrap_or(root).to_path_buf()
        } else {
            root.to_path_buf()
        };
        let path = base.join(token);
        return Some(path.exists().then_some(path).ok_or(token.to_string()));
    }
    if !token.contains('/') && name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
        let path = root.join(token);
        return Some(path.exists().then_some(path).ok_or(token.to_string()));
    }
    let in_docs = from.parent().is_some_and(|p| p.ends_with("docs"));
    let known = root.join("docs").join(token);
    (in_docs || known.exists() || token == "method.md")
        .then(|| known.exists().then_some(known).ok_or(token.to_string()))
}

/// The section a reference names right after it (`… §7` or `… §4.2`), if any.
fn section_after(text: &str) -> Option<String> {
    let rest = text.trim_start().strip_prefix('§')?;
    let num: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let num = num.trim_end_matches('.');
    (!num.is_empty()).then(|| num.to_string())
}

/// What is wrong with the document references of one file's text.
fn problems_in(root: &Path, from: &Path, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let toks = tokens(text);
    for (at, token) in &toks {
        let end = at + token.len();
        let cited = text[end..].trim_start().starts_with('§');
        let upper = token.len() > 2 && token.chars().all(|c| c.is_ascii_uppercase() || c == '_');
        let doc = if *token == "method" && cited {
            Some(Ok(root.join("docs/method.md")))
        } else if upper && cited {
            let path = root.join(format!("{token}.md"));
            Some(path.exists().then_some(path).ok_or(format!("{token}.md")))
        } else {
            document(root, from, token)
        };
        match doc {
            None => {}
            Some(Err(missing)) => {
                out.push(format!("names {missing}, which is not in the repository"));
            }
            Some(Ok(path)) => {
                if let Some(sec) = section_after(&text[end..]) {
                    let body = std::fs::read_to_string(&path).unwrap_or_default();
                    if !sections(&body).contains(&sec) {
                        out.push(format!(
                            "names §{sec} of {}, which has no such section",
                            path.display()
                        ));
                    }
                }
            }
        }
    }
    out.extend(readme_claims(root, text));
    out
}

/// Claims that the README holds something ("schema in the README", "the README's key
/// table", the README's "Limits" section): the README must have a heading for it.
fn readme_claims(root: &Path, text: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_default();
    let heads = headings(&readme);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // The things a document holds that a reader would look up by a heading.
    let sections = [
        "schema", "table", "section", "limits", "key", "keys", "list",
    ];
    let first_word = |s: &str| -> String {
        s.trim_start_matches('"')
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .next()
            .unwrap_or("")
            .to_lowercase()
    };
    let mut claims: Vec<String> = Vec::new();
    for (i, _) in flat.match_indices(" in the README") {
        let before = flat[..i].rsplit(['(', '.', ',', ';']).next().unwrap_or("");
        if let Some(noun) = before.split_whitespace().last() {
            claims.push(
                noun.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase(),
            );
        }
    }
    for (i, _) in flat.match_indices("README's ") {
        claims.push(first_word(&flat[i + "README's ".len()..]));
    }
    claims.retain(|noun| sections.contains(&noun.as_str()));
    for lead in ["README \"", "README's \""] {
        for (i, _) in flat.match_indices(lead) {
            claims.push(first_word(&flat[i + lead.len()..]));
        }
    }
    claims
        .into_iter()
        .filter(|noun| !heads.iter().any(|h| h.contains(noun.trim_end_matches('s'))))
        .map(|noun| format!("says the README holds its '{noun}', and no README heading does"))
        .collect()
}

#[test]
fn every_document_and_section_named_exists() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in files(&root) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        checked += 1;
        let rel = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for p in problems_in(&root, &file, &text) {
            problems.push(format!("{rel}: {p}"));
        }
    }
    assert!(
        checked > 100,
        "only {checked} files read: is the walk broken?"
    );
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "dangling references:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_checker_sees_what_it_should() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let here = root.join("src/lib.rs");
    let bad = [
        "see DESIGN.md for the loop",
        "the schema in the README",
        "docs/nowhere.md has it",
        "docs/method.md §99 says so",
        "method §42",
        "the README's key table",
        "the README's \"Limits\" section",
        "one place (README \"Limits\"; the files)",
        "no two purposes share numbers (DESIGN §6).",
    ];
    for text in bad {
        assert!(
            !problems_in(&root, &here, text).is_empty(),
            "missed: {text}"
        );
    }
    let good = [
        "docs/method.md §7 says so",
        "method §3 and ARCHITECTURE.md",
        "the README's quick start",
        "writes report.md in the folder",
        "writes results/report.md and results.json",
        "every page under docs/*.md",
        "in the explorer's own page where there is one, else in the README.",
    ];
    for text in good {
        assert_eq!(
            problems_in(&root, &here, text),
            Vec::<String>::new(),
            "{text}"
        );
    }
}
