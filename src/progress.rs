//! Progress and cancellation for long core runs. The core never prints: it calls a
//! callback once per unit of work, and stops when the callback says so. The callback is
//! `Fn + Sync` rather than `FnMut` because rayon workers call it from several threads.

/// What a long run reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// One unit of work (a resample, a null draw, a replicate) is being taken.
    Step,
    /// One unit of work of a named stage, for runs whose stages go on side by side (the
    /// battery's bootstrap and its null calibrations), so a listener can count each.
    StageStep(Stage),
}

/// The stages of a battery run, which rayon runs at the same time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The item bootstrap (B resamples).
    Bootstrap,
    /// The single-factor null of Tests A, B and C (D draws).
    Null,
    /// The free-scale null of the tests that read the anchors on free scales (Test O; D more
    /// draws, when it runs).
    FreeScaleNull,
    /// The judges' own one-factor null of Test J (and Test C on Likert judges), whatever the
    /// anchors (D more draws, when those tests run).
    JudgeNull,
}

impl Progress {
    /// This step, attributed to `stage`.
    #[must_use]
    pub fn of(self, stage: Stage) -> Progress {
        Progress::StageStep(stage)
    }
}

impl Stage {
    /// What a progress line calls the stage.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Stage::Bootstrap => "bootstrap",
            Stage::Null => "null (A/B/C)",
            Stage::FreeScaleNull => "null (O)",
            Stage::JudgeNull => "null (J)",
        }
    }
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

/// The catchable signals whose default action ends the process: the command line removes its
/// temporary files on each and the explorer restores the terminal. SIGABRT, SIGTRAP and SIGSYS
/// are among them (a handler that returns lets a real abort, breakpoint or refused system call
/// go on as before), and on Linux SIGSTKFLT and SIGPWR. Left out: SIGPIPE (Rust ignores it; a
/// closed pipe is a failed write), SIGXFSZ (ignored, so a write past `ulimit -f` fails with
/// EFBIG), and the faults a returning handler would repeat forever (SIGSEGV, SIGBUS, SIGILL,
/// SIGFPE); SIGKILL and SIGSTOP cannot be caught.
#[cfg(all(unix, any(feature = "cli", feature = "tui")))]
pub const TERMINATING_SIGNALS: [i32; 14 + LINUX_ONLY.len()] = {
    use signal_hook::consts::{
        SIGABRT, SIGALRM, SIGHUP, SIGINT, SIGIO, SIGPROF, SIGQUIT, SIGSYS, SIGTERM, SIGTRAP,
        SIGUSR1, SIGUSR2, SIGVTALRM, SIGXCPU,
    };
    let common = [
        SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO,
        SIGXCPU, SIGABRT, SIGTRAP, SIGSYS,
    ];
    let mut all = [0; 14 + LINUX_ONLY.len()];
    let mut i = 0;
    while i < all.len() {
        all[i] = if i < 14 {
            common[i]
        } else {
            LINUX_ONLY[i - 14]
        };
        i += 1;
    }
    all
};

/// SIGSTKFLT (16) and SIGPWR (30): default-fatal on Linux, numbered so on these
/// architectures (the signal crate does not name them); one `cfg!` decides, so the list of
/// architectures is written once.
#[cfg(all(unix, any(feature = "cli", feature = "tui")))]
const LINUX_ONLY: &[i32] = if cfg!(all(
    target_os = "linux",
    any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv64"
    )
)) {
    &[16, 30]
} else {
    &[]
};
