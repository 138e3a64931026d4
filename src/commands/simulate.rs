//! `simulate`: a panel drawn from a scenario, with its families sidecar.

use std::path::Path;

use super::output::{self, output_error};
use super::shared::{note, output_target};
use crate::cli::SimulateArgs;
use crate::data;
use crate::error::Error;
use crate::scenario;
use crate::simulate;
use crate::wording::Setting;

pub(super) fn simulate_cmd(a: &SimulateArgs) -> Result<(), Error> {
    let mut pm = scenario::preset(&a.preset).map_err(Error::from)?;
    scenario::apply_sets(&mut pm, &a.set).map_err(Error::from)?;
    let n = usize::try_from(a.n).map_err(|_| Error::Usage("--n is too large".into()))?;
    let out = output_target(a.output.as_deref(), a.force, &[])?;
    let side = match (&out, &a.output) {
        (output::Target::File { .. }, Some(path)) => Some(data::families_sidecar(path)),
        _ => None,
    };
    let has_families = pm.violations.families != crate::model::Families::None;
    let stale = match &side {
        Some(side) => check_sidecar(side, has_families, a.force)?,
        None => false,
    };
    let side_target = match &side {
        Some(side) if has_families => Some(output::target(side, true)?),
        _ => None,
    };
    let panel = simulate::simulate(&pm, n, a.seed)
        .map_err(|e| Error::Usage(format!("invalid design: {e}").into()))?;
    if side.is_none()
        && let Some(f) = &panel.families
    {
        let pairs: Vec<String> = panel
            .judges
            .iter()
            .zip(f)
            .map(|(j, x)| format!("{j}={x}"))
            .collect();
        note(&format!(
            "families (pass to estimate): --families {}",
            crate::error::sanitize(&pairs.join(","))
        ));
    }
    if let (Some(t), Some(_)) = (&side_target, &panel.families) {
        // The panel and its sidecar appear together or not at all.
        let (mut csv, mut fam) = (Vec::new(), Vec::new());
        panel
            .write_csv(&mut csv)
            .and_then(|()| panel.write_families(&mut fam))
            .map_err(|e| output_error(None, &e))?;
        return output::write_together(&[(&out, &csv), (t, &fam)]);
    }
    output::write(&out, |w| panel.write_csv(w))?;
    if let (Some(side), true) = (&side, stale) {
        std::fs::remove_file(side).map_err(|e| output_error(Some(side), &e))?;
    }
    Ok(())
}

/// Refuses to touch an existing families sidecar the user did not name (docs/method.md §6: nothing is
/// written over a file without being asked). A design with families would overwrite it; one
/// without would leave it for `estimate` to adopt. With `--force`, returns whether the stale
/// sidecar must be deleted.
fn check_sidecar(side: &Path, has_families: bool, force: bool) -> Result<bool, Error> {
    let meta = std::fs::symlink_metadata(side);
    let exists = meta.is_ok();
    let shown = crate::error::sanitize(&side.display().to_string());
    // Found now, before anything is written: a sidecar that could be neither written nor
    // deleted would fail the run after the panel was in place.
    if meta.is_ok_and(|m| !m.is_file() && !m.is_symlink()) {
        return Err(Error::Usage(
            format!(
                "{shown}: is not a file (a folder, a FIFO or a device), and simulate writes or deletes the panel's families sidecar there: remove it, or give -o another name"
            )
            .into(),
        ));
    }
    if !exists || force {
        return Ok(exists && !has_families);
    }
    Err(Error::Usage((if has_families {
        format!(
            "{shown} already exists and simulate will not overwrite a file you did not name: remove it, or pass {}",
            Setting::Force.marked()
        )
    } else {
        format!(
            "{shown} exists from an earlier run, and `estimate` would adopt it for this family-less panel: remove it, or pass {} to delete it",
            Setting::Force.marked()
        )
    }).into()))
}
