//! Value parsers shared by several commands' flags.

/// A resample count B for percentile intervals and the weak-ID screen: from
/// [`MIN_RESAMPLES`](crate::bootstrap::MIN_RESAMPLES) to `MAX`, refused below with the reason.
pub(super) fn resamples<const MAX: u32>(s: &str) -> Result<u32, String> {
    // Parsed wide so a huge count is "above the limit", not "not a whole number".
    let b: u64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number of resamples"))?;
    let floor = crate::bootstrap::MIN_RESAMPLES;
    if b < floor as u64 {
        return Err(format!(
            "B = {b} < {floor} resamples: a 95 % percentile interval needs at least {floor} (2.5 in each tail) and the weak-ID screen an SD from as many"
        ));
    }
    match u32::try_from(b) {
        Ok(b) if b <= MAX => Ok(b),
        _ => Err(format!("B = {b} is above the limit of {MAX} resamples")),
    }
}

/// Null draws per test where 0 turns the battery off: 0, or 20 up to `MAX` (as every other
/// command's `--null-draws`, which refuse 1–19).
pub(super) fn null_draws_or_off<const MAX: u32>(s: &str) -> Result<u32, String> {
    let d: u64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number of null draws"))?;
    match u32::try_from(d) {
        Ok(0) => Ok(0),
        Ok(d) if (20..=MAX).contains(&d) => Ok(d),
        _ => Err(format!(
            "{d} is not in 20..={MAX} (0 turns the battery off)"
        )),
    }
}
