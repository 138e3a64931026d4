//! A panel: complete items × (judges, anchors), column-major, with names, families and the
//! detected scale of every column (docs/method.md §6).

use std::io::{self, Write};

use nalgebra::DMatrix;

use crate::families::JudgeFamilies;
pub use crate::families::first_appearance;
use crate::moments;

/// The measurement scale of a column.
#[derive(Debug, Clone, PartialEq)]
pub enum Scale {
    Continuous,
    /// All values are integers with at most [`MAX_ORDINAL_LEVELS`] distinct levels.
    Ordinal {
        levels: Vec<i64>,
    },
}

/// A column with more distinct integer values than this is treated as continuous (docs/method.md §6).
pub const MAX_ORDINAL_LEVELS: usize = 10;

impl Scale {
    /// docs/method.md §6: all values integers with ≤ 10 distinct levels → ordinal.
    #[must_use]
    pub fn detect(values: &[f64]) -> Scale {
        let mut levels: Vec<i64> = Vec::new();
        for &x in values {
            if x.fract() != 0.0 || x.abs() > 1e15 {
                return Scale::Continuous;
            }
            #[expect(
                clippy::cast_possible_truncation,
                reason = "checked integral and < 1e15"
            )]
            let v = x as i64;
            if let Err(pos) = levels.binary_search(&v) {
                if levels.len() == MAX_ORDINAL_LEVELS {
                    return Scale::Continuous;
                }
                levels.insert(pos, v);
            }
        }
        Scale::Ordinal { levels }
    }

    /// A short description: `continuous` or `ordinal (5 levels: 1..5)`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Scale::Continuous => "continuous".into(),
            Scale::Ordinal { levels } => match (levels.first(), levels.last()) {
                (Some(a), Some(b)) => format!("ordinal ({} levels: {a}..{b})", levels.len()),
                _ => "ordinal".into(),
            },
        }
    }

    #[must_use]
    pub fn is_ordinal(&self) -> bool {
        matches!(self, Scale::Ordinal { .. })
    }
}

/// Complete items of a panel. Columns are judges first, then anchors.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// Number of complete items N.
    pub n: usize,
    /// Column-major values: `data[c * n + i]`.
    pub data: Vec<f64>,
    pub judges: Vec<String>,
    pub anchors: Vec<String>,
    /// Family label of each judge, when known.
    pub families: Option<Vec<String>>,
    /// Scale of every column.
    pub scales: Vec<Scale>,
    /// Missing cells per column before complete-case filtering.
    pub missing: Vec<usize>,
    /// Items dropped because a selected column was missing.
    pub n_dropped: usize,
}

impl Panel {
    /// A panel from column-major data, with scales detected.
    #[must_use]
    pub fn new(n: usize, data: Vec<f64>, judges: Vec<String>, anchors: Vec<String>) -> Panel {
        let q = judges.len() + anchors.len();
        debug_assert_eq!(data.len(), n * q);
        let scales = (0..q)
            .map(|c| Scale::detect(&data[c * n..(c + 1) * n]))
            .collect();
        Panel {
            n,
            data,
            judges,
            anchors,
            families: None,
            scales,
            missing: vec![0; q],
            n_dropped: 0,
        }
    }

    #[must_use]
    pub fn p(&self) -> usize {
        self.judges.len()
    }

    #[must_use]
    pub fn m(&self) -> usize {
        self.anchors.len()
    }

    #[must_use]
    pub fn q(&self) -> usize {
        self.p() + self.m()
    }

    /// Column `c` (judges first).
    #[must_use]
    pub fn col(&self, c: usize) -> &[f64] {
        &self.data[c * self.n..(c + 1) * self.n]
    }

    /// All column names, judges first.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.judges.iter().chain(&self.anchors).cloned().collect()
    }

    /// Sample covariance matrix (divisor N − 1) of all columns.
    #[must_use]
    pub fn covariance(&self) -> DMatrix<f64> {
        moments::covariance(&self.data, self.n, self.q(), &mut Vec::new())
    }

    /// The judges' families, when known.
    #[must_use]
    pub fn judge_families(&self) -> Option<JudgeFamilies> {
        self.families.as_deref().map(JudgeFamilies::from_labels)
    }

    /// Writes the panel as CSV with a header; numbers in shortest round-trip form so the file
    /// reads back to the same bits.
    ///
    /// # Errors
    /// Any error of the writer.
    pub fn write_csv(&self, w: &mut dyn Write) -> io::Result<()> {
        let mut out = io::BufWriter::new(w);
        writeln!(out, "{}", self.names().join(","))?;
        let q = self.q();
        for i in 0..self.n {
            for c in 0..q {
                if c > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{}", Number(self.data[c * self.n + i]))?;
            }
            out.write_all(b"\n")?;
        }
        out.flush()
    }

    /// Writes the families sidecar (`judge,family` rows), which the loader reads back.
    ///
    /// # Errors
    /// Any error of the writer.
    pub fn write_families(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "judge,family")?;
        if let Some(f) = &self.families {
            for (j, fam) in self.judges.iter().zip(f) {
                writeln!(w, "{j},{fam}")?;
            }
        }
        Ok(())
    }
}

/// A score as the readers read it back to the same `f64`: shortest digits, and in scientific
/// form from 2^53 up, where positional digits padded with zeros would claim an exactness the
/// readers refuse.
pub struct Number(pub f64);

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.abs() >= 9_007_199_254_740_992.0 && self.0.is_finite() {
            write!(f, "{:e}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// A number in a sentence: three significant digits, trailing zeros dropped, in scientific
/// form below 10⁻³ and from 10⁶ up, so a note never prints an 87-digit integer or an SD
/// of 1e-20 as 0.000.
pub struct Short(pub f64);

impl std::fmt::Display for Short {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        if x == 0.0 || !x.is_finite() {
            return write!(f, "{x}");
        }
        let e = x.abs().log10().floor();
        if !(-3.0..6.0).contains(&e) {
            let s = format!("{x:.2e}");
            let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
            return write!(f, "{mantissa}e{exp}");
        }
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "0 ≤ 2 − e ≤ 5"
        )]
        let decimals = (2.0 - e).max(0.0) as usize;
        let s = format!("{x:.decimals$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.')
        } else {
            &s
        };
        f.write_str(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_numbers_keep_three_significant_digits() {
        let cases = [
            (0.159_382, "0.159"),
            (5.0, "5"),
            (14.25, "14.2"),
            (1.1702e85, "1.17e85"),
            (1.5e-85, "1.5e-85"),
            (1e-20, "1e-20"),
            (0.000_999_9, "1e-3"),
            (123_456.0, "123456"),
            (-0.0042, "-0.0042"),
            (0.0, "0"),
        ];
        for (x, want) in cases {
            assert_eq!(Short(x).to_string(), want, "{x}");
        }
    }

    #[test]
    fn detects_likert_and_continuous() {
        assert_eq!(
            Scale::detect(&[1.0, 5.0, 3.0, 3.0]),
            Scale::Ordinal {
                levels: vec![1, 3, 5]
            }
        );
        assert_eq!(Scale::detect(&[1.0, 2.5]), Scale::Continuous);
        let many: Vec<f64> = (0..11).map(f64::from).collect();
        assert_eq!(Scale::detect(&many), Scale::Continuous);
    }
}
