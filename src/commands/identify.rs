//! `identify`: where Section 7's identification hierarchy places a design or a panel.

use super::output::{write_json, write_stdout};
use super::shared::load_panel;
use crate::cli::{IdentifyArgs, PanelArgs};
use crate::error::Error;
use crate::report;

/// `identify`: Section 7's hierarchy at the paper's design, or at a panel's own point.
pub(super) fn identify_cmd(a: &IdentifyArgs) -> Result<(), Error> {
    let Some(path) = &a.panel else {
        let o = &a.opts;
        let given = [
            ("--judges", o.judges.is_some()),
            ("--anchors", o.anchors.is_some()),
            ("--families", o.families.is_some()),
            ("--id", o.id.is_some()),
            ("--long", o.long.is_some()),
            ("--continuous", o.continuous.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, on)| *on) {
            return Err(Error::Usage(format!(
                "{flag} describes a panel file: give the PANEL too, or leave it out for the paper's design"
            )));
        }
        let id = crate::identify::at_paper_design().map_err(|e| Error::System(e.to_string()))?;
        let r = report::identify::IdentifyReport {
            id: &id,
            panel: None,
        };
        return if a.json {
            write_json(&report::identify::json(&r))
        } else {
            write_stdout(report::identify::text(&r).as_bytes())
        };
    };
    let args = PanelArgs {
        panel: path.clone(),
        opts: a.opts.clone(),
    };
    let loaded = load_panel(&args, 1)?;
    let id = crate::identify::at_panel(&loaded.panel)
        .map_err(|e| Error::data(path, format!("identify: {e}")))?;
    let source = path.display().to_string();
    let r = report::identify::IdentifyReport {
        id: &id,
        panel: Some((&source, &loaded.panel, loaded.families_source.as_deref())),
    };
    if a.json {
        write_json(&report::identify::json(&r))
    } else {
        write_stdout(report::identify::text(&r).as_bytes())
    }
}
