//! The free-scale equal-β ridge as a [`Family`] (docs/method.md §9): with equal β_k = b the
//! anchor moments keep one q and one P for three unknowns (σ_t², σ_c², b), and every σ_t² = s
//! in (0, P) with b = ±√((P − s)σ_c²) and s + b = q√(s + σ_c²) solvable for σ_c² > 0 is a
//! world the data allow. There ρ_k = ±√((P − s)/(V_k − s)), so along each sign's arc every
//! anchor's ρ keeps one sign, the anchor with the smaller V_k is the farther from 0, and all
//! cross 0 together at s = P (b = 0: every anchor clean).

use super::family::{Arc, Family};
use crate::estimate::identified::AnchorMoments;

/// Grid points over (0, min(P, V_k)) on which each branch's worlds are sought.
const GRID: usize = 2000;
/// Bisection steps that refine each end of an arc.
const REFINE: usize = 60;

/// The ridge traced at the anchors' pooled moments: q̄ (mean q_k) and P̄ (mean P_kl), each
/// anchor keeping its own V_k. Empty when no world is admissible (P̄ ≥ some V_k leaves that
/// anchor |ρ| ≥ 1; P̄ ≤ 0 leaves no s).
#[must_use]
pub fn of_moments(mom: &AnchorMoments) -> Family {
    let m = mom.q.len();
    let empty = Family {
        arcs: Vec::new(),
        above: Vec::new(),
    };
    if m == 0 || mom.p.is_empty() {
        return empty;
    }
    let q = mom.q.iter().sum::<f64>() / m as f64;
    let p = mom.p.iter().sum::<f64>() / mom.p.len() as f64;
    let v_min = mom.v.iter().copied().fold(f64::INFINITY, f64::min);
    if !(q.is_finite() && p.is_finite() && p > 0.0 && p < v_min) {
        return empty;
    }
    let arcs: Vec<Arc> = [1.0, -1.0]
        .into_iter()
        .filter_map(|sign| arc(q, p, &mom.v, sign))
        .collect();
    let above = (0..m)
        .flat_map(|k| (0..m).map(move |l| (k, l)))
        .filter(|&(k, l)| k != l && !arcs.is_empty())
        .filter(|&(k, l)| {
            arcs.iter().all(|a| {
                let mid = 0.5 * (a.phi.0 + a.phi.1);
                rho(p, mom.v[k], mid, a.branch) > rho(p, mom.v[l], mid, a.branch)
            })
        })
        .collect();
    Family { arcs, above }
}

/// Every anchor's ρ in the world of ridge `arc` where anchor `k`'s ρ is `assumed` (held in
/// the arc's range): ρ_k² = (P̄ − s)/(V_k − s) gives s = (P̄ − ρ_k² V_k)/(1 − ρ_k²), at the
/// pooled P̄ [`of_moments`] traced. What the explorer's "assumed ρ of NAME" slider draws.
#[must_use]
pub fn at_assumed(mom: &AnchorMoments, arc: &Arc, k: usize, assumed: f64) -> Vec<f64> {
    let p = mom.p.iter().sum::<f64>() / mom.p.len().max(1) as f64;
    let (lo, hi) = arc.rho.get(k).copied().unwrap_or((0.0, 0.0));
    let r2 = assumed.clamp(lo, hi).powi(2).min(1.0 - 1e-12);
    let v = mom.v.get(k).copied().unwrap_or(f64::NAN);
    let s = ((p - r2 * v) / (1.0 - r2)).clamp(arc.phi.0, arc.phi.1);
    mom.v.iter().map(|&vl| rho(p, vl, s, arc.branch)).collect()
}

/// ρ_k at σ_t² = s on branch `sign` (the sign of b).
fn rho(p: f64, v: f64, s: f64, sign: f64) -> f64 {
    sign * ((p - s) / (v - s)).max(0.0).sqrt()
}

/// Whether some σ_c² > 0 makes s a world of branch `sign`: with u = σ_c and r = √(P − s),
/// (s + sign·r·u)² = q²(s + u²) with s + sign·r·u of q's sign.
fn admissible(q: f64, p: f64, s: f64, sign: f64) -> bool {
    let r = (p - s).max(0.0).sqrt();
    let (a, b, c) = (r * r - q * q, 2.0 * sign * s * r, s * s - q * q * s);
    let roots: Vec<f64> = if a.abs() < 1e-14 {
        if b == 0.0 { Vec::new() } else { vec![-c / b] }
    } else {
        let d = b * b - 4.0 * a * c;
        if d < 0.0 {
            Vec::new()
        } else {
            let e = d.sqrt();
            vec![(-b - e) / (2.0 * a), (-b + e) / (2.0 * a)]
        }
    };
    roots
        .into_iter()
        .any(|u| u > 0.0 && u.is_finite() && (s + sign * r * u) * q > 0.0)
}

/// The arc of branch `sign`: the hull of its worlds' σ_t², ends refined by bisection.
fn arc(q: f64, p: f64, v: &[f64], sign: f64) -> Option<Arc> {
    let top = p.min(v.iter().copied().fold(f64::INFINITY, f64::min));
    let at = |i: usize| top * i as f64 / GRID as f64;
    let ok: Vec<usize> = (1..GRID).filter(|&i| admissible(q, p, at(i), sign)).collect();
    let (&first, &last) = (ok.first()?, ok.last()?);
    let refine = |inside: f64, outside: f64| {
        let (mut a, mut b) = (inside, outside);
        for _ in 0..REFINE {
            let mid = 0.5 * (a + b);
            if admissible(q, p, mid, sign) {
                a = mid;
            } else {
                b = mid;
            }
        }
        a
    };
    let lo = refine(at(first), at(first - 1));
    let hi = refine(at(last), at(last + 1));
    let ends = |k: usize| {
        let (x, y) = (rho(p, v[k], lo, sign), rho(p, v[k], hi, sign));
        (x.min(y), x.max(y))
    };
    // The world s = P (b = 0, σ_c² = P²/q² − P) has every anchor clean.
    let zero = q > 0.0 && p > q * q && hi >= p * (1.0 - 1e-9);
    Some(Arc {
        branch: sign,
        phi: (lo, hi),
        rho: (0..v.len()).map(ends).collect(),
        if_clean: (0..v.len())
            .map(|_| zero.then(|| vec![0.0; v.len()]))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slider's world has the assumed ρ for its anchor, and at ρ = 0 every anchor is
    /// clean (the ridge's worlds all cross 0 together).
    #[test]
    fn at_assumed_puts_the_anchor_at_the_assumed_rho() {
        let mom = world(1.0, 0.8, &[0.4, 0.4, 0.4], &[0.3, 0.5, 0.7]);
        let fam = of_moments(&mom);
        let arc = fam.arcs.iter().find(|a| a.branch > 0.0).expect("a positive arc");
        let w = at_assumed(&mom, arc, 1, 0.3);
        assert!((w[1] - 0.3).abs() < 1e-9, "{w:?}");
        // The smaller V_k, the farther from 0 (A1 has the smallest error variance).
        assert!(w[0] > w[1] && w[1] > w[2], "{w:?}");
        let clean = at_assumed(&mom, arc, 1, 0.0);
        assert!(clean.iter().all(|r| r.abs() < 1e-6), "{clean:?}");
    }

    /// Anchor moments of the free-scale model at (σ_t², σ_c², β, σ_a²): the population
    /// moments with each anchor's variance V_k = σ_t² + β_k²/σ_c² + σ_a,k².
    fn world(s: f64, c: f64, beta: &[f64], sa2: &[f64]) -> AnchorMoments {
        let v: Vec<f64> = (0..beta.len())
            .map(|k| s + beta[k] * beta[k] / c + sa2[k])
            .collect();
        crate::estimate::identified::population(s, c, beta, &v)
    }

    /// ρ_k of a world, by the model's definition β_k / √((V_k − σ_t²) σ_c²).
    fn rho_of(s: f64, c: f64, b: f64, v: f64) -> f64 {
        b / ((v - s) * c).sqrt()
    }

    #[test]
    fn two_equal_beta_worlds_with_the_same_moments_lie_in_the_ranges() {
        // World 1: σ_t² = 1, σ_c² = 0.8, β = 0.2 on three anchors, σ_a² = (0.25, 0.36, 0.49).
        let (s1, c1, b1) = (1.0, 0.8, 0.2);
        let sa1 = [0.25, 0.36, 0.49];
        let w1 = world(s1, c1, &[b1; 3], &sa1);
        // World 2 at σ_t² = 0.7: b² = (P − s)σ_c² and s + b = q√(s + σ_c²) give σ_c² from
        // the quadratic in u = σ_c, solved here by hand; σ_a² keeps each V_k.
        let (q, p) = (w1.q[0], w1.p[0]);
        let s2: f64 = 0.7;
        let r = (p - s2).sqrt();
        let (a, b, c) = (r * r - q * q, 2.0 * s2 * r, s2 * s2 - q * q * s2);
        let u = (-b - (b * b - 4.0 * a * c).sqrt()) / (2.0 * a);
        assert!(u > 0.0, "{u}");
        let (c2, b2) = (u * u, r * u);
        let sa2: Vec<f64> = w1.v.iter().map(|v| v - s2 - b2 * b2 / c2).collect();
        assert!(sa2.iter().all(|x| *x > 0.0), "{sa2:?}");
        let w2 = world(s2, c2, &[b2; 3], &sa2);
        for (x, y) in w1.q.iter().chain(&w1.p).chain(&w1.v).zip(w2.q.iter().chain(&w2.p).chain(&w2.v)) {
            assert!((x - y).abs() < 1e-12, "{w1:?} vs {w2:?}");
        }
        let fam = of_moments(&w1);
        assert!(!fam.is_empty());
        let mut differ = false;
        for k in 0..3 {
            let (lo, hi) = fam.range(k).unwrap();
            let r1 = rho_of(s1, c1, b1, w1.v[k]);
            let r2 = rho_of(s2, c2, b2, w2.v[k]);
            differ |= (r1 - r2).abs() > 0.05;
            assert!(lo <= r1 && r1 <= hi && lo <= r2 && r2 <= hi, "{k}: {r1} {r2} in {lo}..{hi}");
        }
        assert!(differ, "the two worlds must differ in ρ");
        // Every anchor crosses 0 at the same world, and the first anchor (smallest V) is the
        // farthest from 0 on the branch that holds the truth.
        assert!((0..3).all(|k| fam.if_clean(k).is_some_and(|r| r.iter().all(|x| *x == 0.0))));
        let plus = fam.arcs.iter().find(|a| a.branch > 0.0).unwrap();
        assert!(plus.rho[0].1 > plus.rho[1].1 && plus.rho[1].1 > plus.rho[2].1);
    }

    #[test]
    fn the_clean_worked_case_matches_the_closed_ridge() {
        // docs/method.md §9: ρ = 0, σ_t² = 1, σ_c² = 0.8, V = (1.25, 1.36, 1.49): ρ_1 spans
        // about [−0.80, 0.89]; its top is √(P/V_1) = √(1/1.25) at σ_t² → 0.
        let mom = world(1.0, 0.8, &[0.0; 3], &[0.25, 0.36, 0.49]);
        let fam = of_moments(&mom);
        let (lo, hi) = fam.range(0).unwrap();
        assert!((hi - (1.0f64 / 1.25).sqrt()).abs() < 1e-3, "{hi}");
        assert!((lo + 0.80).abs() < 0.01, "{lo}");
        // Both signs are admissible, so no pair is ordered in every world.
        assert!(fam.above.is_empty());
    }

    #[test]
    fn moments_no_equal_beta_world_fits_give_an_empty_family() {
        let mom = AnchorMoments {
            q: vec![0.5; 3],
            p: vec![2.0; 3],
            v: vec![1.5, 1.6, 1.7],
        };
        assert!(of_moments(&mom).is_empty());
    }
}
