//! What a load tells the explorer besides its panel: the notes under the file's path, and a
//! families file that does not fit set aside with a note rather than the panel lost.

use super::LoadJob;

/// The load of `j`; when a families file given for it is what fails (it names judges the
/// panel does not have, say), the panel without it and a note saying what is wrong with it:
/// a wrong sidecar does not make a good panel "not a panel".
pub(super) fn load_keeping_the_panel(
    j: &LoadJob,
) -> (
    Result<crate::data::Loaded, crate::error::Error>,
    Option<String>,
) {
    let first = crate::data::load(&j.path, &j.options).map_err(crate::error::Error::from);
    let (Err(e), Some(crate::data::Families::File(f))) = (&first, &j.options.families) else {
        return (first, None);
    };
    let without = crate::data::PanelRequest {
        families: None,
        ..j.options.clone()
    };
    match crate::data::load(&j.path, &without) {
        Ok(loaded) => {
            let file = crate::error::sanitize(&f.display().to_string());
            let why = crate::error::sanitize(&e.worded(&crate::tui::text::Keys));
            let why = why
                .strip_prefix(&format!("{file}: "))
                .map_or_else(|| why.clone(), str::to_string);
            let note = format!(
                "warning: families file {file} not used: {why}; the panel is read without it (+/- or F set a judge's family)"
            );
            (Ok(loaded), Some(note))
        }
        Err(_) => (first, None),
    }
}

/// The loader's notes as the explorer shows them (the command line prints the same on
/// stderr): the loader's own notes, then its note on dropped items, each sanitised and
/// without the leading file name, which the data pane shows above them.
pub(super) fn load_notes(path: &std::path::Path, loaded: &crate::data::Loaded) -> Vec<String> {
    let prefix = format!("{}: ", crate::error::sanitize(&path.display().to_string()));
    let notes = loaded.notes.iter().chain(&loaded.drop_note);
    notes
        .map(|n| {
            let n = crate::error::sanitize(&n.worded(&crate::tui::text::Keys));
            n.strip_prefix(&prefix)
                .map_or_else(|| n.clone(), str::to_string)
        })
        .collect()
}

/// A note when a `families.csv` beside the file names none of its columns: its families
/// would otherwise go unused without a word.
pub(super) fn unmatched_families(pairs: &[(String, String)], header: &[String]) -> Option<String> {
    if pairs.is_empty() || pairs.iter().any(|(j, _)| header.contains(j)) {
        return None;
    }
    let named: Vec<String> = pairs
        .iter()
        .take(3)
        .map(|(j, _)| crate::error::sanitize(j))
        .collect();
    let more = if pairs.len() > 3 { ", …" } else { "" };
    Some(format!(
        "note: families.csv beside this file names none of its columns ({}{more}); +/- set a judge's family by hand",
        named.join(", ")
    ))
}
