//! Sentences that refer to a user's setting, kept typed so that each front end words the
//! setting in its own language: the command line as a flag (`--anchors`), the explorer as
//! its key, Python as a keyword argument (`anchors=`). The core never names a flag.

use std::borrow::Cow;
use std::fmt;

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
}

impl Setting {
    /// Every setting, for tests that word each one.
    pub const ALL: [Setting; 12] = [
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
        }
    }
}

/// How a front end names a setting inside a sentence.
pub trait Wording {
    /// `setting` as this front end's user changes it: a flag, a key, a keyword argument.
    fn setting(&self, setting: Setting) -> Cow<'static, str>;
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

    /// The sentence in a front end's words.
    #[must_use]
    pub fn worded(&self, wording: &dyn Wording) -> String {
        self.0
            .iter()
            .map(|p| match p {
                Piece::Text(t) => Cow::Borrowed(t.as_str()),
                Piece::Setting(s) => wording.setting(*s),
            })
            .collect()
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

#[cfg(test)]
mod tests {
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
    }
}
