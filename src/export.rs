//! Export the model of Assumption 1 (Section 2) as a script for the SEM software reviewers
//! trust: R lavaan or Python semopy. The script reads the panel file itself, keeps the
//! judge and anchor columns as loaded (by their place in the file), drops incomplete items (complete cases, as rhoscope
//! does), fits by maximum likelihood with the N − 1 (Wishart) likelihood, so that σ's match
//! `estimate --method ml` as well as ρ, and prints β_k, σ_ak² and ρ_k.
//!
//! The model: J_j = t + c + e_j, A_k = t + λ_k c + u_k with t ⊥ c, unit loadings on t for
//! every column and on c for the judges, free λ_k; then β_k = λ_k σ_c², σ_ak² = λ_k² σ_c² + ω_k
//! (Var(A_k) − σ_t²) and ρ_k = β_k / √(σ_ak² σ_c²), as in Theorem 1 and the ML comparison
//! of Section 6. With judge families (Section 5), judges of one family also get free residual
//! covariances: the family residual f_b absorbed, the blocked variant of the model.

use std::fmt::Write as _;

use crate::panel::Panel;

/// Which software the script is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Lavaan,
    Semopy,
}

/// What the script needs to know besides the panel.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    /// The panel file as the script should read it (the path as given).
    pub path: &'a str,
    /// Its delimiter (`,`, tab or `;`; a comma for [`data_csv`]'s file).
    pub delimiter: u8,
    /// The judge and anchor columns' names as written in the file (panel order), for
    /// [`data_csv`]'s header; comments show the sanitised names.
    pub columns: &'a [String],
    /// The judge and anchor columns' places in the file (0-based, panel order): the script
    /// selects these, since its reader may read a name otherwise than rhoscope does (pandas
    /// and R keep spaces around a name, and a second BOM); empty: the panel's own order.
    pub places: &'a [usize],
}

impl Source<'_> {
    /// The places that select the columns in the file, counted from `base` (0 in Python, 1
    /// in R).
    fn column_places(&self, panel: &Panel, base: usize) -> Vec<String> {
        let n = panel.p() + panel.m();
        let places: Vec<usize> = if self.places.len() == n {
            self.places.to_vec()
        } else {
            (0..n).collect()
        };
        places.iter().map(|i| (i + base).to_string()).collect()
    }
}

/// The panel's judge and anchor columns as comma-separated text, headed by the names the
/// script selects, for a source the script cannot read itself (Parquet, JSON, gzip, standard
/// input, a data frame); every value in its shortest form that reads back to the same `f64`.
#[must_use]
pub fn data_csv(panel: &Panel, columns: &[String]) -> String {
    let names = if columns.len() == panel.p() + panel.m() {
        columns.to_vec()
    } else {
        panel.names()
    };
    let mut out = names
        .iter()
        .map(|n| csv_field(n))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    let cols: Vec<&[f64]> = (0..names.len()).map(|c| panel.col(c)).collect();
    for i in 0..panel.n {
        for (c, col) in cols.iter().enumerate() {
            if c > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}", crate::panel::Number(col[i]));
        }
        out.push('\n');
    }
    out
}

/// A CSV header field, quoted (quotes doubled) when it holds a comma, quote, space or line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) || s.trim() != s {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Safe identifiers for the variables, in panel order (judges then anchors): the name with
/// every character other than an ASCII letter, digit or `_` replaced by `_`, prefixed with
/// `v_` when it would not start with a letter, and suffixed `_2`, `_3`, … when two names
/// collide (also with the model's own names `t` and `c`).
#[must_use]
pub fn identifiers(names: &[String]) -> Vec<String> {
    let mut taken: Vec<String> = vec!["t".into(), "c".into()];
    names
        .iter()
        .map(|n| {
            let mut id: String = n
                .chars()
                .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
                .collect();
            if !id.starts_with(|ch: char| ch.is_ascii_alphabetic()) {
                id = format!("v_{id}");
            }
            let base = id.clone();
            let mut k = 2;
            while taken.contains(&id) {
                id = format!("{base}_{k}");
                k += 1;
            }
            taken.push(id.clone());
            id
        })
        .collect()
}

/// A double-quoted string literal that R and Python both read back as `s`.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            // Control and bidi characters as escapes, so the script reads safely on screen.
            c if c.is_control() || crate::location::sanitize(&c.to_string()).is_empty() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The measurement and covariance lines of the model, shared by both syntaxes (semopy reads
/// lavaan's operators). `labels` adds lavaan's parameter labels.
fn model_lines(panel: &Panel, ids: &[String], labels: bool) -> Vec<String> {
    let (p, m) = (panel.p(), panel.m());
    let (judges, anchors) = ids.split_at(p);
    let label = |l: String| {
        if labels {
            format!("{l}*")
        } else {
            String::new()
        }
    };
    let mut lines = Vec::new();
    lines.push("# quality t: unit loadings on every column".to_string());
    let t: Vec<String> = ids.iter().map(|v| format!("1*{v}")).collect();
    lines.push(format!("t =~ {}", t.join(" + ")));
    lines.push(
        "# common-mode error c: unit loadings on the judges, free on the anchors".to_string(),
    );
    let mut c: Vec<String> = judges.iter().map(|v| format!("1*{v}")).collect();
    c.extend(
        anchors
            .iter()
            .map(|a| format!("{}{a}", label(format!("lam_{a}")))),
    );
    lines.push(format!("c =~ {}", c.join(" + ")));
    lines.push("# t and c uncorrelated, with free variances".to_string());
    lines.push("t ~~ 0*c".to_string());
    lines.push(format!("t ~~ {}t", label("sigma_t2".into())));
    lines.push(format!("c ~~ {}c", label("sigma_c2".into())));
    lines.push("# residual variances".to_string());
    for j in judges {
        lines.push(format!("{j} ~~ {}{j}", label(format!("psi_{j}"))));
    }
    for a in anchors {
        lines.push(format!("{a} ~~ {}{a}", label(format!("omega_{a}"))));
    }
    if let Some(fam) = panel.judge_families() {
        let mut pairs = Vec::new();
        for i in 0..p {
            for k in i + 1..p {
                if fam.index[i] == fam.index[k] {
                    pairs.push(format!("{} ~~ {}", judges[i], judges[k]));
                }
            }
        }
        if !pairs.is_empty() {
            lines.push(
                "# judge families (Section 5): free residual covariances within a family".into(),
            );
            lines.extend(pairs);
        }
    }
    let _ = m;
    lines
}

/// The header comment both scripts start with.
fn header(panel: &Panel, comment: &str) -> String {
    let mut out = String::new();
    let safe = |v: &[String]| {
        v.iter()
            .map(|n| crate::location::sanitize(n))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        out,
        "{comment} rhoscope export: the single-common-factor model of Assumption 1 (Section 2),"
    );
    let _ = writeln!(
        out,
        "{comment} fitted by maximum likelihood (N − 1 likelihood), as `rhoscope estimate --method ml`."
    );
    let _ = writeln!(
        out,
        "{comment} judges ({}): {}",
        panel.p(),
        safe(&panel.judges)
    );
    let _ = writeln!(
        out,
        "{comment} anchors ({}): {}",
        panel.m(),
        safe(&panel.anchors)
    );
    let _ = writeln!(
        out,
        "{comment} rhoscope used N = {} complete items ({} dropped for missing values).",
        panel.n, panel.n_dropped
    );
    out
}

/// The missing-value words rhoscope reads, quoted for a script that compares them with a
/// cell trimmed and lowercased (the loader's own rule), the empty cell first.
fn missing_literals() -> String {
    std::iter::once("")
        .chain(crate::data::MISSING)
        .map(quoted)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The lavaan script: data preparation, the model with labels and `:=` definitions
/// (`beta_<a>`, `sigma_a2_<a>`, `rho_<a>`), the fit, and a print of the definitions.
#[must_use]
pub fn lavaan(panel: &Panel, src: &Source<'_>) -> String {
    let names = panel.names();
    let ids = identifiers(&names);
    let anchors = &ids[panel.p()..];
    let mut out = header(panel, "#");
    out.push_str("library(lavaan)\n\n");
    // Read as text, then a cell is missing as rhoscope reads it: trimmed, in any case.
    let _ = writeln!(
        out,
        "d <- read.table({}, header = TRUE, sep = {}, quote = \"\\\"\", check.names = FALSE,\n                colClasses = \"character\", na.strings = character(0), comment.char = \"\")",
        quoted(src.path),
        quoted(&char::from(src.delimiter).to_string()),
    );
    let cols = src.column_places(panel, 1);
    out.push_str("# the judge and anchor columns by their place in the file (as listed above)\n");
    let _ = writeln!(out, "d <- d[, c({})]", cols.join(", "));
    let _ = writeln!(
        out,
        "d[] <- lapply(d, function(x) {{ x <- trimws(x); x[tolower(x) %in% c({})] <- NA; as.numeric(x) }})",
        missing_literals()
    );
    out.push_str("d <- d[complete.cases(d), ]\n");
    let new: Vec<String> = ids.iter().map(|n| quoted(n)).collect();
    let _ = writeln!(out, "names(d) <- c({})", new.join(", "));
    out.push_str("\nmodel <- '\n");
    for l in model_lines(panel, &ids, true) {
        let _ = writeln!(out, "  {l}");
    }
    out.push_str("  # what rhoscope reports\n");
    for a in anchors {
        let _ = writeln!(out, "  beta_{a} := lam_{a}*sigma_c2");
        let _ = writeln!(out, "  sigma_a2_{a} := lam_{a}^2*sigma_c2 + omega_{a}");
        let _ = writeln!(out, "  rho_{a} := beta_{a} / sqrt(sigma_a2_{a}*sigma_c2)");
    }
    out.push_str("'\n\n");
    out.push_str("fit <- sem(model, data = d, likelihood = \"wishart\")\n");
    out.push_str("pe <- parameterEstimates(fit)\n");
    out.push_str(
        "keep <- pe$label %in% c(\"sigma_t2\", \"sigma_c2\") | pe$op == \":=\"\nprint(as.data.frame(pe[keep, c(\"label\", \"est\", \"se\")]), row.names = FALSE, digits = 4)\n",
    );
    out
}

/// The semopy script (Python): the same data preparation with pandas, the model (semopy has
/// no `:=`, so β, σ_a² and ρ are computed from the fitted parameters after the fit), and a
/// print of them.
#[must_use]
pub fn semopy(panel: &Panel, src: &Source<'_>) -> String {
    let names = panel.names();
    let ids = identifiers(&names);
    let anchors = &ids[panel.p()..];
    let mut out = header(panel, "#");
    out.push_str("import math\n\nimport pandas as pd\nimport semopy\n\n");
    // Read as text, then a cell is missing as rhoscope reads it: trimmed, in any case.
    let _ = writeln!(
        out,
        "d = pd.read_csv({}, sep={}, dtype=str, keep_default_na=False, index_col=False)",
        quoted(src.path),
        quoted(&char::from(src.delimiter).to_string()),
    );
    let cols = src.column_places(panel, 0);
    out.push_str("# the judge and anchor columns by their place in the file (as listed above)\n");
    let _ = writeln!(out, "d = d.iloc[:, [{}]]", cols.join(", "));
    let _ = writeln!(out, "MISSING = [{}]", missing_literals());
    out.push_str("d = d.apply(lambda c: pd.to_numeric(c.str.strip().mask(c.str.strip().str.lower().isin(MISSING))))\n");
    out.push_str("d = d.dropna()\n");
    let new: Vec<String> = ids.iter().map(|n| quoted(n)).collect();
    let _ = writeln!(out, "d.columns = [{}]", new.join(", "));
    out.push_str("\nDESC = \"\"\"\n");
    for l in model_lines(panel, &ids, false) {
        let _ = writeln!(out, "{l}");
    }
    out.push_str("\"\"\"\n\n");
    out.push_str(
        "model = semopy.Model(DESC)\nmodel.fit(d, obj=\"MLW\")\nest = model.inspect()\n\n\n",
    );
    out.push_str(
        "def value(lval, op, rval):\n    \"\"\"One fitted parameter, whichever way round semopy lists it.\"\"\"\n    for a, b in ((lval, rval), (rval, lval)):\n        row = est[(est[\"lval\"] == a) & (est[\"op\"] == op) & (est[\"rval\"] == b)]\n        if len(row):\n            return float(row[\"Estimate\"].iloc[0])\n    raise KeyError(f\"{lval} {op} {rval}\")\n\n\n",
    );
    out.push_str(
        "sigma_t2 = value(\"t\", \"~~\", \"t\")\nsigma_c2 = value(\"c\", \"~~\", \"c\")\n",
    );
    out.push_str("print(f\"sigma_t2 = {sigma_t2:.6f}\")\nprint(f\"sigma_c2 = {sigma_c2:.6f}\")\n");
    for a in anchors {
        let _ = writeln!(out, "lam = value({}, \"~\", \"c\")", quoted(a));
        let _ = writeln!(out, "beta_{a} = lam * sigma_c2");
        let _ = writeln!(
            out,
            "sigma_a2_{a} = lam**2 * sigma_c2 + value({q}, \"~~\", {q})",
            q = quoted(a)
        );
        let _ = writeln!(
            out,
            "rho_{a} = beta_{a} / math.sqrt(sigma_a2_{a} * sigma_c2)"
        );
        let _ = writeln!(
            out,
            "print(f\"beta_{a} = {{beta_{a}:.6f}}  sigma_a2_{a} = {{sigma_a2_{a}:.6f}}  rho_{a} = {{rho_{a}:.6f}}\")"
        );
    }
    out
}

/// The script in `syntax`.
#[must_use]
pub fn script(panel: &Panel, src: &Source<'_>, syntax: Syntax) -> String {
    match syntax {
        Syntax::Lavaan => lavaan(panel, src),
        Syntax::Semopy => semopy(panel, src),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_safe_and_distinct() {
        let names: Vec<String> = ["Story ID", "2nd", "c", "a-b", "a_b", "J1"]
            .iter()
            .map(|s| (*s).to_string())
            .collect();
        assert_eq!(
            identifiers(&names),
            ["Story_ID", "v_2nd", "c_2", "a_b", "a_b_2", "J1"]
        );
    }

    #[test]
    fn strings_are_quoted_for_r_and_python() {
        assert_eq!(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quoted("x\u{1b}y"), "\"x\\u001by\"");
    }
}
