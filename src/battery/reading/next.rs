//! The next steps of a reading: typed remedies a panel can take and what each would give,
//! worded by each front end.

use crate::battery::registry::TestId;
use crate::estimate::Estimator;

/// One next step: a remedy the panel can take, and what re-deciding with it gives.
#[derive(Debug, Clone, PartialEq)]
pub struct NextStep {
    /// What to do.
    pub remedy: Remedy,
    /// What the answer becomes with it applied, where that was checked.
    pub outcome: Outcome,
}

/// A change to the panel or its data that could make a ρ̂ readable (typed; front ends word it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remedy {
    /// Read these ordinal columns' codes as interval-scaled numbers.
    MarkContinuous(Vec<Column>),
    /// Read these columns as ordinal (their values are codes, not numbers).
    MarkOrdinal(Vec<Column>),
    /// Leave these anchors out (indices among the panel's anchors).
    LeaveOutAnchors(Vec<usize>),
    /// Set this judge aside (index among the panel's judges).
    SetJudgeAside(usize),
    /// Make these spare columns of the source anchors (named as in the source).
    UseAsAnchors(Vec<String>),
    /// Give the judges' families (none are given, or fewer than two).
    GiveFamilies,
    /// Designate this anchor as clean (its ρ = 0 by assumption).
    DesignateClean(usize),
    /// Trust this anchor as clean on Likert anchors: the others' ρ is then identified on
    /// latent scales (m ≥ 3), at the cost of an assumption the data cannot test.
    TrustAnchor(usize),
    /// Collect this many more anchors (new columns of data).
    CollectAnchors(usize),
    /// Collect this many more continuous anchors (what Likert judges or ordinal anchors need).
    CollectContinuousAnchors(usize),
    /// Collect more items: the planner's N for this panel.
    MoreItems(Plan),
}

/// A column of the panel by role and index within that role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// The judge at this index.
    Judge(usize),
    /// The anchor at this index.
    Anchor(usize),
}

/// The planner's answer for [`Remedy::MoreItems`]: the items needed and what they buy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Items N the planner asks for.
    pub n: usize,
    /// Judges of the planned design.
    pub judges: usize,
    /// Anchors of the planned design.
    pub anchors: usize,
}

/// What the answer becomes with a remedy applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Re-decided: this estimator could then be read.
    Reads(Estimator),
    /// Re-decided: every ρ̂ still undefined (or ρ not identified), so never offered.
    NothingReadable,
    /// Re-decided: ρ̂ defined, but a firing test still guards this estimator.
    DefinedButGuarded { estimator: Estimator, test: TestId },
    /// Re-decided: some ρ̂ defined, but this estimator's fit is still flagged.
    StillFlagged(Estimator),
    /// Not re-decided here (it needs new data or a full battery run).
    Unchecked,
}

/// What the panel's source could still give besides its roles.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Room {
    /// Columns of the source that are neither judge, anchor nor id (named as in the source).
    pub spare: Vec<String>,
}
