//! The cells, tables and budget every paper table is built from: each table's file fills
//! them, `mod.rs` registers the tables.

/// The paper's eight seeds (Section 4).
pub const SEEDS: [u64; 8] = [11, 22, 33, 44, 55, 66, 77, 88];

/// `within` or `outside`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Within,
    Outside,
    /// The paper gives no number for this cell (a qualitative claim, shown beside ours).
    Unpublished,
}

impl Verdict {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Within => "within",
            Verdict::Outside => "outside",
            Verdict::Unpublished => "unpublished",
        }
    }
}

/// One published number and ours.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub label: String,
    pub paper: f64,
    pub ours: f64,
    /// Our Monte-Carlo standard error.
    pub mc_se: f64,
    /// The paper's own Monte-Carlo standard error, when it can be derived.
    pub paper_se: Option<f64>,
    /// Half a unit of the paper's last printed digit.
    pub rounding: f64,
    pub verdict: Verdict,
}

impl Cell {
    pub(super) fn new(
        label: impl Into<String>,
        paper: f64,
        decimals: i32,
        ours: f64,
        mc_se: f64,
        paper_se: Option<f64>,
    ) -> Cell {
        Cell::with_slack(
            label,
            paper,
            0.5 * 10f64.powi(-decimals),
            ours,
            mc_se,
            paper_se,
        )
    }

    /// A cell the paper makes a claim about but prints no number for: ours is shown, the
    /// paper's is `NaN`, and it counts neither as within nor outside.
    pub(super) fn unpublished(label: impl Into<String>, ours: f64, mc_se: f64) -> Cell {
        Cell {
            label: label.into(),
            paper: f64::NAN,
            ours,
            mc_se,
            paper_se: None,
            rounding: 0.0,
            verdict: Verdict::Unpublished,
        }
    }

    /// A cell for a number the paper gives as a range [lo, hi] printed to `decimals`: the
    /// midpoint, with half the range added to the rounding slack.
    pub(super) fn range(
        label: impl Into<String>,
        lo: f64,
        hi: f64,
        decimals: i32,
        ours: f64,
        mc_se: f64,
    ) -> Cell {
        let slack = (hi - lo) / 2.0 + 0.5 * 10f64.powi(-decimals);
        Cell::with_slack(label, f64::midpoint(lo, hi), slack, ours, mc_se, None)
    }

    fn with_slack(
        label: impl Into<String>,
        paper: f64,
        rounding: f64,
        ours: f64,
        mc_se: f64,
        paper_se: Option<f64>,
    ) -> Cell {
        let se = (mc_se.powi(2) + paper_se.unwrap_or(0.0).powi(2)).sqrt();
        let within = ours.is_finite() && (ours - paper).abs() <= 3.0 * se + rounding;
        Cell {
            label: label.into(),
            paper,
            ours,
            mc_se,
            paper_se,
            rounding,
            verdict: if within {
                Verdict::Within
            } else {
                Verdict::Outside
            },
        }
    }
}

/// One regenerated table.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub name: &'static str,
    pub title: &'static str,
    /// The design used, including every choice the paper leaves unstated.
    pub design: String,
    pub cells: Vec<Cell>,
    pub seconds: f64,
}

/// How much work to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Fewer replicates, for a quick look (said in the report).
    pub quick: bool,
}

impl Budget {
    pub(super) fn reps(self, full: usize, quick: usize) -> usize {
        if self.quick { quick } else { full }
    }
}
