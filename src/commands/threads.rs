//! How many rayon workers a run gets: `--threads`, else `RAYON_NUM_THREADS`, checked
//! against the machine. The binary builds its global pool once; in-process callers (the
//! Python API) get a pool of their own per call, since the global one can be built only once.

use crate::data;
use crate::error::Error;

/// The workers asked for by `--threads` or, without it, a positive `RAYON_NUM_THREADS`,
/// with the option that asked (for messages); `None` when neither says.
fn asked(threads: Option<u16>) -> Option<(usize, &'static str)> {
    threads
        .map(|t| (usize::from(t), "--threads"))
        .or_else(|| env_threads().map(|t| (t, "RAYON_NUM_THREADS=")))
}

/// A positive `RAYON_NUM_THREADS`, which rayon would otherwise honour unchecked.
fn env_threads() -> Option<usize> {
    std::env::var("RAYON_NUM_THREADS")
        .ok()?
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|t| *t > 0)
}

/// Refuses counts above [`data::limits::max_threads`] (a usage error naming `source`).
fn checked(threads: usize, source: &str) -> Result<usize, Error> {
    let max = data::limits::max_threads();
    if threads > max {
        let sep = if source.ends_with('=') { "" } else { " " };
        return Err(Error::Usage(format!(
            "{source}{sep}{threads}: at most {max} threads on this machine ({} per core, never above {})",
            data::limits::THREADS_PER_CORE,
            data::limits::MAX_THREADS
        ).into()));
    }
    Ok(threads)
}

fn cannot_start(threads: usize, e: &rayon::ThreadPoolBuildError) -> Error {
    Error::System(format!("cannot start {threads} worker threads: {e}"))
}

/// Builds the process's global pool as asked (the binary, which runs one command), and
/// reports a pool the OS will not start instead of a later panic in the first parallel call.
pub(super) fn start_global(threads: Option<u16>) -> Result<(), Error> {
    let Some((t, source)) = asked(threads) else {
        return Ok(());
    };
    let t = checked(t, source)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build_global()
        .map_err(|e| cannot_start(t, &e))
}

/// Runs `work` on a pool of its own when threads are asked for, else on the global pool;
/// results are the same at any thread count (every random stream is seeded per unit).
///
/// # Errors
/// A refused thread count, a pool the OS will not start, or `work`'s error.
pub fn scoped<T: Send>(
    threads: Option<u16>,
    work: impl FnOnce() -> Result<T, Error> + Send,
) -> Result<T, Error> {
    let Some((t, source)) = asked(threads) else {
        return work();
    };
    let t = checked(t, source)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .map_err(|e| cannot_start(t, &e))?
        .install(work)
}
