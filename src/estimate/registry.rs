//! The estimator registry: each estimator's file owns its whole story as one [`Entry`] (JSON
//! key, titles, applicability, fit, bootstrap, where it is shown), and the `registry!` call
//! in `estimate.rs` declares their modules and builds [`Estimator`] from them. Everything that lists estimators — `--method`, the
//! text and JSON reports, the explorer, the battery, the bootstrap — reads this registry, so
//! a new estimator is one new file plus one line here.

use nalgebra::DMatrix;

use super::shape::Estimate;
use super::{Context, Detail, EstimateError, Estimator};
use crate::moments::{JudgePairs, Moments};
use crate::panel::Panel;

/// What one estimator is. Each estimator's file defines one as `pub const ENTRY`.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The JSON key of its object in `estimate --json` and `battery --json`.
    pub key: &'static str,
    /// The heading of its block in text reports.
    pub title: fn(&Context, &[String]) -> String,
    /// A short label naming it (and the clean anchor), for panes and tables.
    pub label: fn(&Context, &[String]) -> String,
    /// A name that fits a narrow table column.
    pub short: &'static str,
    /// Where its numbers come from, in one clause (with its section of the paper).
    pub basis: &'static str,
    /// Whether it can run with this context and `m` anchors, and if not, why.
    pub applicable: fn(&Context, usize) -> Result<(), EstimateError>,
    /// How it is fitted.
    pub fit: Fitter,
    /// Whether the item bootstrap refits it (ML is too slow to refit B times).
    pub bootstrapped: bool,
    /// Where it is shown besides the `estimate` command's own options.
    pub shown: Shown,
}

/// How an estimator turns a panel into an [`Estimate`].
#[derive(Debug, Clone)]
pub enum Fitter {
    /// A function of the covariance moments alone, with K the mean of `pairs`: a bootstrap
    /// resample needs only count-weighted feature sums. Assumption 1's common scale applies.
    Moments(OnMoments),
    /// Its own fit of the panel and its covariance (`identify`: with the free-scale
    /// identified set, which a recovery study of the point estimator leaves out).
    Panel(PanelFit),
}

/// An estimator's own fit: the estimate and what only it reports.
pub type PanelFit =
    fn(&Panel, &DMatrix<f64>, &Context, bool) -> Result<(Estimate, Detail), EstimateError>;

/// An estimator that is a function of the sample's moments.
#[derive(Debug, Clone)]
pub struct OnMoments {
    /// The judge pairs its K is the mean of.
    pub pairs: for<'a> fn(&'a Context) -> JudgePairs<'a>,
    /// The estimate from those moments.
    pub estimate: fn(&Moments, &Context) -> Estimate,
    /// Why there are no moments when `pairs` is empty.
    pub undefined: EstimateError,
}

/// Where an estimator is listed.
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    /// Its value of `estimate --method`, if it has one (others have their own option).
    pub method: Option<MethodValue>,
    /// Whether the explorer fits and shows it.
    pub explorer: bool,
    /// Whether the battery fits and bootstraps it.
    pub battery: bool,
}

/// One value of `estimate --method`.
#[derive(Debug, Clone, Copy)]
pub struct MethodValue {
    /// The value as typed.
    pub name: &'static str,
    /// Its line in `--help`.
    pub help: &'static str,
}

/// K from every judge pair.
#[must_use]
pub fn all_pairs(_: &Context) -> JudgePairs<'_> {
    JudgePairs::All
}

/// Builds [`Estimator`] from `Variant => module` lines: declares each estimator's module
/// (so a new estimator is its file plus its line), the enum, [`COUNT`] and `entry()`.
/// Invoked in `estimate.rs`, whose folder holds the estimators' files.
macro_rules! registry {
    ($($(#[$attr:meta])* $id:ident => $module:ident),+ $(,)?) => {
        $($(#[$attr])* pub mod $module;)+

        /// The estimators, in report order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Estimator {
            $($(#[$attr])* $id),+
        }

        impl Estimator {
            /// Every estimator, in report order.
            pub const ALL: [Estimator; registry::COUNT] = [$($(#[$attr])* Estimator::$id),+];

            /// The estimator's own description, from its file.
            #[must_use]
            pub const fn entry(self) -> &'static registry::Entry {
                match self {
                    $($(#[$attr])* Estimator::$id => &$module::ENTRY),+
                }
            }
        }

        /// How many estimators are registered.
        const REGISTERED: usize = {
            let mut n = 0;
            $($(#[$attr])* { n += 1; })+
            n
        };
    };
}

/// How many estimators are registered.
pub const COUNT: usize = super::REGISTERED;

/// How many estimators the explorer shows.
const EXPLORER_COUNT: usize = count(List::Explorer);
/// How many estimators the battery fits.
const BATTERY_COUNT: usize = count(List::Battery);

/// The estimators the explorer shows, in its order: the closed form first, then the
/// comparisons.
pub const EXPLORER: [Estimator; EXPLORER_COUNT] = select(List::Explorer);

/// The estimators the battery fits and bootstraps: the closed form, the family-blocked
/// estimate where families allow it, and the free-scale estimate (docs/method.md §7) where ≥ 3 judges
/// and ≥ 3 continuous anchors allow it.
pub const BATTERY: [Estimator; BATTERY_COUNT] = select(List::Battery);

/// A list of estimators derived from the registry.
#[derive(Clone, Copy)]
enum List {
    Explorer,
    Battery,
}

impl List {
    /// Whether an estimator shown as `s` is on this list.
    const fn has(self, s: &Shown) -> bool {
        match self {
            List::Explorer => s.explorer,
            List::Battery => s.battery,
        }
    }
}

/// How many registered estimators are on `list`.
const fn count(list: List) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < COUNT {
        if list.has(&Estimator::ALL[i].entry().shown) {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The registered estimators on `list`, in report order.
const fn select<const N: usize>(list: List) -> [Estimator; N] {
    let mut out = [Estimator::ClosedForm; N];
    let (mut i, mut n) = (0, 0);
    while i < COUNT {
        if list.has(&Estimator::ALL[i].entry().shown) {
            out[n] = Estimator::ALL[i];
            n += 1;
        }
        i += 1;
    }
    out
}

impl Estimator {
    /// Position in [`Estimator::ALL`] (the registry numbers its variants in order).
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its value of `estimate --method`, if it has one.
    #[must_use]
    pub fn method(self) -> Option<MethodValue> {
        self.entry().shown.method
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_numbered_in_order_and_keys_are_unique() {
        for (i, e) in Estimator::ALL.iter().enumerate() {
            assert_eq!(e.index(), i);
        }
        let keys: std::collections::BTreeSet<&str> =
            Estimator::ALL.iter().map(|e| e.entry().key).collect();
        assert_eq!(keys.len(), COUNT);
        let methods: std::collections::BTreeSet<&str> = Estimator::ALL
            .iter()
            .filter_map(|e| e.method().map(|m| m.name))
            .collect();
        assert_eq!(
            methods.len(),
            Estimator::ALL
                .iter()
                .filter(|e| e.method().is_some())
                .count()
        );
    }

    #[test]
    fn lists_follow_report_order() {
        for list in [&EXPLORER[..], &BATTERY[..]] {
            assert!(list.windows(2).all(|w| w[0].index() < w[1].index()));
        }
    }
}
