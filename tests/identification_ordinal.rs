//! Section 7 with ordinal anchors, checked independently of the library's model code: the
//! parameters → observed-moments map is written out here from Assumption 1, its numerical
//! Jacobian's rank is taken at random interior points, with and without one anchor designated
//! clean (ρ_d = 0), for continuous and for ordinal judges; and equivalent worlds (two parameter
//! sets, the same observed moments, different ρ) are built where ρ is not identified.
//! The expected null dimensions are the table filed with issue 38 (docs/method.md §7b).

use nalgebra::DMatrix;
use rand::RngExt;
use rhoscope::rng::{Purpose, stream_rng};

/// One world of Assumption 1: θ = (σ_t², σ_c², ρ_1..ρ_m, σ_a1..σ_am, Var(e_1)..Var(e_p)).
#[derive(Debug, Clone)]
struct World {
    st2: f64,
    sc2: f64,
    rho: Vec<f64>,
    sa: Vec<f64>,
    ev: Vec<f64>,
}

impl World {
    fn p(&self) -> usize {
        self.ev.len()
    }

    fn m(&self) -> usize {
        self.rho.len()
    }

    /// Cov of (J_1..J_p, A_1..A_m): J = t + c + e, A_k = t + (β_k/σ_c²) c + u_k.
    fn cov(&self) -> DMatrix<f64> {
        let (p, m) = (self.p(), self.m());
        let beta: Vec<f64> = (0..m)
            .map(|k| self.rho[k] * self.sa[k] * self.sc2.sqrt())
            .collect();
        let k2 = self.st2 + self.sc2;
        DMatrix::from_fn(p + m, p + m, |r, c| match (r < p, c < p) {
            (true, true) if r == c => k2 + self.ev[r],
            (true, true) => k2,
            (true, false) => self.st2 + beta[c - p],
            (false, true) => self.st2 + beta[r - p],
            (false, false) if r == c => self.st2 + self.sa[r - p].powi(2),
            (false, false) => self.st2 + beta[r - p] * beta[c - p] / self.sc2,
        })
    }

    fn theta(&self, fixed: Option<usize>) -> Vec<f64> {
        let mut th = vec![self.st2, self.sc2];
        th.extend(
            self.rho
                .iter()
                .enumerate()
                .filter(|(k, _)| Some(*k) != fixed)
                .map(|(_, r)| r),
        );
        th.extend(&self.sa);
        th.extend(&self.ev);
        th
    }

    fn with_theta(&self, th: &[f64], fixed: Option<usize>) -> World {
        let (p, m) = (self.p(), self.m());
        let free = m - usize::from(fixed.is_some());
        let mut it = th[2..2 + free].iter();
        let rho = (0..m)
            .map(|k| {
                if Some(k) == fixed {
                    0.0
                } else {
                    *it.next().unwrap()
                }
            })
            .collect();
        World {
            st2: th[0],
            sc2: th[1],
            rho,
            sa: th[2 + free..2 + free + m].to_vec(),
            ev: th[2 + free + m..2 + free + m + p].to_vec(),
        }
    }
}

/// What the data show: the judges' covariances where judges are continuous, latent
/// correlations elsewhere (every anchor ordinal).
fn observed(w: &World, judges_continuous: bool) -> Vec<f64> {
    let s = w.cov();
    let (p, q) = (w.p(), s.nrows());
    let corr = |i: usize, j: usize| s[(i, j)] / (s[(i, i)] * s[(j, j)]).sqrt();
    let mut out = Vec::new();
    for i in 0..q {
        for j in i..q {
            if i < p && j < p && judges_continuous {
                out.push(s[(i, j)]);
            } else if i != j {
                out.push(corr(i, j));
            }
        }
    }
    out
}

/// The null dimension of the Jacobian of θ ↦ observed at `w` (central differences, relative
/// tolerance 1e-7 of the largest singular value, as issue 38's study).
fn null_dim(w: &World, judges_continuous: bool, fixed: Option<usize>) -> (usize, Vec<f64>) {
    let th = w.theta(fixed);
    let f = |t: &[f64]| observed(&w.with_theta(t, fixed), judges_continuous);
    let n_out = f(&th).len();
    let mut jac = DMatrix::zeros(n_out.max(th.len()), th.len());
    for i in 0..th.len() {
        let h = 1e-5 * th[i].abs().max(0.1);
        let (mut up, mut dn) = (th.clone(), th.clone());
        up[i] += h;
        dn[i] -= h;
        for (r, (a, b)) in f(&up).iter().zip(f(&dn)).enumerate() {
            jac[(r, i)] = (a - b) / (2.0 * h);
        }
    }
    let mut sv: Vec<f64> = jac.singular_values().iter().copied().collect();
    sv.sort_by(|a, b| b.total_cmp(a));
    let cut = 1e-7 * sv[0];
    (sv.iter().filter(|s| **s <= cut).count(), sv)
}

/// A random interior point (seeded): every variance well inside, |ρ| ≤ 0.6.
fn random_world(p: usize, m: usize, index: u64) -> World {
    let mut rng = stream_rng(38, Purpose::Simulate, index);
    let mut u = |lo: f64, hi: f64| lo + (hi - lo) * rng.random::<f64>();
    World {
        st2: u(0.5, 1.5),
        sc2: u(0.3, 1.2),
        rho: (0..m).map(|_| u(-0.6, 0.6)).collect(),
        sa: (0..m).map(|_| u(0.4, 1.0)).collect(),
        ev: (0..p).map(|_| u(0.5, 1.5)).collect(),
    }
}

/// Issue 38's table, for m = 2, 3, 4, 6: (free, with ρ_1 = 0) null dimensions.
fn spec_null(judges_continuous: bool, m: usize) -> (usize, usize) {
    match (judges_continuous, m) {
        (true, 2) => (2, 1),
        (true, _) => (1, 0),
        (false, 2) => (3, 2),
        (false, _) => (2, 1),
    }
}

#[test]
fn the_rank_table_holds_at_random_interior_points() {
    for judges_continuous in [true, false] {
        for m in [2, 3, 4, 6] {
            for (i, p) in [5usize, 3, 6].into_iter().enumerate() {
                let w = random_world(p, m, (m * 10 + i) as u64);
                let want = spec_null(judges_continuous, m);
                let (free, sv) = null_dim(&w, judges_continuous, None);
                let (fixed, sv_fixed) = null_dim(&w, judges_continuous, Some(0));
                assert_eq!(
                    (free, fixed),
                    want,
                    "continuous judges {judges_continuous}, p {p}, m {m}: {sv:?} / {sv_fixed:?}"
                );
                // Far from the tolerance: the smallest kept value is a visible number.
                let kept = sv[sv.len() - free - 1];
                assert!(kept > 1e-4 * sv[0], "{sv:?}");
            }
        }
    }
}

#[test]
fn designating_any_anchor_not_just_the_first_identifies_at_m_3() {
    let w = random_world(4, 3, 99);
    for d in 0..3 {
        assert_eq!(null_dim(&w, true, Some(d)).0, 0, "anchor {d}");
        assert_eq!(null_dim(&w, false, Some(d)).0, 1, "anchor {d}");
    }
}

#[test]
fn continuous_anchors_identify_without_designation() {
    // The contrast: every column continuous, covariances seen, m = 2: Theorem 1.
    let w = random_world(4, 2, 7);
    let th = w.theta(None);
    let f = |t: &[f64]| {
        let s = w.with_theta(t, None).cov();
        let q = s.nrows();
        (0..q)
            .flat_map(|i| (i..q).map(move |j| (i, j)))
            .map(|(i, j)| s[(i, j)])
            .collect::<Vec<f64>>()
    };
    let n_out = f(&th).len();
    let mut jac = DMatrix::zeros(n_out, th.len());
    for i in 0..th.len() {
        let h = 1e-5;
        let (mut up, mut dn) = (th.clone(), th.clone());
        up[i] += h;
        dn[i] -= h;
        for (r, (a, b)) in f(&up).iter().zip(f(&dn)).enumerate() {
            jac[(r, i)] = (a - b) / (2.0 * h);
        }
    }
    let sv = jac.singular_values();
    assert!(sv.min() > 1e-4 * sv.max(), "{sv:?}");
}

#[test]
fn the_all_ordinal_null_space_holds_the_common_scale() {
    // Scaling every variance by s (σ_a by √s) moves no correlation and no ρ.
    let w = random_world(5, 4, 3);
    let base = observed(&w, false);
    let s = 1.7;
    let scaled = World {
        st2: w.st2 * s,
        sc2: w.sc2 * s,
        rho: w.rho.clone(),
        sa: w.sa.iter().map(|a| a * s.sqrt()).collect(),
        ev: w.ev.iter().map(|e| e * s).collect(),
    };
    let moved = observed(&scaled, false);
    let diff = base
        .iter()
        .zip(&moved)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(diff < 1e-12, "{diff}");
    // With continuous judges the same move is seen (their covariances scale).
    let diff = observed(&w, true)
        .iter()
        .zip(observed(&scaled, true))
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(diff > 0.1, "{diff}");
}

/// A world from standardised loadings: judges at angle φ (σ_c/σ_t = tan φ) with the judges'
/// K and error variances of `like`; anchor k loading (a_k, w_k) on standardised (t, c).
fn from_loadings(like: &World, phi: f64, load: &[(f64, f64)]) -> Option<World> {
    let k2 = like.st2 + like.sc2;
    let (st2, sc2) = (k2 * phi.cos().powi(2), k2 * phi.sin().powi(2));
    let mut rho = Vec::new();
    let mut sa = Vec::new();
    for &(a, w) in load {
        if a <= 0.0 || a * a + w * w >= 1.0 {
            return None;
        }
        let v = st2 / (a * a);
        let sak2 = v - st2;
        let beta = w * v.sqrt() * sc2.sqrt();
        rho.push(beta / (sak2.sqrt() * sc2.sqrt()));
        sa.push(sak2.sqrt());
    }
    (st2 > 0.0 && sc2 > 0.0).then(|| World {
        st2,
        sc2,
        rho,
        sa,
        ev: like.ev.clone(),
    })
}

/// Anchor k's standardised loadings (a_k, w_k) and the judges' angle φ.
fn loadings(w: &World) -> (f64, Vec<(f64, f64)>) {
    let beta: Vec<f64> = (0..w.m())
        .map(|k| w.rho[k] * w.sa[k] * w.sc2.sqrt())
        .collect();
    let load = (0..w.m())
        .map(|k| {
            let v = w.st2 + w.sa[k].powi(2);
            (w.st2.sqrt() / v.sqrt(), beta[k] / w.sc2.sqrt() / v.sqrt())
        })
        .collect();
    (w.sc2.sqrt().atan2(w.st2.sqrt()), load)
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

#[test]
fn at_m_2_a_clean_anchor_leaves_the_other_free() {
    // The paper's sentence, where it holds: anchor 1 clean in both worlds, anchor 2's ρ differs,
    // the judges' covariances and every latent correlation agree.
    let truth = World {
        st2: 1.0,
        sc2: 0.8,
        rho: vec![0.0, 0.5],
        sa: vec![0.5, 0.6],
        ev: vec![1.0; 5],
    };
    let (phi, load) = loadings(&truth);
    // What the data fix: each anchor's projection g_k on the judges' direction, and P_12.
    let g: Vec<f64> = load
        .iter()
        .map(|(a, w)| a * phi.cos() + w * phi.sin())
        .collect();
    let p12 = load[0].0 * load[1].0 + load[0].1 * load[1].1;
    let phi2 = phi - 0.15;
    let a1 = g[0] / phi2.cos();
    let a2 = p12 / a1;
    let w2 = (g[1] - a2 * phi2.cos()) / phi2.sin();
    let other = from_loadings(&truth, phi2, &[(a1, 0.0), (a2, w2)]).expect("in range");
    assert!(other.rho[0].abs() < 1e-12);
    assert!((other.rho[1] - truth.rho[1]).abs() > 0.1, "{:?}", other.rho);
    for judges_continuous in [true, false] {
        let d = max_diff(
            &observed(&truth, judges_continuous),
            &observed(&other, judges_continuous),
        );
        assert!(d < 1e-12, "{d}");
    }
}

#[test]
fn at_m_3_without_a_clean_anchor_worlds_rotate_and_every_rho_moves() {
    // Rotating every standardised loading by one angle keeps every correlation and moves ρ.
    let truth = World {
        st2: 1.0,
        sc2: 0.8,
        rho: vec![0.0, 0.5, 0.3],
        sa: vec![0.5, 0.6, 0.7],
        ev: vec![1.0; 5],
    };
    let (phi, load) = loadings(&truth);
    let psi: f64 = 0.1;
    let rot: Vec<(f64, f64)> = load
        .iter()
        .map(|(a, w)| (a * psi.cos() - w * psi.sin(), a * psi.sin() + w * psi.cos()))
        .collect();
    let other = from_loadings(&truth, phi + psi, &rot).expect("in range");
    for judges_continuous in [true, false] {
        let d = max_diff(
            &observed(&truth, judges_continuous),
            &observed(&other, judges_continuous),
        );
        assert!(d < 1e-12, "{d}");
    }
    for k in 0..3 {
        assert!(other.rho[k] > truth.rho[k] + 0.05, "{:?}", other.rho);
    }
}

#[test]
fn a_second_branch_mirrors_the_anchors_residual_directions() {
    // Beyond the rotation: reflecting every loading across the judges' direction keeps every
    // correlation too, so with anchor 1 clean there is exactly one more world — the mirror,
    // with the same ρ — and the worlds with ρ_1 ≠ 0 come in two arcs.
    let truth = World {
        st2: 1.0,
        sc2: 0.8,
        rho: vec![0.0, 0.5, 0.3],
        sa: vec![0.5, 0.6, 0.7],
        ev: vec![1.0; 5],
    };
    let (phi, load) = loadings(&truth);
    let (u, v) = (phi.cos(), phi.sin());
    // Reflection across the line through (u, v): x ↦ 2(x·d)d − x.
    let refl = |(a, w): (f64, f64)| {
        let dot = a * u + w * v;
        (2.0 * dot * u - a, 2.0 * dot * v - w)
    };
    // The judges stay on the line; the anchors move to the other side. Axes (t, c) kept,
    // judges re-angled by reflecting the axes instead: equivalent to reflecting the anchors
    // and keeping φ.
    let mirrored: Vec<(f64, f64)> = load.iter().map(|&l| refl(l)).collect();
    let other = from_loadings(&truth, phi, &mirrored).expect("in range");
    for judges_continuous in [true, false] {
        let d = max_diff(
            &observed(&truth, judges_continuous),
            &observed(&other, judges_continuous),
        );
        assert!(d < 1e-12, "{d}");
    }
    // A different world: anchor 1 is no longer clean.
    assert!(other.rho[0].abs() > 0.05, "{:?}", other.rho);
}
