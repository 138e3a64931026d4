//! The random-stream scheme: every random number in rhoscope comes from one named, stable
//! generator (ChaCha8) on a stream derived from `(seed, purpose, index)`, so results are
//! bit-identical at any thread count and no two purposes ever share numbers (DESIGN §6).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What a random stream is for. Each purpose owns a disjoint range of ChaCha streams, so a
/// bootstrap never reuses the numbers that generated its data, whatever the seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Simulated panels: replicate r is stream r (what `simulate --seed S` writes).
    Simulate = 0,
    /// Item-bootstrap resamples.
    Bootstrap = 1,
    /// Null-distribution draws for the battery's thresholds.
    Null = 2,
    /// Replicates of operating-characteristic studies.
    Power = 3,
    /// Replicates of `validate`: synthetic panels on a real panel's textures (Section 7).
    Validate = 4,
    /// Panels simulated from a fitted free-scale model for its bias correction (Section 7).
    BiasCorrect = 5,
}

/// Stream indices live below this bound within each purpose.
pub const INDEX_BITS: u32 = 56;

/// The generator of stream `index` of `purpose` for `seed`: ChaCha8 seeded from `seed` (via
/// `SeedableRng::seed_from_u64`) on stream `(purpose << 56) | index`. Streams never overlap,
/// so draw `index` does not depend on how many draws run or on which thread.
#[must_use]
pub fn stream_rng(seed: u64, purpose: Purpose, index: u64) -> ChaCha8Rng {
    debug_assert!(
        index < 1 << INDEX_BITS,
        "stream index overflows its purpose's range"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(((purpose as u64) << INDEX_BITS) | index);
    rng
}

/// The generator of simulated replicate `replicate` for `seed`.
#[must_use]
pub fn replicate_rng(seed: u64, replicate: u64) -> ChaCha8Rng {
    stream_rng(seed, Purpose::Simulate, replicate)
}

/// A block of consecutive streams of one seed: draw `i` of a run uses stream `base + i`.
/// Nested studies (a bootstrap inside a power replicate) give each inner run its own block
/// instead of mixing the seed with the replicate number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Streams {
    pub seed: u64,
    pub base: u64,
}

impl Streams {
    /// Streams `0, 1, 2, …` of `seed`.
    #[must_use]
    pub fn of(seed: u64) -> Streams {
        Streams { seed, base: 0 }
    }

    /// The generator of draw `i` of this block.
    #[must_use]
    pub fn rng(self, purpose: Purpose, i: u64) -> ChaCha8Rng {
        stream_rng(self.seed, purpose, self.base + i)
    }
}
