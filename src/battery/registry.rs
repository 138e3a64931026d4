//! The diagnostics registry: one entry per test, each test's file owning its whole story
//! (name, what it guards, applicability, statistic, the meaning of its verdict, and the
//! violation design its power is studied on). Everything that lists tests — the battery, its
//! text and JSON, power studies, the decision table, the explorer's panes and walkthrough —
//! iterates [`TestId::ALL`] and stores per-test values in a [`PerTest`], so a new test is one
//! new file plus one line in the `registry!` call in `battery.rs`.

use std::ops::{Index, IndexMut};

use nalgebra::DMatrix;

pub use super::TestId;
pub use super::types::{Diagnostic, NullKind, Observation, OnOrdinal, Scales, Violation};
use super::types::{Layout, NotApplicable, Sample};

/// Builds [`TestId`] from `Variant => module` lines: declares each test's module (so a new
/// test is its file plus its line), the enum and `spec()`. Invoked in `battery.rs`, whose
/// folder holds the tests' files.
macro_rules! registry {
    ($($(#[$attr:meta])* $id:ident => $module:ident),+ $(,)?) => {
        $($(#[$attr])* pub mod $module;)+

        /// The registered tests, in report order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum TestId {
            $($(#[$attr])* $id),+
        }

        impl TestId {
            /// Every registered test, in report order.
            pub const ALL: [TestId; [$($(#[$attr])* TestId::$id),+].len()] =
                [$($(#[$attr])* TestId::$id),+];

            /// The test's own description, from its file.
            #[must_use]
            pub fn spec(self) -> &'static registry::Diagnostic {
                match self {
                    $($(#[$attr])* TestId::$id => &$module::SPEC),+
                }
            }
        }
    };
}

/// How many tests are registered.
pub const COUNT: usize = TestId::ALL.len();

impl TestId {
    /// Position in [`TestId::ALL`] (the registry numbers its variants in order).
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter shown as "Test A".
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The stable machine-readable id (`test_a`).
    #[must_use]
    pub fn id(self) -> String {
        format!("test_{}", self.name().to_lowercase())
    }

    /// What the test guards against, in a few words.
    #[must_use]
    pub fn guards(self) -> String {
        let s = self.spec();
        format!("{} ({})", s.title, s.target)
    }

    /// Whether the test can run on this layout, and if not, why.
    ///
    /// # Errors
    /// The reason it cannot run.
    pub fn applicable(self, layout: &Layout) -> Result<(), NotApplicable> {
        (self.spec().applicable)(layout)?;
        let scales = self.spec().scales;
        if layout.ordinal_judges > 0 {
            match scales.ordinal_judges {
                OnOrdinal::NotApplicable(why) => return Err(why.into()),
                OnOrdinal::ContinuousOnly(why) if layout.p - layout.ordinal_judges < 3 => {
                    let j = super::test_a::J_CLAUSE;
                    return Err(why.replace(j, &super::test_a::j_clause(layout.p)).into());
                }
                _ => {}
            }
        }
        if layout.ordinal_anchors > 0
            && let OnOrdinal::NotApplicable(why) = scales.ordinal_anchors
        {
            return Err(why.into());
        }
        Ok(())
    }

    /// The null that calibrates the test on this layout: its own, or the latent null when it
    /// asks its question on the latent scale of ordinal judges.
    #[must_use]
    pub fn null_kind(self, layout: &Layout) -> NullKind {
        let spec = self.spec();
        if layout.ordinal_judges > 0 && spec.scales.ordinal_judges == OnOrdinal::Latent {
            NullKind::FreeScale
        } else {
            spec.null
        }
    }

    /// The test statistic of a covariance matrix (correlations, where a test needs them,
    /// are Pearson's from it: right for continuous columns).
    #[must_use]
    pub fn statistic(self, s: &DMatrix<f64>, layout: &Layout) -> f64 {
        self.statistic_of(&Sample::of_cov(s), layout)
    }

    /// The test statistic of a sample's moments.
    #[must_use]
    pub fn statistic_of(self, sample: &Sample<'_>, layout: &Layout) -> f64 {
        (self.spec().statistic)(sample, layout)
    }

    /// What a verdict means for this panel.
    #[must_use]
    pub fn meaning(self, reading: &Observation<'_>) -> String {
        (self.spec().meaning)(reading)
    }
}

/// One value per registered test, indexed by [`TestId`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PerTest<T>([T; COUNT]);

impl<T> PerTest<T> {
    /// A value for every test from `f`.
    pub fn from_fn(mut f: impl FnMut(TestId) -> T) -> PerTest<T> {
        PerTest(TestId::ALL.map(&mut f))
    }

    /// The same function applied to every test's value.
    pub fn map<U>(&self, mut f: impl FnMut(TestId, &T) -> U) -> PerTest<U> {
        PerTest::from_fn(|t| f(t, &self[t]))
    }

    /// `(test, value)` in report order.
    pub fn iter(&self) -> impl Iterator<Item = (TestId, &T)> {
        TestId::ALL.into_iter().zip(self.0.iter())
    }

    /// The values in report order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }
}

impl<T> Index<TestId> for PerTest<T> {
    type Output = T;
    fn index(&self, t: TestId) -> &T {
        &self.0[t.index()]
    }
}

impl<T> IndexMut<TestId> for PerTest<T> {
    fn index_mut(&mut self, t: TestId) -> &mut T {
        &mut self.0[t.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_numbered_in_order_and_names_are_unique() {
        for (i, t) in TestId::ALL.iter().enumerate() {
            assert_eq!(t.index(), i);
            assert_eq!(
                t.spec().violation.name,
                format!("test-{}", t.name().to_lowercase())
            );
        }
        let names: std::collections::BTreeSet<&str> =
            TestId::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(names.len(), COUNT);
    }

    #[test]
    fn per_test_indexes_by_id() {
        let mut v = PerTest::from_fn(|t| t.index() * 10);
        v[TestId::C] += 1;
        assert_eq!(v[TestId::C], 21);
        assert_eq!(v.map(|_, x| x + 1)[TestId::A], 1);
        assert_eq!(v.iter().count(), COUNT);
    }
}
