//! Every relative link in the README and `docs/*.md` names a file of the repository, and a
//! heading of it when the link carries an anchor, so the docs never point at nothing.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The Markdown files whose links are checked: the README and every page under `docs/`.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("a readable docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

/// The lines of a Markdown file outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut inside = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                inside = !inside;
                return false;
            }
            !inside
        })
        .collect()
}

/// A line with its inline code spans removed: a link written inside backticks is code.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for ch in line.chars() {
        if ch == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(ch);
        }
    }
    out
}

/// The targets of every inline link and image, `[text](target)` and `![alt](target)`.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let mut depth = 0usize;
            let end = after.char_indices().find_map(|(i, c)| match c {
                '(' => {
                    depth += 1;
                    None
                }
                ')' if depth == 0 => Some(i),
                ')' => {
                    depth -= 1;
                    None
                }
                _ => None,
            });
            let Some(end) = end else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push(target.to_string());
            rest = &after[end..];
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`), each
/// space a hyphen.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every heading anchor of a Markdown file, with GitHub's `-1`, `-2` suffixes for repeats.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for line in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// What is wrong with one link of `page`, or `None` when it resolves.
fn broken(root: &Path, page: &Path, target: &str) -> Option<String> {
    if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap_or(root).join(path)
    };
    if !file.exists() {
        return Some(format!("{target}: no file {}", file.display()));
    }
    let anchor = anchor?;
    if file.extension().is_none_or(|e| e != "md") {
        return Some(format!(
            "{target}: an anchor into a file that is not Markdown"
        ));
    }
    let text = std::fs::read_to_string(&file).ok()?;
    (!anchors(&text).contains(anchor))
        .then(|| format!("{target}: no heading #{anchor} in {}", file.display()))
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages(&root) {
        let text = std::fs::read_to_string(&page).expect("a readable page");
        for target in link_targets(&text) {
            checked += 1;
            if let Some(why) = broken(&root, &page, &target) {
                problems.push(format!("{}: {why}", page.display()));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser broken?"
    );
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug(" 8. Flags"), "8-flags");
    assert_eq!(
        slug("`rhoscope identify [PANEL]`"),
        "rhoscope-identify-panel"
    );
    assert_eq!(
        slug("Validation on your panel's textures"),
        "validation-on-your-panels-textures"
    );
    let a = anchors("# A\n## A\n```\n# not a heading\n```\n## B-c_d\n");
    let want: HashSet<String> = ["a", "a-1", "b-c_d"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    assert_eq!(a, want);
}

#[test]
fn links_in_code_are_not_links() {
    let text = "see [a](x.md) and `[b](y.md)`\n```\n[c](z.md)\n```\n![fig](f.svg \"title\")";
    assert_eq!(link_targets(text), vec!["x.md", "f.svg"]);
}
