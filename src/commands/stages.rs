//! Progress of a battery on stderr: one labelled bar per stage (bootstrap, each null
//! calibration), each made when its stage takes its first step, so the totals are the real ones.

use std::sync::Mutex;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::battery::Options;
use crate::progress::{Flow, Progress, Stage};

/// The bars of one battery run.
pub(crate) struct StageBars {
    multi: MultiProgress,
    bars: Mutex<Vec<(Stage, ProgressBar)>>,
    resamples: u64,
    null_draws: u64,
}

impl StageBars {
    /// Bars for a battery with `opts`; drawn only when `show` and stderr is a terminal.
    pub(crate) fn new(opts: &Options, show: bool) -> Self {
        let target = if show {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        super::output::bar_drawn(show);
        StageBars {
            multi: MultiProgress::with_draw_target(target),
            bars: Mutex::new(Vec::new()),
            resamples: opts.resamples as u64,
            null_draws: opts.null_draws as u64,
        }
    }

    /// Steps each stage counts: B resamples, D draws per null.
    pub(crate) fn total(&self, stage: Stage) -> u64 {
        match stage {
            Stage::Bootstrap => self.resamples,
            Stage::Null | Stage::FreeScaleNull | Stage::JudgeNull => self.null_draws,
        }
    }

    /// The progress callback: one step of a stage (an unlabelled step counts as the null's).
    pub(crate) fn tick(&self, p: Progress) -> Flow {
        let stage = match p {
            Progress::StageStep(s) => s,
            Progress::Step => Stage::Null,
        };
        let mut bars = self
            .bars
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, bar)) = bars.iter().find(|(s, _)| *s == stage) {
            bar.inc(1);
        } else {
            let bar = self.multi.add(ProgressBar::new(self.total(stage)));
            if let Ok(style) = ProgressStyle::with_template(
                "{prefix:>13} {bar:36} {percent:>3}% {elapsed_precise} (eta {eta})",
            ) {
                bar.set_style(style);
            }
            bar.set_prefix(stage.label());
            bar.inc(1);
            bars.push((stage, bar));
        }
        Flow::Continue
    }

    /// Removes the bars from the terminal.
    pub(crate) fn finish(&self) {
        let bars = self
            .bars
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (_, bar) in bars.iter() {
            bar.finish_and_clear();
        }
        let _ = self.multi.clear();
        super::output::bar_drawn(false);
    }
}
