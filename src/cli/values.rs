//! Value parsers shared by several commands' flags.

/// A resample count B for percentile intervals and the weak-ID screen: from
/// [`MIN_RESAMPLES`](crate::bootstrap::MIN_RESAMPLES) to `MAX`, refused below with the reason.
pub(super) fn resamples<const MAX: u32>(s: &str) -> Result<u32, String> {
    let b: u32 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number of resamples"))?;
    let floor = crate::bootstrap::MIN_RESAMPLES;
    if (b as usize) < floor {
        return Err(format!(
            "B = {b} < {floor} resamples: a 95 % percentile interval needs at least {floor} (2.5 in each tail) and the weak-ID screen an SD from as many"
        ));
    }
    if b > MAX {
        return Err(format!("B = {b} is above the limit of {MAX} resamples"));
    }
    Ok(b)
}
