//! The data pane: opening files, roles, scales, families, prompts and the loader's notes.

use super::*;

#[test]
fn files_load_in_place_roles_are_editable_and_the_walkthrough_steps() {
    let mut app = started(Start::File(
        common::root().join("assets/three-anchor.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    let Source::File(f) = &app.source else {
        panic!("a file source")
    };
    assert_eq!(f.header.len(), 9);
    assert_eq!(app.panel.as_ref().unwrap().m(), 3);
    // Walk through the diagnostics.
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Walkthrough(0));
    assert_eq!(app.focus, Pane::Config);
    for step in 1..7 {
        act(&mut app, Action::Next);
        assert_eq!(app.mode, Mode::Walkthrough(step));
        let (_, lines) = caption::of(&app).unwrap();
        assert!(!lines[0].is_empty());
    }
    // Make A3 (column 9) a judge: Space on it cycles anchor → ignored.
    act(&mut app, Action::Focus(Pane::Data));
    app.cursor = app.entries.len() + 8;
    act(&mut app, Action::CycleRole);
    assert_eq!(app.panel.as_ref().unwrap().m(), 2, "A3 is now ignored");
    // A bad file shows its error in place.
    let bad = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(bad.path(), "J1,J2,A1,A2\n1,2,x,4\n").unwrap();
    let effects = app.update(Action::Worker(WorkerMsg::Crashed));
    assert!(matches!(effects.as_slice(), [Effect::Quit]));
    let mut app = started(Start::File(
        bad.path().to_path_buf(),
        rhoscope::data::PanelRequest::default(),
    ));
    assert!(
        app.load_error
            .as_ref()
            .unwrap()
            .contains("row 2, column 'A1'")
    );
    act(&mut app, Action::Fine(1));
    assert!(app.status.contains("sliders drive simulated scenarios"));
}

#[test]
fn a_file_whose_roles_cannot_be_guessed_lists_its_header_for_space() {
    let app = llm_unassigned();
    let f = file_state(&app);
    assert_eq!(f.header.len(), 10, "every column is listed");
    assert!(f.roles.iter().all(|r| *r == Role::Ignored));
    assert!(app.panel.is_none() && app.load_error.is_some());
    assert_eq!(app.focus, Pane::Data);
    let text = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(
        text.contains("llama2_13b_chat") && text.contains("human1"),
        "{text}"
    );

    let mut app = llm_assigned();
    let panel = app.panel.clone().expect("a panel once roles are assigned");
    assert_eq!((panel.p(), panel.m()), (5, 3));
    assert_eq!(panel.anchors, ["human1", "human2", "human3"]);
    assert!(app.load_error.is_none());
    // Families come from families.csv beside the file, by name.
    let families = panel.families.clone().expect("families from families.csv");
    assert_eq!(
        families,
        ["llama2", "llama2", "mistral", "llama2", "openai"],
        "beluga, orca, mistral, llama2-chat, chatgpt"
    );
    assert_eq!(
        app.battery.as_ref().unwrap().null.kind,
        "matched",
        "a real panel is calibrated by the matched null"
    );
    // `+` on one judge changes that judge's family and no other's label.
    let before = file_state(&app).families.clone();
    app.cursor = app.entries.len() + 4; // mistral_7b
    act(&mut app, Action::Family(1));
    let after = file_state(&app).families.clone();
    for (c, (b, a)) in before.iter().zip(&after).enumerate() {
        if c == 4 {
            assert_ne!(b, a, "the edited judge's family changes");
        } else {
            assert_eq!(b, a, "column {c} keeps its label");
        }
    }
    // Anchor names are shown whole in the estimates pane.
    let text = format!("{:?}", screen(&app, 80, 24).backend());
    assert!(text.contains("human1") && text.contains("human3"), "{text}");
    // The walkthrough says what is true of this panel: names, not ρ_k; its N against the
    // row's N ≳ 10⁴; and, with every ρ̂ undefined, no talk of trusting point estimates.
    act(&mut app, Action::Next);
    let (_, lines) = caption::of(&app).unwrap();
    assert!(
        lines[0].contains("N = 1040") && lines[0].contains("expect low power"),
        "{lines:?}"
    );
    act(&mut app, Action::Next);
    let (_, lines) = caption::of(&app).unwrap();
    assert!(!lines[0].contains("ρ_1"), "{lines:?}");
    // On to the walkthrough's last step, the overall verdict.
    for _ in 0..20 {
        if caption::of(&app).unwrap().0.contains("overall") {
            break;
        }
        act(&mut app, Action::Next);
    }
    let (title, lines) = caption::of(&app).unwrap();
    assert!(title.contains("overall"), "{title}");
    assert!(
        lines[0].contains("Answer: no anchor's ρ can be read"),
        "{lines:?}"
    );
    assert!(!lines[0].contains("should not be trusted"), "{lines:?}");
}

#[test]
fn only_panels_are_offered_as_files() {
    let root = common::root();
    assert!(rhoscope::tui::is_panel_file(&root.join("assets/mid.csv")));
    assert!(!rhoscope::tui::is_panel_file(
        &root.join("assets/commands.txt")
    ));
    assert!(!rhoscope::tui::is_panel_file(
        &root.join("assets/families.families.csv")
    ));
    assert!(!rhoscope::tui::is_panel_file(
        &common::shared().join("hanna-llm/families.csv")
    ));
    // Every format the loader reads is offered, not only delimited text.
    assert!(rhoscope::tui::is_panel_file(
        &root.join("tests/fixtures/pipeline_snappy.parquet")
    ));
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("panel.jsonl");
    std::fs::write(
        &jsonl,
        "{\"J1\": 1, \"J2\": 2, \"A1\": 3}\n{\"J1\": 2, \"J2\": 3, \"A1\": 4}\n",
    )
    .unwrap();
    assert!(rhoscope::tui::is_panel_file(&jsonl));
}

#[test]
fn tab_completes_a_path_to_the_longest_common_prefix() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["panel_a.csv", "panel_b.csv", "other.csv"] {
        std::fs::write(dir.path().join(f), "J1,J2,A1\n").unwrap();
    }
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let d = dir.path().display().to_string();
    assert_eq!(
        rhoscope::tui::complete(&format!("{d}/pa")).0,
        format!("{d}/panel_")
    );
    assert_eq!(
        rhoscope::tui::complete(&format!("{d}/o")).0,
        format!("{d}/other.csv")
    );
    assert_eq!(
        rhoscope::tui::complete(&format!("{d}/s")).0,
        format!("{d}/sub/")
    );
    assert_eq!(
        rhoscope::tui::complete(&format!("{d}/zz")).0,
        format!("{d}/zz")
    );
    // Where Tab cannot go further, the status line lists what the path could become.
    let mut app = started(Start::Default);
    act(&mut app, Action::OpenPrompt);
    let tab = |text: &str| {
        let (text, choices) = rhoscope::tui::complete(text);
        Action::Prompt(PromptEdit::Completed { text, choices })
    };
    act(&mut app, tab(&format!("{d}/pa")));
    assert_eq!(
        app.overlay.prompt().unwrap().choices,
        ["panel_a.csv", "panel_b.csv"]
    );
    let status = rows_of(
        &screen(&app, 120, 40),
        ratatui::layout::Rect::new(0, 39, 120, 1),
    );
    // What each choice adds to the typed "panel_": what to type next.
    assert!(status[0].contains("panel_▏  a.csv  b.csv"), "{status:?}");
    // One more key and the list is gone; a Tab with one match lists nothing.
    act(&mut app, Action::Prompt(PromptEdit::Insert('a')));
    assert!(app.overlay.prompt().unwrap().choices.is_empty());
    act(&mut app, tab(&format!("{d}/o")));
    assert!(app.overlay.prompt().unwrap().choices.is_empty());
}

#[test]
fn the_open_prompt_deletes_a_word_and_clears_the_line_as_a_line_editor_does() {
    let mut app = started(Start::Default);
    act(&mut app, Action::OpenPrompt);
    type_text(&mut app, "data/runs/");
    act(&mut app, Action::Prompt(PromptEdit::DeleteWord));
    assert_eq!(app.prompt(), Some("data/"));
    act(&mut app, Action::Prompt(PromptEdit::ClearLine));
    assert_eq!(app.prompt(), Some(""));
}

#[test]
fn the_open_prompt_keeps_the_end_of_a_long_path_in_view_and_swallows_keys() {
    let mut app = started(Start::Default);
    act(&mut app, Action::OpenPrompt);
    let long = format!("{}/end_of_the_path.csv", "deep/".repeat(30));
    type_text(&mut app, &long);
    let g = app.generation;
    act(&mut app, Action::Fine(1));
    assert_eq!(app.generation, g, "keys go to the prompt, not the sliders");
    let t = screen(&app, 80, 24);
    let last = rows_of(&t, ratatui::layout::Rect::new(0, 23, 80, 1)).join("");
    assert!(last.contains("end_of_the_path.csv▏"), "{last}");
    act(&mut app, Action::Prompt(PromptEdit::Cancel));
    assert_eq!(app.prompt(), None);
}

#[test]
fn the_loaders_notes_are_shown_whole_in_the_data_pane_and_announced() {
    // Two items with a missing cell, and J3 a copy of J2 (tests/fixtures/notes.csv); the file
    // name carries an escape sequence, which must not reach the screen.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n\x1b]0;pwned\x07otes.csv");
    std::fs::copy(common::root().join("tests/fixtures/notes.csv"), &path).unwrap();
    let mut app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    let notes = file_state(&app).notes.clone();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("warning: identical judge columns 'J2' = 'J3'"));
    assert_eq!(
        notes[1],
        "row 5, column 'A1': note: 2 of 30 items dropped for missing values (first here)"
    );
    assert_eq!(app.status, "2 notes: see the data pane");
    // The status line shows the message whole even with a long path before it.
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let all = rows_of(&screen(&app, 80, 24), area).join("\n");
    assert!(all.contains("2 notes: see the data pane"), "{all}");
    assert!(!all.contains('\x1b') && !all.contains("pwned\x07"));
    // In the data pane at 80×24, every note is there word for word, numbers unclipped.
    act(&mut app, Action::Focus(Pane::Data));
    let t = screen(&app, 80, 24);
    let a = ui::areas(&app, area);
    let pane: Vec<String> = rows_of(&t, a.data)
        .iter()
        .map(|r| {
            r.trim_matches(|c: char| c == '│' || c.is_whitespace())
                .to_string()
        })
        .collect();
    let joined = pane.join(" ");
    for n in &notes {
        let words: Vec<&str> = n.split_whitespace().collect();
        assert!(
            joined.contains(&words.join(" ")),
            "{n:?} not whole in {pane:?}"
        );
    }
    // The next key clears the status; the notes stay in the pane.
    act(&mut app, Action::Down);
    assert!(app.status.is_empty());
    assert_eq!(file_state(&app).notes, notes);
    // A file with nothing to say shows no note.
    let quiet = started(Start::File(
        common::root().join("assets/mid.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    assert!(file_state(&quiet).notes.is_empty() && quiet.status.is_empty());
}

#[test]
fn the_data_pane_keeps_its_cursor_in_view() {
    let mut app = started(Start::File(
        common::root().join("assets/three-anchor.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    act(&mut app, Action::Focus(Pane::Data));
    act(&mut app, Action::Bottom);
    let s = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(s.contains("▸ A3"), "the last column is on screen:\n{s}");
}

#[test]
fn a_path_that_is_not_a_panel_keeps_the_panel_on_screen() {
    // A mistyped path, a folder or a figure must not cost the roles a user set by hand.
    let svg = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("not-a-panel.svg");
    std::fs::write(
        &svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<rect x=\"1\" y=\"2\"/>\n</svg>\n",
    )
    .unwrap();
    let ragged = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ragged.csv");
    std::fs::write(&ragged, "J1,J2,A1\n1,2,3\n4,5\n").unwrap();
    for bad in [
        "/no/such/panel.csv".to_string(),
        env!("CARGO_TARGET_TMPDIR").to_string(),
        svg.display().to_string(),
        ragged.display().to_string(),
    ] {
        let mut app = llm_assigned();
        let (panel, roles, entries) = (
            app.panel.clone().unwrap(),
            file_state(&app).roles.clone(),
            app.entries.clone(),
        );
        let battery = app.battery.as_ref().unwrap().tests.clone();
        act(&mut app, Action::OpenPrompt);
        type_text(&mut app, &bad);
        act(&mut app, Action::Prompt(PromptEdit::Submit));
        assert!(
            std::sync::Arc::ptr_eq(app.panel.as_ref().unwrap(), &panel),
            "{bad}"
        );
        assert_eq!(file_state(&app).roles, roles, "{bad}");
        assert_eq!(app.entries, entries, "{bad}: the bad path is not listed");
        assert_eq!(app.battery.as_ref().unwrap().tests, battery, "{bad}");
        let error = app.load_error.clone().unwrap();
        assert!(
            error.starts_with("error (your panel stays open): "),
            "{error}"
        );
        assert!(!error.contains("Space on a column"), "{error}");
        // Trial 45, finding 14: the path as typed, folder and all, not its file name alone.
        if bad.starts_with("/no/") {
            assert!(error.contains("/no/such/panel.csv"), "{error}");
        }
        // The screen still shows the old verdicts, not "recomputing…".
        let text = rows_of(
            &screen(&app, 100, 30),
            ratatui::layout::Rect::new(0, 0, 100, 30),
        )
        .join("\n");
        assert!(!text.contains("recomputing"), "{bad}: {text}");
    }
    // A panel whose roles cannot be guessed is opened (its columns listed for Space).
    let app = llm_unassigned();
    assert!(file_state(&app).header.len() > 5);
    assert!(
        app.load_error
            .as_ref()
            .unwrap()
            .contains("Space on a column")
    );
}

#[test]
fn a_families_file_that_names_no_column_says_so() {
    // hanna-llm's families.csv names the models (beluga_13b, …), which are the columns of
    // hanna_llm_coherence.csv but not of hanna_llm_scores.csv (coherence.beluga_13b.p1, …).
    let load = |file: &str, judges: &[&str], anchors: &[&str]| {
        let job = rhoscope::tui::action::LoadJob {
            generation: 1,
            path: common::shared().join("hanna-llm").join(file),
            options: rhoscope::data::PanelRequest {
                judges: Some(judges.iter().map(|j| (*j).into()).collect()),
                anchors: Some(anchors.iter().map(|a| (*a).into()).collect()),
                ..rhoscope::data::PanelRequest::default()
            },
        };
        match worker::run_load(&job) {
            WorkerMsg::Loaded { result: Ok(f), .. } => f.notes,
            other => panic!("{other:?}"),
        }
    };
    let notes = load(
        "hanna_llm_scores.csv",
        &["coherence.beluga_13b.p1", "coherence.mistral_7b.p1"],
        &["coherence.human1", "coherence.human2"],
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("families.csv beside it names none of this panel's judges")),
        "{notes:?}"
    );
    let notes = load(
        "hanna_llm_coherence.csv",
        &["beluga_13b", "mistral_7b"],
        &["human1", "human2"],
    );
    assert!(!notes.iter().any(|n| n.contains("names none")), "{notes:?}");
}

#[test]
fn the_first_load_that_succeeds_says_how_many_notes_it_brought() {
    // hanna-llm's coherence file needs its roles set by hand; the first load that succeeds
    // (two judges) drops items for missing values, and the status line says a note waits.
    let mut app = llm_unassigned();
    let base = app.entries.len();
    app.cursor = base + 2;
    act(&mut app, Action::CycleRole);
    assert!(app.panel.is_none());
    app.cursor = base + 3;
    act(&mut app, Action::CycleRole);
    assert!(app.panel.is_some(), "{:?}", app.load_error);
    let notes = file_state(&app).notes.clone();
    assert!(
        notes[1].contains("items dropped for missing values"),
        "{notes:?}"
    );
    // The families sidecar beside it is adopted, and says so.
    assert!(notes[0].contains("judge families read from"), "{notes:?}");
    assert!(
        app.status.contains("2 notes: see the data pane"),
        "{}",
        app.status
    );
    // A family edit makes the families the user's: the sidecar's note goes, and the status
    // line counts the one note left.
    act(&mut app, Action::Family(1));
    let notes = file_state(&app).notes.clone();
    assert!(
        notes
            .iter()
            .all(|n| !n.contains("judge families read from")),
        "{notes:?}"
    );
    assert!(
        app.status.contains("1 note: see the data pane"),
        "{}",
        app.status
    );
}

#[test]
fn the_data_pane_never_starts_inside_a_note() {
    // With the cursor on the last column at 80×24 the list scrolls; it used to start on the
    // tail of the loader's note ("79, column 'llama2_13b_chat')"), which reads as nonsense.
    for (w, h) in SIZES {
        let mut app = llm_assigned();
        // An error pinned on top (a mistyped path) leaves the list fewer rows.
        act(&mut app, Action::OpenPrompt);
        type_text(&mut app, "/no/such.csv");
        act(&mut app, Action::Prompt(PromptEdit::Submit));
        act(&mut app, Action::Focus(Pane::Data));
        act(&mut app, Action::Bottom);
        let rows = pane_rows(&app, Pane::Data, w, h);
        let tail = rows.iter().any(|r| r.contains("'llama2_13b_chat')"));
        let head = rows.iter().any(|r| r.contains("note: 16 of 1056"));
        assert!(!tail || head, "{w}×{h}: {rows:#?}");
        assert!(
            rows.iter().any(|r| r.contains("▸ human3")),
            "{w}×{h}: {rows:#?}"
        );
    }
}

#[test]
fn a_failed_reload_puts_the_roles_back_and_clears_recomputing() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = llm_copy_assigned(dir.path());
    assert!(
        app.panel.is_some() && !app.battery_stale(),
        "{:?}",
        app.load_error
    );
    let roles = file_state(&app).roles.clone();
    let generation = app.generation;
    std::fs::remove_file(dir.path().join("copy.csv")).unwrap();
    app.cursor = app.entries.len() + 2;
    act(&mut app, Action::CycleRole);
    assert_eq!(file_state(&app).roles, roles, "the roles go back");
    assert_eq!(app.generation, generation);
    assert!(!app.battery_stale(), "no 'recomputing…' for ever");
    assert!(
        app.load_error
            .as_deref()
            .is_some_and(|e| e.contains("stay as they were")),
        "{:?}",
        app.load_error
    );
}

#[test]
fn a_new_seed_on_a_file_says_why_and_keeps_the_panel() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = llm_copy_assigned(dir.path());
    let panel = app.panel.clone();
    act(&mut app, Action::NewSeed);
    assert_eq!(app.panel, panel, "the file's panel stays");
    assert!(app.status.contains("simulated scenario"), "{}", app.status);
}

/// `c` on the three human anchors of HANNA-LLM scores them continuous: the free-scale fit and
/// Test O run, the scale cell says so, and `c` again puts a column back on its own scale.
#[test]
fn c_changes_a_columns_scale_and_the_battery_follows() {
    let mut app = llm_assigned();
    let base = app.entries.len();
    let text = format!("{:?}", screen(&app, 80, 24).backend());
    assert!(
        text.contains("anchor ord"),
        "the scale cell is never blank: {text}"
    );
    assert_eq!(
        app.battery.as_ref().unwrap().tests[TestId::O].verdict,
        Verdict::NotApplicable
    );
    // A judge with fractional scores is continuous as read: nothing to change.
    app.cursor = base + 2;
    let g = app.generation;
    act(&mut app, Action::ToggleScale);
    assert_eq!(app.generation, g);
    assert!(app.status.contains("continuous as read"), "{}", app.status);
    for c in 7..10 {
        app.cursor = base + c;
        act(&mut app, Action::ToggleScale);
    }
    let panel = app.panel.clone().unwrap();
    assert!(panel.scales.iter().all(|s| !s.is_ordinal()));
    let r = app.battery.as_ref().unwrap();
    assert!(!app.battery_stale());
    // The free-scale fit now runs, and its identified set rejects the model: Test O names that.
    assert!(r.tests[TestId::O].message.contains("flag anchors_misfit"));
    assert!(app.fit.as_ref().unwrap().free_scale().is_some());
    let text = format!("{:?}", screen(&app, 80, 24).backend());
    assert!(text.contains("anchor cont"), "{text}");
    // Roles edited after the change keep it; `c` again undoes it.
    app.cursor = base + 9;
    act(&mut app, Action::ToggleScale);
    assert!(app.panel.as_ref().unwrap().scales[7].is_ordinal());
    assert_eq!(
        file_state(&app).continuous,
        Some(rhoscope::data::Columns::Listed(vec![
            "human1".into(),
            "human2".into()
        ]))
    );
}

/// The command line's `--continuous` is where the data pane starts, and `c` edits it.
#[test]
fn continuous_from_the_command_line_is_honoured_and_editable() {
    let path = common::shared().join("hanna-llm/hanna_llm_coherence.csv");
    let options = rhoscope::data::PanelRequest {
        judges: Some(
            [
                "beluga_13b",
                "orca_platypus_13b",
                "mistral_7b",
                "llama2_13b_chat",
                "chatgpt",
            ]
            .map(rhoscope::data::ColumnRef::from)
            .to_vec(),
        ),
        anchors: Some(
            ["human1", "human2", "human3"]
                .map(rhoscope::data::ColumnRef::from)
                .to_vec(),
        ),
        continuous: Some(rhoscope::data::Columns::All),
        ..rhoscope::data::PanelRequest::default()
    };
    let mut app = started(Start::File(path, options));
    assert_eq!(
        app.cursor,
        app.entries.len(),
        "the cursor starts on the file's columns"
    );
    // Every column continuous: the free-scale fit runs and rejects the anchors (Test O says so).
    let o = &app.battery.as_ref().unwrap().tests[TestId::O];
    assert!(o.message.contains("flag anchors_misfit"), "{}", o.message);
    app.cursor = app.entries.len() + 7;
    act(&mut app, Action::ToggleScale);
    let f = file_state(&app);
    assert!(!f.forces_continuous("human1") && f.forces_continuous("human2"));
    assert!(app.panel.as_ref().unwrap().scales[5].is_ordinal());
    // Enter on a preset is not where the cursor starts: the file stays.
    assert!(matches!(app.source, Source::File(_)));
}

/// `F` types a judge's family by name; an empty name clears it; a non-judge says why.
#[test]
fn families_are_typed_by_name() {
    let mut app = llm_assigned();
    let base = app.entries.len();
    app.cursor = base + 4;
    act(&mut app, Action::TypeFamily);
    assert_eq!(app.prompt(), Some("mistral"));
    for _ in 0..7 {
        act(&mut app, Action::Prompt(PromptEdit::Backspace));
    }
    type_text(&mut app, "llama2");
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    assert_eq!(app.prompt(), None);
    assert_eq!(file_state(&app).families[4].as_deref(), Some("llama2"));
    let fams = app.panel.as_ref().unwrap().families.clone().unwrap();
    assert_eq!(fams[2], "llama2");
    app.cursor = base + 8;
    act(&mut app, Action::TypeFamily);
    assert_eq!(app.prompt(), None);
    assert!(
        app.status.contains("families are for judges"),
        "{}",
        app.status
    );
}

/// Wide (CJK) column names take two cells a character: the data pane's columns stay in
/// place (role, scale and missing count under their headings), and an anchor's interval
/// stays on its row of the estimates pane.
#[test]
fn wide_names_keep_the_columns_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("uni.csv");
    let src = std::fs::read_to_string("assets/three-anchor.csv").unwrap();
    let mut lines = src.lines();
    let header = lines.next().unwrap().split(',').count();
    let names = [
        "ジャッジ_一号_とても長い名前です",
        "ジャッジ_二号_とても長い名前です",
        "ジャッジ_三号",
        "アンカー1",
        "アンカー2",
    ];
    let mut text = names.join(",") + "\n";
    for l in lines.take(300) {
        let cells: Vec<&str> = l.split(',').collect();
        assert_eq!(cells.len(), header);
        let picked: Vec<&str> = [0, 1, 2, 6, 7].iter().map(|&i| cells[i]).collect();
        text.push_str(&picked.join(","));
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    let mut app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    act(&mut app, Action::Focus(Pane::Data));
    for (i, role) in [1, 1, 1, 2, 2].into_iter().enumerate() {
        app.cursor = app.entries.len() + i;
        for _ in 0..role {
            act(&mut app, Action::CycleRole);
        }
    }
    assert_eq!(
        app.panel.as_deref().map(|p| p.anchors.len()),
        Some(2),
        "{:?}",
        app.load_error
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = pane_rows(&app, Pane::Data, w, h);
        // One character a cell: a wide character's second cell is a blank of its own.
        let at = |l: &str, word: &str| l.find(word).map(|b| l[..b].chars().count());
        let heading = rows
            .iter()
            .find(|l| l.trim_start().starts_with("column"))
            .unwrap();
        let role_at = at(heading, "role").unwrap();
        let columns: Vec<&String> = rows
            .iter()
            .filter(|l| l.contains(" judge ") || l.contains(" anchor "))
            .collect();
        assert_eq!(columns.len(), names.len(), "{w}×{h}: {rows:#?}");
        for row in columns {
            let col = at(row, " judge ").or_else(|| at(row, " anchor ")).unwrap() + 1;
            assert_eq!(col, role_at, "{w}×{h}: {rows:#?}");
            assert!(row.contains("cont"), "{w}×{h}: {rows:#?}");
        }
        let est = pane_rows(&app, Pane::Estimates, w, h);
        for l in est.iter().filter(|l| l.contains("ρ̂") && l.contains('[')) {
            assert!(l.contains(']'), "{w}×{h}: {est:#?}");
        }
    }
}

/// A text column made a judge before any panel loads is set back to —, named on the status
/// line, and the other roles stay (docs/explorer.md: undone, the reason names the column).
#[test]
fn a_text_column_made_a_judge_is_undone_and_named() {
    let path = common::shared().join("hanna/hanna_ratings_with_workers.csv");
    let mut app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    act(&mut app, Action::Focus(Pane::Data));
    let first = app.entries.len();
    app.cursor = first + 2; // Model: "Human", "GPT", …
    act(&mut app, Action::CycleRole);
    assert_eq!(
        file_state(&app).roles[2],
        Role::Ignored,
        "{:?}",
        app.load_error
    );
    assert!(
        app.status.contains("'Model' set back to —"),
        "{}",
        app.status
    );
    app.cursor = first + 3; // Relevance
    act(&mut app, Action::CycleRole);
    let roles = &file_state(&app).roles;
    assert_eq!(roles[2], Role::Ignored, "{:?}", app.load_error);
    assert_eq!(roles[3], Role::Judge);
}

/// The families sidecar's note stays through role edits (the families are still the
/// sidecar's), and goes once a judge's family is overridden by hand.
#[test]
fn the_families_note_survives_role_edits() {
    let has = |app: &App| {
        file_state(app)
            .notes
            .iter()
            .any(|n| n.contains("judge families read from"))
    };
    let mut app = llm_assigned();
    assert!(has(&app), "{:?}", file_state(&app).notes);
    app.cursor = app.entries.len() + 9; // human3: anchor → —
    act(&mut app, Action::CycleRole);
    assert!(has(&app), "{:?}", file_state(&app).notes);
    assert_eq!(app.panel.as_deref().unwrap().m(), 2);
    app.cursor = app.entries.len() + 2; // beluga_13b: another family
    act(&mut app, Action::Family(1));
    assert!(!has(&app), "{:?}", file_state(&app).notes);
}

/// A long load error is read whole in the data pane at 80×24, above the list, which keeps
/// the cursor's row (trial 42 finding 17: the reason was cut below the list).
#[test]
fn a_long_load_error_is_shown_whole_at_80x24() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("h-f-17");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lk_bat.txt");
    std::fs::write(
        &path,
        "rhoscope battery output\nitems: 1040 used, 16 dropped\n",
    )
    .unwrap();
    let mut app = started(Start::Default);
    act(&mut app, Action::OpenPrompt);
    type_text(&mut app, path.to_str().unwrap());
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    let error = app.load_error.clone().unwrap();
    assert!(error.contains("ragged row"), "{error}");
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let rows = pane_rows(&app, Pane::Data, 80, 24);
    let shown: Vec<&str> = rows.iter().map(|r| r.trim_matches('│').trim()).collect();
    assert!(
        squash(&shown.join(" ")).contains(&squash(&error)),
        "{error}\n{rows:#?}"
    );
    assert!(rows.iter().any(|r| r.contains('▸')), "{rows:#?}");
}

// The API half needs the command line's code (the `cli` feature).
#[cfg(feature = "cli")]
#[test]
fn the_drop_note_is_one_string_in_the_explorer_the_json_and_the_api() {
    // The loader words the note once; each front end prints it (the explorer without the
    // file name, which the data pane shows above it).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.csv");
    std::fs::copy(common::root().join("tests/fixtures/notes.csv"), &path).unwrap();
    let shown = path.display().to_string();
    let app = started(Start::File(
        path.clone(),
        rhoscope::data::PanelRequest::default(),
    ));
    let explorer = file_state(&app).notes[1].clone();
    let expected = format!("{shown}: {explorer}");
    assert!(explorer.contains("2 of 30 items dropped"), "{explorer}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rhoscope"))
        .args(["estimate", &shown, "--json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let json: Vec<&str> = doc["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(json.contains(&expected.as_str()), "{json:?}\n{expected}");
    let argv = ["rhoscope", "estimate", &shown].map(std::ffi::OsString::from);
    let api = rhoscope::api::json(argv.to_vec(), None, None, &|| false).unwrap();
    assert!(api.notes.contains(&expected), "{:?}\n{expected}", api.notes);
}
