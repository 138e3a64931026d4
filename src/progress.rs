//! Progress and cancellation for long core runs. The core never prints: it calls a
//! callback once per unit of work, and stops when the callback says so. The callback is
//! `Fn + Sync` rather than `FnMut` because rayon workers call it from several threads.

/// What a long run reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// One unit of work (a resample, a null draw, a replicate) is being taken.
    Step,
}

/// The callback's answer: go on, or stop as soon as possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// A callback that listens to nothing and never stops.
#[must_use]
pub fn silent(_: Progress) -> Flow {
    Flow::Continue
}
