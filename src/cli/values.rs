//! Value parsers shared by several commands' flags: one rule for every whole-number flag (and
//! `RAYON_NUM_THREADS`) and one for every decimal flag, worded in one line as the flag, the
//! value as given and its range.

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

/// A whole number from `lo` to `hi` (or 0, which turns a stage off, when `off`), refused in
/// one line naming the flag, the value as given and the range, whatever clap would have said.
#[derive(Debug)]
pub(crate) struct Whole<T> {
    lo: u64,
    hi: u64,
    off: bool,
    why: Option<String>,
    into: PhantomData<fn() -> T>,
}

impl<T> Clone for Whole<T> {
    fn clone(&self) -> Self {
        Whole {
            why: self.why.clone(),
            into: PhantomData,
            ..*self
        }
    }
}

/// A whole-number flag taking `lo` to `hi`.
pub(crate) fn whole<T>(lo: u64, hi: u64) -> Whole<T> {
    Whole {
        lo,
        hi,
        off: false,
        why: None,
        into: PhantomData,
    }
}

/// A seed: any 64-bit whole number.
pub(crate) fn seed() -> Whole<u64> {
    whole(0, u64::MAX)
}

/// `--threads`: 1 to [`max_threads`](crate::data::limits::max_threads) on this machine.
pub(crate) fn threads() -> Whole<u16> {
    use crate::data::limits::{MAX_THREADS, THREADS_PER_CORE, max_threads};
    whole(1, max_threads() as u64).because(format!(
        "on this machine: {THREADS_PER_CORE} per core, never above {MAX_THREADS}"
    ))
}

/// `demo --scene`: 1 to the number of talk scenes.
pub(crate) fn scene() -> Whole<u16> {
    #[cfg(feature = "tui")]
    let scenes = crate::tui::scenes::scenes().len() as u64;
    #[cfg(not(feature = "tui"))]
    let scenes = u64::from(u16::MAX);
    whole(1, scenes)
}

/// A resample count B for percentile intervals and the weak-ID screen: from
/// [`MIN_RESAMPLES`](crate::bootstrap::MIN_RESAMPLES) to `max`, with the floor's reason.
pub(crate) fn resamples(max: u64) -> Whole<u32> {
    let floor = crate::bootstrap::MIN_RESAMPLES;
    whole(floor as u64, max).because(format!(
        "a 95 % percentile interval needs at least {floor} resamples (2.5 in each tail) and the weak-ID screen an SD from as many"
    ))
}

impl<T> Whole<T> {
    /// Also takes 0, which turns the stage off.
    pub(crate) fn or_off(mut self) -> Self {
        self.off = true;
        self
    }

    /// Says why the range is what it is, after it.
    pub(crate) fn because(mut self, why: String) -> Self {
        self.why = Some(why);
        self
    }

    /// The value of `text`, or why not ("TEXT is out of range; use LO to HI (WHY)").
    pub(crate) fn check(&self, text: &str) -> Result<u64, String> {
        let t = text.trim();
        let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
        let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        let value = match (whole, t.starts_with('-'), digits.parse::<u64>()) {
            (false, ..) => return Err(self.refusal(text, "is not a whole number")),
            // "-0" is zero; any other negative number, or one past 64 bits, is out of range.
            (true, true, Ok(0)) => Some(0),
            (true, false, Ok(v)) => Some(v),
            _ => None,
        };
        value
            .filter(|&v| (self.lo..=self.hi).contains(&v) || (self.off && v == 0))
            .ok_or_else(|| self.refusal(text, "is out of range"))
    }

    fn refusal(&self, text: &str, what: &str) -> String {
        let range = if self.off {
            format!("use 0 (off) or {} to {}", self.lo, self.hi)
        } else {
            format!("use {} to {}", self.lo, self.hi)
        };
        let why = self
            .why
            .as_ref()
            .map_or_else(String::new, |w| format!(" ({w})"));
        // An empty value is quoted, so it shows; a control character is escaped, so it shows too.
        let shown = match crate::error::escape(text.trim()) {
            e if e.is_empty() => "''".to_string(),
            e => e,
        };
        format!("{shown} {what}; {range}{why}")
    }
}

impl<T: TryFrom<u64> + Clone + Send + Sync + 'static> TypedValueParser for Whole<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let flag = arg
            .and_then(clap::Arg::get_long)
            .map_or_else(|| "value".to_string(), |l| format!("--{l}"));
        self.check(&value.to_string_lossy())
            .and_then(|v| {
                T::try_from(v)
                    .map_err(|_| self.refusal(&value.to_string_lossy(), "is out of range"))
            })
            .map_err(|m| {
                clap::Error::raw(ErrorKind::ValueValidation, format!("{flag}: {m}\n")).with_cmd(cmd)
            })
    }
}

/// A decimal number between `lo` and `hi` (each bound included unless marked open), refused in
/// one line naming the flag, the value as typed and the range, never Rust's float-parse text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Decimal {
    lo: f64,
    hi: f64,
    lo_open: bool,
    hi_open: bool,
}

/// A decimal flag taking `lo` to `hi`, both included.
pub(crate) fn decimal(lo: f64, hi: f64) -> Decimal {
    Decimal {
        lo,
        hi,
        lo_open: false,
        hi_open: false,
    }
}

/// A violation strength of `power` (0, the null, to [`MAX_STRENGTH`](crate::power::MAX_STRENGTH)).
pub(crate) fn strength() -> Decimal {
    decimal(0.0, crate::power::MAX_STRENGTH)
}

/// The violation strength of `plot power`: as [`strength`], without the null 0.
pub(crate) fn positive_strength() -> Decimal {
    strength().open_below()
}

/// An injected contamination ρ: strictly between −1 and 1.
pub(crate) fn rho() -> Decimal {
    decimal(-1.0, 1.0).open_below().open_above()
}

impl Decimal {
    /// Leaves `lo` itself out.
    pub(crate) fn open_below(mut self) -> Self {
        self.lo_open = true;
        self
    }

    /// Leaves `hi` itself out.
    pub(crate) fn open_above(mut self) -> Self {
        self.hi_open = true;
        self
    }

    /// The value of `text`, or why not ("'TEXT' is out of range; use a number from LO to HI").
    pub(crate) fn check(&self, text: &str) -> Result<f64, String> {
        let t = text.trim();
        // Rust also reads "inf", "infinity" and "nan"; those are numbers out of every range.
        let plain = !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
        let Ok(v) = t.parse::<f64>() else {
            return Err(self.refusal(text, "is not a decimal number"));
        };
        if !(plain && self.holds(v)) {
            return Err(self.refusal(text, "is out of range"));
        }
        if tiny(v) {
            return Err(self.refusal(text, TINY));
        }
        Ok(v)
    }

    /// A number given in-process (the Python API), held to the same range and wording.
    pub(crate) fn admit(&self, v: f64) -> Result<f64, String> {
        if !self.holds(v) {
            Err(self.refusal(&v.to_string(), "is out of range"))
        } else if tiny(v) {
            Err(self.refusal(&format!("{v:e}"), TINY))
        } else {
            Ok(v)
        }
    }

    fn holds(&self, v: f64) -> bool {
        let above = if self.lo_open {
            v > self.lo
        } else {
            v >= self.lo
        };
        let below = if self.hi_open {
            v < self.hi
        } else {
            v <= self.hi
        };
        v.is_finite() && above && below
    }

    fn refusal(&self, text: &str, what: &str) -> String {
        let (lo, hi) = (self.lo, self.hi);
        let range = match (self.lo_open, self.hi_open) {
            (false, false) => format!("from {lo} to {hi}"),
            (true, true) => format!("strictly between {lo} and {hi}"),
            (true, false) => format!("above {lo}, up to {hi}"),
            (false, true) => format!("from {lo}, below {hi}"),
        };
        format!(
            "'{}' {what}; use a number {range}",
            crate::error::escape(text.trim())
        )
    }
}

/// Smallest size of a nonzero decimal flag value: anything smaller is 0 for every
/// computation here, and printed in full it would take hundreds of digits (`1e-320`).
pub(crate) const MIN_NONZERO: f64 = 1e-6;

/// Why a value under [`MIN_NONZERO`] is refused.
const TINY: &str =
    "is too small to tell from 0 (a nonzero value is at least 1e-6 in size; give 0 for none)";

/// Whether `v` is nonzero but under [`MIN_NONZERO`] in size.
fn tiny(v: f64) -> bool {
    v != 0.0 && v.abs() < MIN_NONZERO
}

impl TypedValueParser for Decimal {
    type Value = f64;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<f64, clap::Error> {
        let flag = arg
            .and_then(clap::Arg::get_long)
            .map_or_else(|| "value".to_string(), |l| format!("--{l}"));
        self.check(&value.to_string_lossy()).map_err(|m| {
            clap::Error::raw(ErrorKind::ValueValidation, format!("{flag}: {m}\n")).with_cmd(cmd)
        })
    }
}

/// clap's "invalid UTF-8 was detected in one or more arguments", naming the flag and showing
/// the value with its bad bytes escaped (`--judges: '\xFF' is not valid UTF-8; …`).
pub(crate) fn not_utf8(
    args: &[std::ffi::OsString],
    cmd: &mut clap::Command,
) -> Option<clap::Error> {
    let bad = |i: &usize| args[*i].to_str().is_none();
    let flagged = |i: &usize| {
        args[*i].as_encoded_bytes().starts_with(b"-")
            || args[*i - 1].as_encoded_bytes().starts_with(b"-")
    };
    let i = (1..args.len())
        .find(|i| bad(i) && flagged(i))
        .or_else(|| (1..args.len()).find(bad))?;
    let bytes = args[i].as_encoded_bytes();
    let (flag, value) = match bytes.iter().position(|&b| b == b'=') {
        Some(eq) if bytes.starts_with(b"-") => (
            String::from_utf8_lossy(&bytes[..eq]).into_owned(),
            &bytes[eq + 1..],
        ),
        _ => {
            let before = args[i - 1].to_string_lossy();
            let flag = if before.starts_with('-') && i > 1 {
                before.into_owned()
            } else {
                "an argument".into()
            };
            (flag, bytes)
        }
    };
    let shown: String = value
        .utf8_chunks()
        .map(|c| {
            let mut s = crate::error::sanitize(c.valid());
            for b in c.invalid() {
                let _ = std::fmt::Write::write_fmt(&mut s, format_args!("\\x{b:02X}"));
            }
            s
        })
        .collect();
    Some(cmd.error(
        clap::error::ErrorKind::InvalidUtf8,
        format!("{flag}: '{shown}' is not valid UTF-8; flag values are text (only file paths may be other bytes)"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_read_or_refused_with_their_range() {
        let w = whole::<u32>(20, 100);
        assert_eq!(w.check("20"), Ok(20));
        assert_eq!(w.check(" 100 "), Ok(100));
        assert_eq!(w.check("+50"), Ok(50));
        assert_eq!(
            w.check("99999999999999999999"),
            Err("99999999999999999999 is out of range; use 20 to 100".into())
        );
        assert_eq!(
            w.check("-1"),
            Err("-1 is out of range; use 20 to 100".into())
        );
        assert_eq!(
            w.check("-0"),
            Err("-0 is out of range; use 20 to 100".into())
        );
        assert_eq!(
            w.check("1.5"),
            Err("1.5 is not a whole number; use 20 to 100".into())
        );
        assert_eq!(
            w.check("-"),
            Err("- is not a whole number; use 20 to 100".into())
        );
        let off = w.or_off();
        assert_eq!(off.check("0"), Ok(0));
        assert_eq!(off.check("-0"), Ok(0));
        assert_eq!(
            off.check("5"),
            Err("5 is out of range; use 0 (off) or 20 to 100".into())
        );
        assert_eq!(seed().check("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn decimals_are_read_or_refused_with_their_range() {
        let s = strength();
        assert_eq!(s.check("0.4"), Ok(0.4));
        assert_eq!(s.check(" 0.4 "), Ok(0.4));
        assert_eq!(s.check("0"), Ok(0.0));
        assert_eq!(s.check("1e3"), Ok(1000.0));
        let range = "use a number from 0 to 1000000";
        for (typed, what) in [
            ("", "is not a decimal number"),
            ("0x10", "is not a decimal number"),
            ("-0.5", "is out of range"),
            ("-inf", "is out of range"),
            ("inf", "is out of range"),
            ("nan", "is out of range"),
            ("1e999", "is out of range"),
            ("1e300", "is out of range"),
        ] {
            assert_eq!(s.check(typed), Err(format!("'{typed}' {what}; {range}")));
        }
        let r = rho();
        assert_eq!(r.check("-0.5"), Ok(-0.5));
        // A subnormal would print as hundreds of digits; 1e-6 is the smallest size taken.
        assert_eq!(s.check("1e-6"), Ok(1e-6));
        assert_eq!(r.check("-1e-6"), Ok(-1e-6));
        for typed in ["1e-320", "5e-7", "-1e-300"] {
            let e = r.check(typed).unwrap_err();
            assert!(
                e.starts_with(&format!("'{typed}' is too small to tell from 0")),
                "{e}"
            );
        }
        assert!(s.admit(1e-320).unwrap_err().contains("too small"));
        assert_eq!(s.admit(0.4), Ok(0.4));
        assert_eq!(
            s.admit(-0.5),
            Err("'-0.5' is out of range; use a number from 0 to 1000000".into())
        );
        assert_eq!(
            r.check("1"),
            Err("'1' is out of range; use a number strictly between -1 and 1".into())
        );
    }
}
