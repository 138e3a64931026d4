//! How a command reads a panel: the file and the options shared by every reader, turned
//! into the loader's typed [`PanelRequest`]; and the command line's names for settings.

use std::borrow::Cow;
use std::path::PathBuf;

use clap::Args;

use crate::data::{ColumnRef, Columns, Families, LongColumns, PanelRequest};
use crate::error::{Error, sanitize};
use crate::wording::{RunSetting, Setting, Wording};

/// How to read a panel: the file and its options.
#[derive(Debug, Args, Clone)]
pub struct PanelArgs {
    /// Panel file: CSV, TSV or semicolon-separated (sniffed), wide or long (--long).
    pub panel: PathBuf,
    #[command(flatten)]
    pub opts: PanelOptions,
}

/// The options shared by every command that reads a panel.
#[derive(Debug, Args, Clone, Default)]
pub struct PanelOptions {
    /// Judge columns: comma-separated names or 1-based positions (digits alone; a number that
    /// is a column's name is that name, with a note if positions differ). With --long: rater ids.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub judges: Option<Vec<String>>,
    /// Anchor columns: comma-separated names or 1-based positions (digits alone; a number that
    /// is a column's name is that name, with a note if positions differ). With --long: rater ids.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub anchors: Option<Vec<String>>,
    /// Columns (or rater ids with --long) that take no role, whatever their names say.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub set_aside: Option<Vec<String>>,
    /// Judge families: NAME=FAMILY,... or a two-column judge,family file (an existing file
    /// wins, so a path may hold '='). Default: FILE.families.csv beside the panel, else a families.csv in its folder naming its judges.
    #[arg(long, value_name = "SPEC")]
    pub families: Option<String>,
    /// An id column, which is never a judge or anchor.
    #[arg(long, value_name = "COL")]
    pub id: Option<String>,
    /// Long layout: one row per (item, rater, score); names the three columns.
    #[arg(long, value_delimiter = ',', value_name = "ITEM,RATER,SCORE")]
    pub long: Option<Vec<String>>,
    /// Treat these columns as continuous even if they look ordinal (integers with ≤ 10
    /// levels): comma-separated names, or `all`.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub continuous: Option<Vec<String>>,
    /// A typed request given in-process (the Python API), which takes the place of the
    /// flags above.
    #[arg(skip)]
    pub given: Option<PanelRequest>,
}

impl PanelOptions {
    /// The loader's request these flags make (or the one given in-process).
    ///
    /// # Errors
    /// [`Error::Usage`] for a `--long` that does not name three columns or a `--families`
    /// entry that is not `NAME=FAMILY`.
    pub fn request(&self, min_anchors: usize) -> Result<PanelRequest, Error> {
        if let Some(given) = &self.given {
            return Ok(PanelRequest {
                min_anchors,
                ..given.clone()
            });
        }
        let typed = |list: &Option<Vec<String>>| {
            list.as_ref()
                .map(|l| l.iter().cloned().map(ColumnRef::NameOrPosition).collect())
        };
        let long = match self.long.as_deref() {
            None => None,
            Some([item, rater, score]) => Some(LongColumns {
                item: ColumnRef::NameOrPosition(item.clone()),
                rater: ColumnRef::NameOrPosition(rater.clone()),
                score: ColumnRef::NameOrPosition(score.clone()),
            }),
            Some(_) => {
                return Err(Error::Usage(
                    "--long takes three columns: ITEM,RATER,SCORE".into(),
                ));
            }
        };
        let continuous = self.continuous.as_deref().map(|l| match l {
            [one] if one.trim().eq_ignore_ascii_case("all") => Columns::All,
            names => Columns::Listed(
                names
                    .iter()
                    .map(|n| ColumnRef::Name(n.trim().to_string()))
                    .collect(),
            ),
        });
        Ok(PanelRequest {
            judges: typed(&self.judges),
            anchors: typed(&self.anchors),
            set_aside: typed(&self.set_aside).unwrap_or_default(),
            id: self.id.clone().map(ColumnRef::NameOrPosition),
            long,
            families: self.families.as_deref().map(families).transpose()?,
            continuous,
            min_anchors,
        })
    }

    /// Whether the panel is read in the long layout.
    #[must_use]
    pub fn is_long(&self) -> bool {
        self.given
            .as_ref()
            .map_or(self.long.is_some(), |g| g.long.is_some())
    }
}

/// `--families SPEC`: the path of a two-column file when no `=` is in it or a file of that
/// name exists (so `fam=1.csv` can be used), else `NAME=FAMILY,...` pairs.
fn families(spec: &str) -> Result<Families, Error> {
    if spec.trim().is_empty() {
        return Err(Error::Usage(
            format!(
                "--families: '{}' is empty; give a judge,family file or NAME=FAMILY pairs",
                sanitize(spec)
            )
            .into(),
        ));
    }
    if !spec.contains('=') || std::path::Path::new(spec).is_file() {
        return Ok(Families::File(PathBuf::from(spec)));
    }
    spec.split(',')
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| {
                    Error::Usage(
                        format!("--families: '{}' is not NAME=FAMILY", sanitize(kv)).into(),
                    )
                })
        })
        .collect::<Result<_, _>>()
        .map(Families::Pairs)
}

/// The command line's names for settings: its flags.
#[derive(Debug, Clone, Copy, Default)]
pub struct Flags;

impl Wording for Flags {
    fn setting(&self, setting: Setting) -> Cow<'static, str> {
        Cow::Borrowed(match setting {
            Setting::Judges => "--judges",
            Setting::Anchors => "--anchors",
            Setting::SetAside => "--set-aside",
            Setting::Id => "--id",
            Setting::Long => "--long",
            Setting::Families => "--families",
            Setting::Continuous => "--continuous",
            // No flag marks a column ordinal: say when a column is read as one instead.
            Setting::Ordinal => {
                "a column is read as ordinal only when its values are integer codes with ≤ 10 levels and it is not named in --continuous"
            }
            Setting::FreeScale => "--method free-scale",
            Setting::DesignatedClean => "--designated-clean",
            Setting::CodesAsNumbers => "--codes-as-numbers",
            Setting::BiasCorrect => "--bias-correct",
            Setting::FailOnDiagnostic => "--fail-on-diagnostic",
            Setting::Target => "--target",
            Setting::Inject => "--inject",
            Setting::Force => "--force",
            Setting::Scenario => "--preset, --set",
        })
    }

    fn given(&self, setting: Setting, values: &[String]) -> String {
        match setting {
            Setting::Families => "--families NAME=FAMILY,… or a judge,family file".into(),
            Setting::DesignatedClean => {
                format!(
                    "rhoscope estimate … --designated-clean {}",
                    values.join(",")
                )
            }
            s => format!("{} {}", self.setting(s), values.join(",")),
        }
    }

    fn run(&self, setting: RunSetting) -> Cow<'static, str> {
        Cow::Borrowed(match setting {
            RunSetting::Bootstrap => "--bootstrap",
            RunSetting::Preset => "--preset",
            RunSetting::Set => "--set",
            RunSetting::MaxN => "--max-n",
            RunSetting::Target => "--target",
            RunSetting::Reps => "--reps",
            RunSetting::Inject => "--inject",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_make_a_typed_request() {
        let o = PanelOptions {
            judges: Some(vec!["J1".into(), "2".into()]),
            families: Some("J1=a,J2=b".into()),
            continuous: Some(vec!["all".into()]),
            long: None,
            ..PanelOptions::default()
        };
        let r = o.request(2).unwrap();
        assert_eq!(
            r.judges,
            Some(vec![
                ColumnRef::NameOrPosition("J1".into()),
                ColumnRef::NameOrPosition("2".into())
            ])
        );
        assert_eq!(
            r.families,
            Some(Families::Pairs(vec![
                ("J1".into(), "a".into()),
                ("J2".into(), "b".into())
            ]))
        );
        assert_eq!(r.continuous, Some(Columns::All));
        assert_eq!(r.min_anchors, 2);
        let file = PanelOptions {
            families: Some("fam.csv".into()),
            ..PanelOptions::default()
        };
        assert_eq!(
            file.request(0).unwrap().families,
            Some(Families::File("fam.csv".into()))
        );
        let bad = PanelOptions {
            families: Some("J1=a,J2".into()),
            ..PanelOptions::default()
        };
        assert!(bad.request(0).unwrap_err().to_string().contains("'J2'"));
    }
}
