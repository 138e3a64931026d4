//! Header names that would take a role but for characters a reader cannot see: a trailing
//! no-break space or BOM (what spreadsheet exports carry), a zero-width or combining mark, a
//! full-width letter. Such a column silently took no role; now a note names it.

use super::request::PanelRequest;
use super::roles::{Role, default_role};
use crate::location::sanitize;
use crate::wording::Setting;

/// The name with the invisible characters left out and full-width ASCII read as ASCII.
fn plain(name: &str) -> String {
    name.chars()
        .filter(|&c| {
            !c.is_whitespace()
                && !matches!(c, '\u{feff}' | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{300}'..='\u{36f}')
        })
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(u32::from(c) - 0xfee0).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// The name with every character that is not printable ASCII shown as `\u{HEX}`, so the
/// difference is visible.
fn shown(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c.to_string()
            } else {
                format!("\\u{{{:x}}}", u32::from(c))
            }
        })
        .collect()
}

/// A note naming the columns (among those not `taken`) whose header would give them a role
/// by the default patterns but for invisible or full-width characters, where that role's
/// columns are picked by pattern (not listed).
pub(super) fn disguised_note(
    path: &std::path::Path,
    names: &[String],
    taken: &[usize],
    opts: &PanelRequest,
) -> Option<String> {
    let mut found = Vec::new();
    for (i, name) in names.iter().enumerate() {
        if taken.contains(&i) || default_role(name).is_some() {
            continue;
        }
        let clean = plain(name);
        let setting = match default_role(&clean) {
            Some(Role::Judge) if opts.judges.is_none() => Setting::Judges,
            Some(Role::Anchor) if opts.anchors.is_none() => Setting::Anchors,
            _ => continue,
        };
        found.push(format!(
            "column '{}' takes no role, though it reads as '{}' without its invisible or full-width characters (rename it, or name it in {})",
            shown(name),
            sanitize(&clean),
            setting.marked()
        ));
    }
    (!found.is_empty()).then(|| {
        format!(
            "{}: note: {}",
            sanitize(&path.display().to_string()),
            found.join("; ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn invisible_and_full_width_characters_are_left_out() {
        assert_eq!(plain("J3\u{a0}"), "J3");
        assert_eq!(plain("\u{feff}A1"), "A1");
        assert_eq!(plain("J3\u{301}"), "J3");
        assert_eq!(plain("\u{ff2a}3"), "J3");
        assert_eq!(plain("score"), "score");
    }
}
