//! Each front end names settings in its own language: no explorer screen and no Python
//! message names a command-line flag, except inside a whole `rhoscope …` command line offered
//! to copy; the command line names its flags.

#![cfg(feature = "cli")]

mod common;

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;

use rhoscope::api::{self, Keywords};
use rhoscope::cli::Flags;
use rhoscope::data::{ColumnRef, Columns, Families, LongColumns, PanelRequest, load};
use rhoscope::wording::{Setting, Wording};

/// The flags `text` names outside a `rhoscope …` command line: a command line runs from
/// `rhoscope ` to its closing backtick, or to the end of the line.
fn flags_named(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let mut rest = line.to_string();
        while let Some(i) = rest.find("rhoscope ") {
            let quoted = rest[..i].ends_with('`');
            let end = if quoted {
                rest[i..].find('`').map_or(rest.len(), |j| i + j + 1)
            } else {
                rest.len()
            };
            rest.replace_range(i..end, "");
        }
        let bytes = rest.as_bytes();
        for (i, w) in bytes.windows(3).enumerate() {
            let starts_word =
                i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && bytes[i - 1] != b'-';
            if starts_word && w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_lowercase() {
                let flag: String = rest[i..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                found.push(format!("{flag} in {line:?}"));
            }
        }
    }
    found
}

#[test]
fn the_checker_finds_flags_and_spares_command_lines() {
    assert_eq!(flags_named("name them with --judges").len(), 1);
    assert_eq!(flags_named("(--families overrides)").len(), 1);
    assert!(flags_named("run `rhoscope battery x.csv --codes-as-numbers` to see").is_empty());
    assert!(flags_named("rhoscope plan --target ci-width=0.2").is_empty());
    assert!(flags_named("a — dash, 1--2, judge --- rule").is_empty());
}

#[test]
fn no_explorer_snapshot_names_a_flag() {
    let dir = common::root().join("tests/snapshots");
    let mut seen = 0;
    let mut named = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let snap = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("snap"));
        if !(name.starts_with("explorer__") && snap) {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        // The snapshot's screen, below insta's header.
        let screen = text.splitn(3, "---").nth(2).unwrap_or(&text);
        named.extend(
            flags_named(screen)
                .into_iter()
                .map(|f| format!("{name}: {f}")),
        );
    }
    assert!(
        seen >= 40,
        "only {seen} explorer snapshots in {}",
        dir.display()
    );
    assert!(named.is_empty(), "{}", named.join("\n"));
}

/// Bad panel requests, each with the setting its message must name.
fn bad_requests() -> Vec<(&'static str, PanelRequest, Setting)> {
    let named = |v: &[&str]| Some(v.iter().map(|s| ColumnRef::from(*s)).collect());
    vec![
        (
            "no such judge",
            PanelRequest {
                judges: named(&["J1", "nope"]),
                ..PanelRequest::default()
            },
            Setting::Judges,
        ),
        (
            "too few judges",
            PanelRequest {
                judges: named(&["J1"]),
                ..PanelRequest::default()
            },
            Setting::Judges,
        ),
        (
            "too few anchors",
            PanelRequest {
                anchors: named(&["A1"]),
                min_anchors: 2,
                ..PanelRequest::default()
            },
            Setting::Anchors,
        ),
        (
            "a position past the header",
            PanelRequest {
                anchors: Some(vec![ColumnRef::Position(99)]),
                ..PanelRequest::default()
            },
            Setting::Anchors,
        ),
        (
            "judge and anchor at once",
            PanelRequest {
                judges: named(&["J1", "J2"]),
                anchors: named(&["J2", "A1"]),
                ..PanelRequest::default()
            },
            Setting::Anchors,
        ),
        (
            "a family for no judge",
            PanelRequest {
                families: Some(Families::Pairs(vec![("A1".into(), "f".into())])),
                ..PanelRequest::default()
            },
            Setting::Families,
        ),
        (
            "a judge given two families",
            PanelRequest {
                families: Some(Families::Pairs(vec![
                    ("J1".into(), "f".into()),
                    ("J1".into(), "g".into()),
                ])),
                ..PanelRequest::default()
            },
            Setting::Families,
        ),
        (
            "continuous names no column",
            PanelRequest {
                continuous: Some(Columns::Listed(vec!["nope".into()])),
                ..PanelRequest::default()
            },
            Setting::Continuous,
        ),
        (
            "set aside and named",
            PanelRequest {
                judges: named(&["J1", "J2"]),
                set_aside: vec!["J1".into()],
                ..PanelRequest::default()
            },
            Setting::SetAside,
        ),
        (
            "long names no column",
            PanelRequest {
                long: Some(LongColumns {
                    item: "item".into(),
                    rater: "who".into(),
                    score: "score".into(),
                }),
                ..PanelRequest::default()
            },
            Setting::Long,
        ),
    ]
}

fn argv(args: &[&str]) -> Vec<OsString> {
    std::iter::once("rhoscope")
        .chain(args.iter().copied())
        .map(OsString::from)
        .collect()
}

/// A comma in a column or family name is a character, never a separator.
#[test]
fn a_comma_in_a_name_goes_through_the_request() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::write(
        dir.path(),
        "comma.csv",
        b"\"judge,one\",judge2,judge3,A1,A2\n1,2,3,4,5\n2,1,4.5,2,1\n3,3,1,1,2.5\n0,5,2,3,-1\n4,2,2,5,3\n",
    );
    let loaded = load(
        &path,
        &PanelRequest {
            judges: Some(vec!["judge,one".into(), "judge2".into(), "judge3".into()]),
            families: Some(Families::Pairs(vec![
                ("judge,one".into(), "fam,a".into()),
                ("judge2".into(), "fam,a".into()),
            ])),
            ..PanelRequest::default()
        },
    )
    .unwrap();
    assert_eq!(loaded.panel.judges[0], "judge,one");
    let families = loaded.panel.families.unwrap();
    assert_eq!(families[0], "fam,a");
    assert_eq!(families[1], "fam,a");
    assert_ne!(families[2], "fam,a");
}

/// Every bad request fails through the Python entry with a message naming the setting as a
/// keyword argument, and through the command line's wording as a flag.
#[test]
fn python_messages_name_keyword_arguments_and_the_cli_flags() {
    let dir = tempfile::tempdir().unwrap();
    let wide = common::write(
        dir.path(),
        "p.csv",
        b"J1,J2,J3,A1,A2\n1,2,3,4,5\n2,1,4.5,2,1\n3,3,1,1,2.5\n0,5,2,3,-1\n4,2,2,5,3\n",
    );
    let long = common::write(
        dir.path(),
        "long.csv",
        b"item,rater,score\n1,J1,3\n1,J2,4\n",
    );
    for (what, request, setting) in bad_requests() {
        let file = if request.long.is_some() { &long } else { &wide };
        let file = file.to_str().unwrap();
        let e = api::json(
            argv(&["estimate", file]),
            Some(request.clone()),
            None,
            &|| false,
        )
        .err()
        .unwrap_or_else(|| panic!("{what}: the request must fail"));
        let python = e.worded(&Keywords);
        assert!(flags_named(&python).is_empty(), "{what}: {python}");
        assert!(
            python.contains(&*Keywords.setting(setting)),
            "{what}: {python} names no {}",
            Keywords.setting(setting)
        );
        let cli = e.worded(&Flags);
        assert!(cli.contains(&*Flags.setting(setting)), "{what}: {cli}");
    }
}

/// The notes of a load: a families sidecar adopted names the keyword that overrides it.
#[test]
fn python_notes_name_keyword_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("J1,J2,J3,A1,A2\n,1,1,1,1\n");
    for i in 0..40u32 {
        let t = f64::from(i % 9) * 0.31 + f64::from(i % 4) * 0.17;
        let e = |k: u32| f64::from((i * k) % 7) * 0.13;
        let _ = writeln!(
            csv,
            "{},{},{},{},{}",
            t + e(3),
            t + e(5),
            t + e(11),
            t + e(13),
            t + e(17)
        );
    }
    let panel = common::write(dir.path(), "p.csv", csv.as_bytes());
    common::write(dir.path(), "p.families.csv", b"judge,family\nJ1,a\nJ2,a\n");
    let o = api::json(
        argv(&["estimate", panel.to_str().unwrap()]),
        Some(PanelRequest::default()),
        None,
        &|| false,
    )
    .unwrap();
    let notes = o.notes.join("\n");
    assert!(notes.contains("families= overrides"), "{notes}");
    assert!(notes.contains("items dropped"), "{notes}");
    assert!(flags_named(&notes).is_empty(), "{notes}");
}

/// `read["why"]` and every message of the battery's document on the real panels, as Python
/// receives them, name no flag.
#[test]
fn python_battery_documents_on_the_real_panels_name_no_flag() {
    let data = common::shared();
    if !data.is_dir() {
        eprintln!("skipped: no shared data at {}", data.display());
        return;
    }
    let llm = |file: &str| data.join("hanna-llm").join(file);
    let judges = [
        "beluga_13b",
        "orca_platypus_13b",
        "mistral_7b",
        "llama2_13b_chat",
        "chatgpt",
    ];
    let human = ["human1", "human2", "human3"];
    let cases: Vec<(std::path::PathBuf, PanelRequest)> = vec![
        (
            llm("hanna_llm_coherence.csv"),
            PanelRequest {
                judges: Some(judges.map(ColumnRef::from).to_vec()),
                anchors: Some(human.map(ColumnRef::from).to_vec()),
                ..PanelRequest::default()
            },
        ),
        (
            // Every column read as numbers: the closed form's route.
            llm("hanna_llm_coherence.csv"),
            PanelRequest {
                judges: Some(judges.map(ColumnRef::from).to_vec()),
                anchors: Some(human.map(ColumnRef::from).to_vec()),
                continuous: Some(Columns::All),
                ..PanelRequest::default()
            },
        ),
        (
            data.join("hanna/hanna_coherence_panel.csv"),
            PanelRequest {
                judges: Some((2..=4).map(ColumnRef::Position).collect()),
                ..PanelRequest::default()
            },
        ),
    ];
    for (path, request) in cases {
        if !path.is_file() {
            eprintln!("skipped: {}", path.display());
            continue;
        }
        let args = [
            "battery",
            path.to_str().unwrap(),
            "--bootstrap",
            "100",
            "--null-draws",
            "100",
        ];
        let o = api::json(argv(&args), Some(request), None, &|| false).unwrap();
        let why = o.doc["read"]["why"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(flags_named(&why).is_empty(), "{}: {why}", path.display());
        let notes = o.notes.join("\n");
        assert!(
            flags_named(&notes).is_empty(),
            "{}: {notes}",
            path.display()
        );
        // Every string of the reading: its next steps and their changes too.
        let mut texts = Vec::new();
        strings(&o.doc["reading"], &mut texts);
        assert!(!texts.is_empty(), "{}: no reading", path.display());
        let all = texts.join("\n");
        assert!(
            flags_named(&all).is_empty(),
            "{}: {:?}",
            path.display(),
            flags_named(&all)
        );
        // Python shows no command line either: its steps are calls (`rhoscope.plan(…)`).
        assert!(
            command_lines(&all).is_empty(),
            "{}: {:?}",
            path.display(),
            command_lines(&all)
        );
    }
}

/// The lines of `text` holding a `rhoscope COMMAND` command line (Python's calls are
/// `rhoscope.NAME(…)`).
fn command_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            l.match_indices("rhoscope ")
                .any(|(i, _)| l[i + 9..].starts_with(|c: char| c.is_ascii_lowercase()))
        })
        .collect()
}

/// The "more items" step of a weakly identified panel is the planner's call in each front
/// end's words: `rhoscope plan --set …` on the command line, `rhoscope.plan(…)` in Python.
#[test]
fn the_more_items_step_is_a_python_call_in_python() {
    let dir = tempfile::tempdir().unwrap();
    let panel = dir.path().join("weak.csv");
    let p = panel.to_str().unwrap();
    let sim = [
        "simulate",
        "--preset",
        "three-anchor",
        "--n",
        "60",
        "--seed",
        "1",
        "-o",
        p,
    ];
    assert_eq!(common::run(dir.path(), &sim).code, 0);
    let args = ["battery", p, "--bootstrap", "100", "--null-draws", "100"];
    let cli = common::run(dir.path(), &args);
    assert!(
        cli.stdout
            .contains("rhoscope plan --set p=6 --set sigma_t2="),
        "{}",
        cli.stdout
    );
    let o = api::json(argv(&args), Some(PanelRequest::default()), None, &|| false).unwrap();
    let mut texts = Vec::new();
    strings(&o.doc["reading"], &mut texts);
    let all = texts.join("\n");
    assert!(
        all.contains("rhoscope.plan(target=\"ci-width=0.2\", p=6, sigma_t2="),
        "{all}"
    );
    assert!(flags_named(&all).is_empty(), "{:?}", flags_named(&all));
    assert!(command_lines(&all).is_empty(), "{:?}", command_lines(&all));
}

/// Every string in a JSON document.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// A report sentence that travels as text names the setting as the front end says it.
#[test]
fn marked_report_sentences_are_worded_by_each_front_end() {
    let dir = tempfile::tempdir().unwrap();
    // Ordinal anchors: the closed form flags ordinal_anchor, whose message names two settings.
    let mut csv = String::from("J1,J2,J3,A1,A2,A3\n");
    for i in 0..60u32 {
        let t = f64::from(i % 7) + f64::from(i % 3) * 0.37;
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{}",
            t + 0.11 * f64::from(i % 5),
            t * 0.9 + 0.3 * f64::from(i % 4),
            t * 1.1 - 0.2 * f64::from(i % 6),
            1 + i % 5,
            1 + (i + 2) % 5,
            t * 0.7 + f64::from(i % 2)
        );
    }
    let path = common::write(dir.path(), "ord.csv", csv.as_bytes());
    let p = path.to_str().unwrap();
    let o = api::json(
        argv(&["estimate", p]),
        Some(PanelRequest::default()),
        None,
        &|| false,
    );
    let doc = serde_json::to_string(&o.unwrap().doc).unwrap();
    assert!(doc.contains("continuous="), "{doc}");
    assert!(flags_named(&doc).is_empty(), "{doc}");
    let run = common::run(Path::new("."), &["estimate", p, "--json"]);
    assert!(run.stdout.contains("--continuous"), "{}", run.stdout);
    assert!(!run.stdout.contains('\u{e000}'), "{}", run.stdout);
}

/// The string literals of Rust source `src` outside its test module, each with its line.
fn literals(src: &str) -> Vec<(usize, String)> {
    let src = src
        .find("#[cfg(test)]\nmod tests")
        .map_or(src, |i| &src[..i]);
    let b: Vec<char> = src.chars().collect();
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    let at = |i: usize| b.get(i).copied().unwrap_or('\0');
    while i < b.len() {
        let c = b[i];
        if c == '\n' {
            line += 1;
        }
        if c == '/' && at(i + 1) == '/' {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '\'' {
            // A char literal ('"', '\'', 'x'), or a lifetime.
            if at(i + 1) == '\\' {
                i += 3;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
                continue;
            }
            if at(i + 2) == '\'' {
                i += 3;
                continue;
            }
        }
        let raw = c == 'r'
            && (at(i + 1) == '"' || at(i + 1) == '#')
            && !at(i.wrapping_sub(1)).is_alphanumeric();
        if raw {
            let mut j = i + 1;
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) == '"' {
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let rest: String = b[j + 1..].iter().collect();
                let end = rest.find(&close).unwrap_or(rest.len());
                let text = rest[..end].to_string();
                line += text.matches('\n').count();
                out.push((line, text));
                i = j + 1 + rest[..end].chars().count() + close.chars().count();
                continue;
            }
        }
        if c == '"' {
            let start = line;
            let mut text = String::new();
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    text.push(b[i]);
                    i += 1;
                }
                if b[i] == '\n' {
                    line += 1;
                }
                text.push(b[i]);
                i += 1;
            }
            out.push((start, text));
        }
        i += 1;
    }
    out
}

#[test]
fn the_literal_reader_finds_strings_and_skips_chars_and_comments() {
    let src = "let a = '\"'; // \"--nope\"\nlet b = \"x --judges\";\nlet c = r#\"y \"--q\"\"#;\n";
    let found: Vec<String> = literals(src).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        found,
        vec!["x --judges".to_string(), "y \"--q\"".to_string()]
    );
}

/// No library sentence names a command-line flag, outside a whole `rhoscope …` line offered
/// to copy: the command line's own modules word flags, and every other sentence refers to a
/// setting as a typed [`Setting`] or [`rhoscope::wording::RunSetting`] that each front end
/// words. (Python's own modules, under src/api, are checked by the Python tests.)
#[test]
fn no_library_sentence_names_a_flag() {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = common::root().join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files.sort();
    let front_end = |p: &Path| {
        let rel = p
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        rel.starts_with("cli/")
            || rel.starts_with("commands/")
            || rel.starts_with("api/")
            || ["cli.rs", "commands.rs", "api.rs", "main.rs", "throwaway.rs"]
                .contains(&rel.as_str())
    };
    let mut named = Vec::new();
    let mut seen = 0;
    for f in files.iter().filter(|f| !front_end(f)) {
        seen += 1;
        let text = std::fs::read_to_string(f).unwrap();
        for (line, lit) in literals(&text) {
            for flag in flags_named(&lit) {
                named.push(format!("{}:{line}: {flag}", f.display()));
            }
        }
    }
    assert!(seen > 100, "only {seen} library files read");
    assert!(named.is_empty(), "{}", named.join("\n"));
}

/// A run setting in a library sentence is the flag on the command line and plain words in
/// Python; a setting Python has is its keyword (an error of `validate`'s injected ρ, here).
#[test]
fn run_settings_are_worded_by_each_front_end() {
    use rhoscope::wording::RunSetting;
    for r in RunSetting::ALL {
        let flag = Flags.run(r);
        assert!(flag.starts_with("--"), "{r:?}: {flag}");
        assert!(flags_named(&Keywords.run(r)).is_empty(), "{r:?}");
        #[cfg(feature = "tui")]
        assert!(
            flags_named(&rhoscope::tui::text::Keys.run(r)).is_empty(),
            "{r:?}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("J1,J2,J3,A1,A2,A3\n");
    for i in 0..80u32 {
        let t = f64::from(i % 9) * 0.31 + f64::from(i % 4) * 0.17;
        let e = |k: u32| f64::from((i * k) % 7) * 0.13;
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{}",
            t + e(3),
            t + e(5),
            t + e(11),
            t + e(13),
            t + e(17),
            t + e(19)
        );
    }
    let path = common::write(dir.path(), "v.csv", csv.as_bytes());
    let p = path.to_str().unwrap();
    let bad = ["validate", p, "--inject", "0.2,0.4"];
    let run = common::run(Path::new("."), &bad);
    assert!(run.stderr.contains("--inject needs"), "{}", run.stderr);
    assert!(!run.stderr.contains('\u{e000}'), "{}", run.stderr);
    let Err(e) = api::json(argv(&bad), Some(PanelRequest::default()), None, &|| false) else {
        panic!("two injected values are refused");
    };
    let python = e.worded(&Keywords);
    assert!(flags_named(&python).is_empty(), "{python}");
    assert!(python.contains("inject= needs"), "{python}");
}

/// The docs' explorer screens are the explorer's snapshots line for line (trailing blanks
/// trimmed), so they are what the program draws: docs/explorer.md's first screen and
/// README's are `explorer__results_100x30`, "A real panel" is `explorer__llm_assigned_100x30`
/// (trial finding 39); `scripts/doc-screens.py` copies them over after a snapshot changes.
#[test]
fn the_docs_screens_are_the_snapshots() {
    let root = common::root();
    let drawn = |name: &str| -> Vec<String> {
        let snap =
            std::fs::read_to_string(root.join(format!("tests/snapshots/{name}.snap"))).unwrap();
        let body = snap
            .splitn(3, "---\n")
            .nth(2)
            .expect("a snapshot body")
            .to_string();
        body.lines()
            .filter(|l| l.len() >= 2)
            .map(|l| {
                l[1..l.len() - 1]
                    .replace("\\\"", "\"")
                    .replace("\\\\", "\\")
                    .trim_end()
                    .to_string()
            })
            .collect()
    };
    for (doc, nth, snap) in [
        ("docs/explorer.md", 0, "explorer__results_100x30"),
        ("docs/explorer.md", 1, "explorer__llm_assigned_100x30"),
        ("README.md", 0, "explorer__results_100x30"),
    ] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        let screen: Vec<String> = text
            .split("```\n")
            .skip(1)
            .step_by(2)
            .filter(|b| b.starts_with('┌'))
            .nth(nth)
            .unwrap_or_else(|| panic!("{doc}: screen {nth}"))
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect();
        assert_eq!(
            screen,
            drawn(snap),
            "{doc} vs {snap}: run scripts/doc-screens.py"
        );
    }
}

/// The censored flag's advice as the command line words it (trial 42 findings 3, 4, 25): the
/// judge named by its column, and no pretence that leaving a column out of a flag it is not
/// in marks it ordinal (the command line has no flag that does).
#[test]
fn the_censored_flag_names_the_column_and_no_step_the_cli_cannot_take() {
    use rhoscope::estimate::{Flag, FlagCode};
    let est = rhoscope::estimate::Estimate {
        sigma_t2: 0.5,
        sigma_c2: 0.5,
        k: 1.0,
        denominator: 1.0,
        pairs: Vec::new(),
        anchors: Vec::new(),
        flags: Vec::new(),
    };
    let flag = Flag {
        code: FlagCode::Censored,
        anchor: None,
        pair: Some((4, 4)),
        value: -0.63,
        remedy: None,
    };
    let judges: Vec<String> = ["a", "b", "c", "d", "chatgpt"].map(String::from).to_vec();
    let text = rhoscope::wording::reword(&flag.message(&est, &[], &judges), &Flags).into_owned();
    assert!(text.contains("judge chatgpt"), "{text}");
    assert!(!text.contains("judge number"), "{text}");
    assert!(!text.contains("leaving it out"), "{text}");
}
