//! Judge families (Section 5): which judges share a model family, as indices in order of
//! first appearance, with the counts the family-blocked estimator and Test C depend on.

/// Indices of `labels` in order of first appearance (`a b a c` → `0 1 0 2`), and how many
/// distinct labels there are.
#[must_use]
pub fn first_appearance<T: PartialEq>(labels: &[T]) -> (Vec<usize>, usize) {
    let mut seen: Vec<&T> = Vec::new();
    let idx = labels
        .iter()
        .map(|l| {
            seen.iter().position(|s| *s == l).unwrap_or_else(|| {
                seen.push(l);
                seen.len() - 1
            })
        })
        .collect();
    (idx, seen.len())
}

/// Family membership of the judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgeFamilies {
    /// Family index of each judge (0, 1, … in order of first appearance).
    pub index: Vec<usize>,
    /// Number of judges in each family.
    pub sizes: Vec<usize>,
}

impl JudgeFamilies {
    /// Families from one label per judge (`a b a c` → `0 1 0 2`).
    #[must_use]
    pub fn from_labels<T: PartialEq>(labels: &[T]) -> JudgeFamilies {
        JudgeFamilies::from_index(first_appearance(labels).0)
    }

    /// Families from an index per judge (indices need not be dense).
    #[must_use]
    pub fn from_index(index: Vec<usize>) -> JudgeFamilies {
        let mut sizes = vec![0; index.iter().max().map_or(0, |m| m + 1)];
        for f in &index {
            sizes[*f] += 1;
        }
        JudgeFamilies { index, sizes }
    }

    /// Number of distinct (non-empty) families.
    #[must_use]
    pub fn count(&self) -> usize {
        self.sizes.iter().filter(|s| **s > 0).count()
    }

    /// Judges in the largest family.
    #[must_use]
    pub fn largest(&self) -> usize {
        self.sizes.iter().copied().max().unwrap_or(0)
    }

    /// Whether a cross-family judge pair exists (≥ 2 families): the blocked estimator runs.
    #[must_use]
    pub fn blockable(&self) -> bool {
        self.count() >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_families_by_first_appearance() {
        let f = JudgeFamilies::from_labels(&["x", "y", "x", "z"]);
        assert_eq!(f.index, vec![0, 1, 0, 2]);
        assert_eq!(f.sizes, vec![2, 1, 1]);
        assert_eq!((f.count(), f.largest(), f.blockable()), (3, 2, true));
        assert!(!JudgeFamilies::from_labels(&["x", "x"]).blockable());
    }
}
