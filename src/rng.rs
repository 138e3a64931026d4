//! The random-stream scheme: every random number in rhoscope comes from one named, stable
//! generator (ChaCha8) on a stream derived from `(seed, purpose, index)`, so results are
//! bit-identical at any thread count and no two purposes ever share numbers (docs/method.md §16).

use rand::{Rng, SeedableRng};
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
    /// The pilot draws that estimate an asymptotic null's covariance (docs/method.md §3).
    NullPilot = 6,
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

/// Uniform indices in `0..n`: the numbers `rng.random_range(0..n)` draws from the same
/// stream, for n ≤ u32::MAX (rand 0.10's single-sample method on 32-bit words: the high half
/// of word × n, and a second word when the low half falls in the biased zone), written out so
/// the bootstrap's loop of N draws per resample inlines it. `tests` check it number for
/// number against `random_range`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Index {
    n: u32,
}

impl Index {
    /// The sampler of `0..n`; `None` when n is 0 or above u32::MAX (use `random_range`).
    #[must_use]
    pub fn below(n: usize) -> Option<Index> {
        u32::try_from(n)
            .ok()
            .filter(|&n| n > 0)
            .map(|n| Index { n })
    }

    /// The next index from `rng`.
    #[inline]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the high and low halves of a 64-bit product"
    )]
    pub fn draw(self, rng: &mut ChaCha8Rng) -> usize {
        let wide = u64::from(rng.next_u32()) * u64::from(self.n);
        let (mut hi, lo) = ((wide >> 32) as u32, wide as u32);
        if lo > self.n.wrapping_neg() {
            let next = ((u64::from(rng.next_u32()) * u64::from(self.n)) >> 32) as u32;
            hi += u32::from(lo.checked_add(next).is_none());
        }
        hi as usize
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// Index draws the numbers `random_range` draws, word for word, including ranges where
    /// most first words are biased (n near u32::MAX takes the second-word branch often).
    #[test]
    fn index_draws_what_random_range_draws() {
        for n in [
            1usize,
            2,
            7,
            1000,
            20_000,
            1 << 31,
            3_000_000_000,
            u32::MAX as usize,
        ] {
            let index = Index::below(n).expect("n fits 32 bits");
            let (mut a, mut b) = (
                stream_rng(9, Purpose::Bootstrap, 3),
                stream_rng(9, Purpose::Bootstrap, 3),
            );
            for _ in 0..20_000 {
                assert_eq!(index.draw(&mut a), b.random_range(0..n), "n = {n}");
            }
        }
        assert_eq!(Index::below(0), None);
        assert_eq!(Index::below(u32::MAX as usize + 1), None);
    }
}
