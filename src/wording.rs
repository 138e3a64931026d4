//! Sentences that refer to a user's setting, kept typed so that each front end words the
//! setting in its own language: the command line as a flag (`--anchors`), the explorer as
//! its key, Python as a keyword argument (`anchors=`). The core never names a flag.
//!
//! A sentence that must travel as text (inside a report's JSON, say) carries its settings
//! marked ([`Said::marked`]): each a key between two private-use characters, which every
//! front end replaces with its own words ([`reword`]) before anyone reads it.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

/// A setting a user can change, named by a message without saying how it is changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Setting {
    /// Which columns (or long-layout raters) are judges.
    Judges,
    /// Which columns (or long-layout raters) are anchors.
    Anchors,
    /// Judges set aside: columns that take no role.
    SetAside,
    /// The id column, which takes no role.
    Id,
    /// The long layout's item, rater and score columns.
    Long,
    /// The judges' families (a judge → family map or a two-column file).
    Families,
    /// Columns whose codes are read as numbers on an interval scale.
    Continuous,
    /// Columns read as ordinal (Likert) codes.
    Ordinal,
    /// Asking for the free-scale estimate.
    FreeScale,
    /// Naming an anchor known to be clean.
    DesignatedClean,
    /// Test A on ordinal codes read as numbers (the paper's convention).
    CodesAsNumbers,
    /// The free-scale estimate's bias correction.
    BiasCorrect,
    /// Failing when a diagnostic fires.
    FailOnDiagnostic,
    /// A planner's target (a CI width or a test's power).
    Target,
    /// The ρ injected into a validation's synthetic anchors.
    Inject,
    /// Replacing an existing output file.
    Force,
    /// The simulated scenario (a preset and its overrides).
    Scenario,
}

/// A choice of how one command runs, not of the panel (resamples, the planner's search, a
/// scenario): named by a message without saying how it is changed. Apart from [`Setting`] so
/// that a front end without the choice (Python's keywords, say) words it in plain words by
/// default ([`Wording::run`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RunSetting {
    /// The number of bootstrap resamples.
    Bootstrap,
    /// A named scenario to start from.
    Preset,
    /// A scenario parameter set by KEY=VALUE.
    Set,
    /// The planner's largest N searched.
    MaxN,
    /// The planner's target.
    Target,
    /// Replications of a simulation study.
    Reps,
    /// The ρ injected into a validation study's synthetic anchors.
    Inject,
}

impl RunSetting {
    /// Every run setting, for tests that word each one.
    pub const ALL: [RunSetting; 7] = [
        RunSetting::Bootstrap,
        RunSetting::Preset,
        RunSetting::Set,
        RunSetting::MaxN,
        RunSetting::Target,
        RunSetting::Reps,
        RunSetting::Inject,
    ];

    /// The setting's stable key, as marked in text (apart from every [`Setting::key`]).
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            RunSetting::Bootstrap => "run.bootstrap",
            RunSetting::Preset => "run.preset",
            RunSetting::Set => "run.set",
            RunSetting::MaxN => "run.max_n",
            RunSetting::Target => "run.target",
            RunSetting::Reps => "run.reps",
            RunSetting::Inject => "run.inject",
        }
    }

    /// The setting marked in text, for a front end to word with [`reword`].
    #[must_use]
    pub fn marked(self) -> String {
        format!("{OPEN}{}{CLOSE}", self.key())
    }

    /// The setting given `values`, marked in text for a front end to word with [`reword`]
    /// as its user runs that change ([`Wording::run_given`]).
    #[must_use]
    pub fn marked_given(self, values: &[String]) -> String {
        mark_given(self.key(), values)
    }

    /// The setting described in plain words.
    #[must_use]
    pub fn described(self) -> &'static str {
        match self {
            RunSetting::Bootstrap => "the number of bootstrap resamples",
            RunSetting::Preset => "a preset scenario",
            RunSetting::Set => "the scenario's parameters",
            RunSetting::MaxN => "the largest N searched",
            RunSetting::Target => "the planner's target",
            RunSetting::Reps => "the number of replications",
            RunSetting::Inject => "the injected ρ",
        }
    }
}

/// Opens a marked setting in text (a private-use character no file or user writes).
const OPEN: char = '\u{E000}';
/// Closes a marked setting.
const CLOSE: char = '\u{E001}';
/// Separates a marked setting's values (a change the user can make: `--anchors A,B`).
const VALUE: char = '\u{E002}';

impl Setting {
    /// The setting's stable key, as marked in text.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Setting::Judges => "judges",
            Setting::Anchors => "anchors",
            Setting::SetAside => "set_aside",
            Setting::Id => "id",
            Setting::Long => "long",
            Setting::Families => "families",
            Setting::Continuous => "continuous",
            Setting::Ordinal => "ordinal",
            Setting::FreeScale => "free_scale",
            Setting::DesignatedClean => "designated_clean",
            Setting::CodesAsNumbers => "codes_as_numbers",
            Setting::BiasCorrect => "bias_correct",
            Setting::FailOnDiagnostic => "fail_on_diagnostic",
            Setting::Target => "target",
            Setting::Inject => "inject",
            Setting::Force => "force",
            Setting::Scenario => "scenario",
        }
    }

    /// The setting marked in text, for a front end to word with [`reword`].
    #[must_use]
    pub fn marked(self) -> String {
        format!("{OPEN}{}{CLOSE}", self.key())
    }

    /// The setting given `values`, marked in text for a front end to word with [`reword`]
    /// as its user types that change ([`Wording::given`]).
    #[must_use]
    pub fn marked_given(self, values: &[String]) -> String {
        mark_given(self.key(), values)
    }

    /// The setting of a key.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Setting> {
        Setting::ALL.into_iter().find(|s| s.key() == key)
    }

    /// Every setting, for tests that word each one.
    pub const ALL: [Setting; 17] = [
        Setting::Judges,
        Setting::Anchors,
        Setting::SetAside,
        Setting::Id,
        Setting::Long,
        Setting::Families,
        Setting::Continuous,
        Setting::Ordinal,
        Setting::FreeScale,
        Setting::DesignatedClean,
        Setting::CodesAsNumbers,
        Setting::BiasCorrect,
        Setting::FailOnDiagnostic,
        Setting::Target,
        Setting::Inject,
        Setting::Force,
        Setting::Scenario,
    ];

    /// The setting described in plain words, for a message shown outside any front end.
    #[must_use]
    pub fn described(self) -> &'static str {
        match self {
            Setting::Judges => "the judge selection",
            Setting::Anchors => "the anchor selection",
            Setting::SetAside => "the judges set aside",
            Setting::Id => "the id column",
            Setting::Long => "the long layout's columns",
            Setting::Families => "the judges' families",
            Setting::Continuous => "the columns marked continuous",
            Setting::Ordinal => "the columns marked ordinal",
            Setting::FreeScale => "the free-scale estimate",
            Setting::DesignatedClean => "the designated clean anchor",
            Setting::CodesAsNumbers => "Test A on codes read as numbers",
            Setting::BiasCorrect => "the bias correction",
            Setting::FailOnDiagnostic => "failing on a diagnostic",
            Setting::Target => "the target",
            Setting::Inject => "the injected ρ",
            Setting::Force => "replacing the file",
            Setting::Scenario => "the scenario",
        }
    }
}

/// How a front end names a setting inside a sentence.
pub trait Wording {
    /// `setting` as this front end's user changes it: a flag, a key, a keyword argument.
    fn setting(&self, setting: Setting) -> Cow<'static, str>;

    /// `setting` given `values`, as this front end's user types the change (the command
    /// line's `--anchors A,B`).
    fn given(&self, setting: Setting, values: &[String]) -> String {
        format!("{} {}", self.setting(setting), values.join(","))
    }

    /// `setting` of a command's run as this front end's user changes it; plain words unless
    /// the front end has the choice.
    fn run(&self, setting: RunSetting) -> Cow<'static, str> {
        Cow::Borrowed(setting.described())
    }

    /// `setting` given `values`, as this front end's user runs the change. For the planner's
    /// target, `values` are the target then the scenario's `KEY=VALUE` pairs: by default the
    /// planner's command line in this front end's words for its settings (the command
    /// line's own, word for word).
    fn run_given(&self, setting: RunSetting, values: &[String]) -> String {
        match (setting, values.split_first()) {
            (RunSetting::Target, Some((target, set))) => {
                let set_word = self.run(RunSetting::Set);
                let sets = set.iter().fold(String::new(), |mut out, kv| {
                    let _ = write!(out, "{set_word} {kv} ");
                    out
                });
                format!(
                    "rhoscope plan {sets}{} {target}",
                    self.run(RunSetting::Target)
                )
            }
            _ => format!("{} {}", self.run(setting), values.join(",")),
        }
    }
}

/// The wording outside any front end: each setting described in plain words.
#[derive(Debug, Clone, Copy, Default)]
pub struct Described;

impl Wording for Described {
    fn setting(&self, setting: Setting) -> Cow<'static, str> {
        Cow::Borrowed(setting.described())
    }
}

/// One part of a sentence: text, or a setting a front end words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Setting(Setting),
}

/// A sentence that may refer to settings, worded by each front end.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Said(Vec<Piece>);

impl Said {
    /// A sentence starting with `text`.
    #[must_use]
    pub fn new(text: impl Into<String>) -> Self {
        Said(vec![Piece::Text(text.into())])
    }

    /// This sentence, then `setting` as the front end names it.
    #[must_use]
    pub fn setting(mut self, setting: Setting) -> Self {
        self.0.push(Piece::Setting(setting));
        self
    }

    /// This sentence, then `text`.
    #[must_use]
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.0.push(Piece::Text(text.into()));
        self
    }

    /// `text`, then this sentence.
    #[must_use]
    pub fn after(mut self, text: impl Into<String>) -> Self {
        self.0.insert(0, Piece::Text(text.into()));
        self
    }

    /// The sentence with `f` applied to each text part (sanitising a file's names, say).
    #[must_use]
    pub fn map_text(self, f: impl Fn(&str) -> String) -> Self {
        Said(
            self.0
                .into_iter()
                .map(|p| match p {
                    Piece::Text(t) => Piece::Text(f(&t)),
                    s @ Piece::Setting(_) => s,
                })
                .collect(),
        )
    }

    /// The sentence in a front end's words.
    #[must_use]
    pub fn worded(&self, wording: &dyn Wording) -> String {
        self.0
            .iter()
            .map(|p| match p {
                Piece::Text(t) => reword(t, wording),
                Piece::Setting(s) => wording.setting(*s),
            })
            .collect()
    }

    /// The sentence as text with its settings marked, for a front end to word later with
    /// [`reword`] (a sentence inside a report, say).
    #[must_use]
    pub fn marked(&self) -> String {
        self.worded(&Marked)
    }

    /// The settings the sentence refers to, in order.
    #[must_use]
    pub fn settings(&self) -> Vec<Setting> {
        self.0
            .iter()
            .filter_map(|p| match p {
                Piece::Setting(s) => Some(*s),
                Piece::Text(_) => None,
            })
            .collect()
    }

    /// The parts of the sentence.
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.0
    }
}

/// Settings marked in text, for [`reword`].
struct Marked;

impl Wording for Marked {
    fn setting(&self, setting: Setting) -> Cow<'static, str> {
        Cow::Owned(setting.marked())
    }

    fn given(&self, setting: Setting, values: &[String]) -> String {
        setting.marked_given(values)
    }

    fn run(&self, setting: RunSetting) -> Cow<'static, str> {
        Cow::Owned(setting.marked())
    }

    fn run_given(&self, setting: RunSetting, values: &[String]) -> String {
        setting.marked_given(values)
    }
}

/// `text` with each marked setting ([`Said::marked`]) in a front end's words.
#[must_use]
pub fn reword<'a>(text: &'a str, wording: &dyn Wording) -> Cow<'a, str> {
    if !text.contains(OPEN) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + OPEN.len_utf8()..];
        let Some(j) = after.find(CLOSE) else {
            rest = after;
            break;
        };
        let mut parts = after[..j].split(VALUE);
        let key = parts.next().unwrap_or_default();
        let values: Vec<String> = parts.map(String::from).collect();
        match Setting::from_key(key) {
            Some(s) if values.is_empty() => out.push_str(&wording.setting(s)),
            Some(s) => out.push_str(&wording.given(s, &values)),
            None => match RunSetting::ALL.into_iter().find(|r| r.key() == key) {
                Some(r) if values.is_empty() => out.push_str(&wording.run(r)),
                Some(r) => out.push_str(&wording.run_given(r, &values)),
                None => out.push_str(key),
            },
        }
        rest = &after[j + CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Every string of a JSON document with its marked settings in a front end's words.
pub fn reword_json(doc: &mut serde_json::Value, wording: &dyn Wording) {
    match doc {
        serde_json::Value::String(s) => {
            if let Cow::Owned(w) = reword(s, wording) {
                *s = w;
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                reword_json(v, wording);
            }
        }
        serde_json::Value::Object(map) => {
            for v in map.values_mut() {
                reword_json(v, wording);
            }
        }
        _ => {}
    }
}

impl From<String> for Said {
    fn from(text: String) -> Self {
        Said::new(text)
    }
}

impl From<&str> for Said {
    fn from(text: &str) -> Self {
        Said::new(text)
    }
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(&Described))
    }
}

/// A setting's key with `values`, in the marks [`reword`] finds (one format for
/// [`Setting`] and [`RunSetting`]).
fn mark_given(key: &str, values: &[String]) -> String {
    let mut s = format!("{OPEN}{key}");
    for v in values {
        s.push(VALUE);
        s.push_str(v);
    }
    s.push(CLOSE);
    s
}

/// A panel's source as every screen names it: the path, or "standard input" for `-`, which
/// says nothing to a reader (trial 43, finding 22).
#[must_use]
pub fn source_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

#[cfg(test)]
mod tests {
    /// Trial 43, finding 22: a panel from standard input was named "-".
    #[test]
    fn standard_input_is_named_in_words() {
        assert_eq!(
            super::source_name(std::path::Path::new("-")),
            "standard input"
        );
        assert_eq!(super::source_name(std::path::Path::new("a/-")), "a/-");
    }

    use super::*;

    struct Flags;
    impl Wording for Flags {
        fn setting(&self, s: Setting) -> Cow<'static, str> {
            Cow::Owned(format!("--{s:?}"))
        }
    }

    #[test]
    fn each_front_end_words_the_same_sentence() {
        let s = Said::new("fewer than 2 judges; name them with ")
            .setting(Setting::Judges)
            .after("panel.csv: ");
        assert_eq!(
            s.worded(&Flags),
            "panel.csv: fewer than 2 judges; name them with --Judges"
        );
        assert_eq!(
            s.to_string(),
            "panel.csv: fewer than 2 judges; name them with the judge selection"
        );
        assert_eq!(s.settings(), vec![Setting::Judges]);
        let text = format!("read: {}", s.marked());
        assert_eq!(
            reword(&text, &Flags),
            "read: panel.csv: fewer than 2 judges; name them with --Judges"
        );
        let mut doc = serde_json::json!({"a": [text], "b": 1});
        reword_json(&mut doc, &Flags);
        assert_eq!(
            doc["a"][0],
            "read: panel.csv: fewer than 2 judges; name them with --Judges"
        );
        for setting in Setting::ALL {
            assert_eq!(Setting::from_key(setting.key()), Some(setting));
        }
        // A run setting marked in text is worded as a run setting, in plain words by default.
        let run = format!("off ({} for coverage)", RunSetting::Bootstrap.marked());
        assert_eq!(
            reword(&run, &Flags),
            "off (the number of bootstrap resamples for coverage)"
        );
        for r in RunSetting::ALL {
            assert_eq!(Setting::from_key(r.key()), None, "{r:?}");
        }
    }
}
