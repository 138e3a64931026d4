//! The effective number of judges ([`crate::neff`]) in text and JSON, shared by `estimate`
//! and `battery`.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::format::{interval_json, num};
use crate::neff::{Neff, is_heywood};

/// "6 judges ≈ 1.4 independent votes [1.3, 1.5]": the sentence people quote (the interval
/// only when a bootstrap ran and gave one). Two decimals: n_eff is a count of votes.
#[must_use]
pub fn sentence(n: &Neff) -> String {
    let judges = if n.p == 1 { "judge" } else { "judges" };
    let Some(v) = n.n_eff else {
        return match n.r_bar {
            Some(r) if r < 0.0 => format!(
                "{} {judges}: independent votes undefined (the judges are negatively correlated on average, r̄ = {r:.4})",
                n.p
            ),
            _ => format!("{} {judges} ≈ undefined independent votes", n.p),
        };
    };
    let votes = if (v - 1.0).abs() < 0.005 {
        "vote"
    } else {
        "votes"
    };
    let mut s = format!("{} {judges} ≈ {v:.2} independent {votes}", n.p);
    if let Some(b) = &n.boot {
        match b.ci {
            Some(ci) => {
                let _ = write!(s, " [{:.2}, {:.2}]", ci.lo, ci.hi);
            }
            None if n.p > 1 => {
                let _ = write!(
                    s,
                    " [undefined: {} of {} resamples admissible]",
                    b.resamples - b.dropped,
                    b.resamples
                );
            }
            None => {}
        }
    }
    s
}

/// The text block: the sentence, how it is computed, and each judge's shared share.
#[must_use]
pub fn text(n: &Neff, judges: &[String]) -> String {
    let mut out = format!("\nEffective number of judges: {}\n", sentence(n));
    let how = match (n.r_bar, &n.boot) {
        (Some(r), Some(b)) => format!(
            "  n_eff = p / (1 + (p − 1) r̄), r̄ = {r:.4} the mean judge correlation (Pearson); 95% percentile bootstrap CI, B = {}, seed {}, {} resamples dropped\n",
            b.resamples, b.seed, b.dropped
        ),
        (Some(r), None) => format!(
            "  n_eff = p / (1 + (p − 1) r̄), r̄ = {r:.4} the mean judge correlation (Pearson); `battery` gives its bootstrap interval\n"
        ),
        (None, _) => "  one judge is one vote: there is no correlation to discount\n".into(),
    };
    out.push_str(&how);
    if let Some(shares) = &n.shares {
        let list: Vec<String> = judges
            .iter()
            .zip(shares)
            .map(|(j, &s)| {
                if is_heywood(s) {
                    format!("{j} Heywood")
                } else {
                    format!("{j} {s:.2}")
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "  shared share of each judge's variance (squared one-factor loading): {}",
            list.join(", ")
        );
        let heywood: Vec<&str> = judges
            .iter()
            .zip(shares)
            .filter(|(_, s)| is_heywood(**s))
            .map(|(j, _)| j.as_str())
            .collect();
        if !heywood.is_empty() {
            let _ = writeln!(
                out,
                "  Heywood judge ({}): its one-factor loading comes out at 1 or more, leaving it no variance of its own, which no share can be; it may nearly copy the common factor, or one factor may not fit these judges",
                heywood.join(", ")
            );
        }
    }
    out
}

/// The `n_eff` JSON object (schema in docs/json.md).
#[must_use]
pub fn json(n: &Neff, judges: &[String]) -> Value {
    let opt = |x: Option<f64>| x.map_or(Value::Null, num);
    json!({
        "p": n.p,
        "r_bar": opt(n.r_bar),
        "value": opt(n.n_eff),
        "ci": n.boot.as_ref().map_or(Value::Null, |b| interval_json(b.ci)),
        "bootstrap": n.boot.as_ref().map_or(Value::Null, |b| {
            json!({"resamples": b.resamples, "dropped": b.dropped, "seed": b.seed})
        }),
        "shares": n.shares.as_ref().map_or(Value::Null, |s| {
            Value::Array(
                judges
                    .iter()
                    .zip(s)
                    .map(|(j, &x)| {
                        let heywood = is_heywood(x);
                        json!({
                            "judge": j,
                            "share": if heywood { Value::Null } else { num(x) },
                            "heywood": heywood,
                        })
                    })
                    .collect(),
            )
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neff(r_bar: f64, n_eff: Option<f64>, shares: Option<Vec<f64>>) -> Neff {
        Neff {
            p: 3,
            r_bar: Some(r_bar),
            n_eff,
            shares,
            boot: None,
        }
    }

    /// Issue 23: a share of 1.22 and "6 judges ≈ 6.39 independent votes" become words.
    #[test]
    fn impossible_values_are_said_in_words() {
        let judges: Vec<String> = ["J1", "J2", "J3"].map(String::from).to_vec();
        let n = neff(0.77, Some(1.3), Some(vec![1.2042, 0.6, 0.6]));
        let t = text(&n, &judges);
        assert!(
            t.contains("J1 Heywood") && t.contains("Heywood judge (J1)"),
            "{t}"
        );
        assert!(!t.contains("1.20"), "{t}");
        let v = json(&n, &judges);
        assert!(v["shares"][0]["share"].is_null() && v["shares"][0]["heywood"] == true);
        assert!(v["shares"][1]["heywood"] == false);
        let n = neff(-0.02, None, None);
        let s = sentence(&n);
        assert!(s.contains("negatively correlated on average"), "{s}");
    }
}
