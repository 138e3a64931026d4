//! `identify`: where Section 7's identification hierarchy places a design or a panel.

use super::console::{Console, Output, render};
use crate::cli::{IdentifyArgs, PanelArgs};
use crate::data::Loaded;
use crate::error::Error;
use crate::report;

/// The panel `identify` reads, if any; panel flags without a panel are a usage error.
pub(super) fn panel_args(a: &IdentifyArgs) -> Result<Option<PanelArgs>, Error> {
    let Some(path) = &a.panel else {
        let o = &a.opts;
        let given = [
            ("--judges", o.judges.is_some()),
            ("--anchors", o.anchors.is_some()),
            ("--set-aside", o.set_aside.is_some()),
            ("--families", o.families.is_some()),
            ("--id", o.id.is_some()),
            ("--long", o.long.is_some()),
            ("--continuous", o.continuous.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, on)| *on) {
            return Err(Error::Usage(format!(
                "{flag} describes a panel file: give the PANEL too, or leave it out for the paper's design"
            ).into()));
        }
        return Ok(None);
    };
    Ok(Some(PanelArgs {
        panel: path.clone(),
        opts: a.opts.clone(),
    }))
}

/// `identify`: Section 7's hierarchy at the paper's design, or at a loaded panel's own point.
pub(super) fn report(
    a: &IdentifyArgs,
    panel: Option<(&PanelArgs, &Loaded)>,
    console: &mut dyn Console,
) -> Result<Output, Error> {
    let Some((args, loaded)) = panel else {
        let id = crate::identify::at_paper_design().map_err(|e| Error::System(e.to_string()))?;
        let r = report::identify::IdentifyReport {
            id: &id,
            panel: None,
        };
        return Ok(Output::ok(render(
            a.json,
            || report::identify::json(&r),
            || report::identify::text(&r),
        )));
    };
    let id = crate::identify::at_panel(&loaded.panel)
        .map_err(|e| Error::data(&args.panel, format!("identify: {e}")))?;
    let source = console.source(args);
    let r = report::identify::IdentifyReport {
        id: &id,
        panel: Some((&source, &loaded.panel, loaded.families_source.as_deref())),
    };
    Ok(Output::ok(render(
        a.json,
        || report::identify::json(&r),
        || report::identify::text(&r),
    )))
}
