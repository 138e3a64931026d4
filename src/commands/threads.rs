//! How many rayon workers a run gets: `--threads`, else `RAYON_NUM_THREADS`, checked
//! against the machine. The binary builds its global pool once; in-process callers (the
//! Python API) get a pool of their own per call, since the global one can be built only once.

use crate::data;
use crate::error::Error;

/// The workers asked for by `--threads` or, without it, `RAYON_NUM_THREADS`, checked
/// against the machine; `None` when neither says (an empty variable says nothing, as in rayon).
///
/// # Errors
/// A count outside 1 … [`data::limits::max_threads`], or a variable that is no whole number:
/// one rule for both, a usage error naming the option (rayon would quietly use every core).
fn asked(threads: Option<u16>) -> Result<Option<usize>, Error> {
    if let Some(t) = threads {
        return checked(usize::from(t), "--threads ", &t.to_string()).map(Some);
    }
    let Some(raw) = std::env::var_os("RAYON_NUM_THREADS") else {
        return Ok(None);
    };
    let text = raw.to_string_lossy();
    let value = text.trim();
    if value.is_empty() {
        return Ok(None);
    }
    let shown = crate::error::sanitize(&text);
    match value.parse::<usize>() {
        Ok(t) => checked(t, "RAYON_NUM_THREADS=", &shown).map(Some),
        Err(_) => Err(Error::Usage(
            format!(
                "RAYON_NUM_THREADS={shown}: not a whole number of threads; {}",
                allowed()
            )
            .into(),
        )),
    }
}

/// The rule, worded for messages.
fn allowed() -> String {
    format!(
        "give 1 … {} on this machine ({} per core, never above {})",
        data::limits::max_threads(),
        data::limits::THREADS_PER_CORE,
        data::limits::MAX_THREADS
    )
}

/// Refuses counts outside 1 … [`data::limits::max_threads`] (a usage error naming the
/// option `source` and the value as given).
fn checked(threads: usize, source: &str, shown: &str) -> Result<usize, Error> {
    let max = data::limits::max_threads();
    if threads == 0 {
        return Err(Error::Usage(
            format!("{source}{shown}: at least 1 thread; {}", allowed()).into(),
        ));
    }
    if threads > max {
        return Err(Error::Usage(format!(
            "{source}{shown}: at most {max} threads on this machine ({} per core, never above {})",
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
    let Some(t) = asked(threads)? else {
        return Ok(());
    };
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
    let Some(t) = asked(threads)? else {
        return work();
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .map_err(|e| cannot_start(t, &e))?
        .install(work)
}
