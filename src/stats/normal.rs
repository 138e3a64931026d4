//! The standard normal and bivariate normal distributions, to the accuracy rectangle
//! probabilities of ordinal tables need.
//!
//! The bivariate normal CDF is Genz's (2004) algorithm (Drezner–Wesolowsky with
//! Gauss–Legendre quadrature), the algorithm behind R `mvtnorm` for two dimensions;
//! accurate to about 1e-15.

use libm::erfc;
use statrs::function::erf::erfc_inv;

const TWO_PI: f64 = std::f64::consts::TAU;

/// Standard normal CDF Φ(x) = erfc(−x/√2)/2, with `libm`'s erfc (FreeBSD msun, < 1 ulp);
/// statrs' erfc is only good to about 1e-10 relative, too coarse for rectangle probabilities.
#[must_use]
pub fn norm_cdf(x: f64) -> f64 {
    0.5 * erfc(-x * std::f64::consts::FRAC_1_SQRT_2)
}

/// Standard normal quantile Φ⁻¹(p) (±∞ at 0 and 1): statrs' erfc⁻¹ as a start, then two
/// Newton steps on the accurate [`norm_cdf`] (agrees with R `qnorm` to about 1e-15).
#[must_use]
pub fn norm_quantile(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let mut x = -std::f64::consts::SQRT_2 * erfc_inv(2.0 * p);
    for _ in 0..2 {
        let d = norm_pdf(x);
        if d > 0.0 {
            // Work in the smaller tail for relative accuracy.
            let step = if x < 0.0 {
                (norm_cdf(x) - p) / d
            } else {
                ((1.0 - p) - norm_cdf(-x)) / d
            };
            x -= step;
        }
    }
    x
}

/// Standard normal density.
pub(crate) fn norm_pdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / TWO_PI.sqrt()
}

/// Gauss–Legendre half-rules (6, 12 and 20 points; nodes in (0, 1) and weights).
const GL_W: [&[f64]; 3] = [
    &[
        0.171_324_492_379_170_5,
        0.360_761_573_048_138_4,
        0.467_913_934_572_690_4,
    ],
    &[
        0.047_175_336_386_511_77,
        0.106_939_325_995_318_3,
        0.160_078_328_543_346_4,
        0.203_167_426_723_065_9,
        0.233_492_536_538_354_7,
        0.249_147_045_813_402_9,
    ],
    &[
        0.017_614_007_139_152_12,
        0.040_601_429_800_386_94,
        0.062_672_048_334_109_06,
        0.083_276_741_576_704_75,
        0.101_930_119_817_240_4,
        0.118_194_531_961_518_4,
        0.131_688_638_449_176_6,
        0.142_096_109_318_382_1,
        0.149_172_986_472_603_7,
        0.152_753_387_130_725_9,
    ],
];
const GL_X: [&[f64]; 3] = [
    &[
        0.932_469_514_203_152_2,
        0.661_209_386_466_264_7,
        0.238_619_186_083_197,
    ],
    &[
        0.981_560_634_246_719_1,
        0.904_117_256_370_475,
        0.769_902_674_194_305,
        0.587_317_954_286_617_1,
        0.367_831_498_998_180_2,
        0.125_233_408_511_469_2,
    ],
    &[
        0.993_128_599_185_094_9,
        0.963_971_927_277_913_8,
        0.912_234_428_251_326,
        0.839_116_971_822_218_8,
        0.746_331_906_460_150_8,
        0.636_053_680_726_515,
        0.510_867_001_950_827_1,
        0.373_706_088_715_419_6,
        0.227_785_851_141_645_1,
        0.076_526_521_133_497_33,
    ],
];

/// Bivariate standard normal upper probability P(X > h, Y > k) with correlation r:
/// Genz (2004), "Numerical computation of rectangular bivariate and trivariate normal and t
/// probabilities", Statistics and Computing 14, 251–260 (the `BVNU` routine).
#[must_use]
pub fn bvn_upper(h: f64, k: f64, r: f64) -> f64 {
    if h == f64::INFINITY || k == f64::INFINITY {
        return 0.0;
    }
    if h == f64::NEG_INFINITY {
        return if k == f64::NEG_INFINITY {
            1.0
        } else {
            norm_cdf(-k)
        };
    }
    if k == f64::NEG_INFINITY {
        return norm_cdf(-h);
    }
    let ng = if r.abs() < 0.3 {
        0
    } else if r.abs() < 0.75 {
        1
    } else {
        2
    };
    let (w, x) = (GL_W[ng], GL_X[ng]);
    let mut k = k;
    let mut hk = h * k;
    let mut bvn = 0.0;
    if r.abs() < 0.925 {
        let hs = f64::midpoint(h * h, k * k);
        let asr = r.asin();
        for (wi, xi) in w.iter().zip(x) {
            for sign in [-1.0, 1.0] {
                let sn = (asr * (sign * xi + 1.0) / 2.0).sin();
                bvn += wi * ((sn * hk - hs) / (1.0 - sn * sn)).exp();
            }
        }
        return (bvn * asr / (2.0 * TWO_PI) + norm_cdf(-h) * norm_cdf(-k)).clamp(0.0, 1.0);
    }
    if r < 0.0 {
        k = -k;
        hk = -hk;
    }
    if r.abs() < 1.0 {
        let as_ = (1.0 - r) * (1.0 + r);
        let mut a = as_.sqrt();
        let bs = (h - k) * (h - k);
        let c = (4.0 - hk) / 8.0;
        let d = (12.0 - hk) / 16.0;
        let asr = -(bs / as_ + hk) / 2.0;
        if asr > -100.0 {
            bvn = a
                * asr.exp()
                * (1.0 - c * (bs - as_) * (1.0 - d * bs / 5.0) / 3.0 + c * d * as_ * as_ / 5.0);
        }
        if hk > -100.0 {
            let b = bs.sqrt();
            bvn -= (-hk / 2.0).exp()
                * TWO_PI.sqrt()
                * norm_cdf(-b / a)
                * b
                * (1.0 - c * bs * (1.0 - d * bs / 5.0) / 3.0);
        }
        a /= 2.0;
        let mut sum = 0.0;
        for (wi, xi) in w.iter().zip(x) {
            for sign in [-1.0, 1.0] {
                let xs = (a * (sign * xi + 1.0)).powi(2);
                let asr = -(bs / xs + hk) / 2.0;
                if asr > -100.0 {
                    let rs = (1.0 - xs).sqrt();
                    let sp = 1.0 + c * xs * (1.0 + d * xs);
                    let ep = (-hk * xs / (2.0 * (1.0 + rs) * (1.0 + rs))).exp() / rs;
                    sum += wi * asr.exp() * (ep - sp);
                }
            }
        }
        bvn = -(bvn + a * sum) / TWO_PI;
    }
    if r > 0.0 {
        bvn += norm_cdf(-h.max(k));
    } else {
        bvn = -bvn;
        if k > h {
            let l = if h < 0.0 {
                norm_cdf(k) - norm_cdf(h)
            } else {
                norm_cdf(-h) - norm_cdf(-k)
            };
            bvn += l;
        }
    }
    bvn.clamp(0.0, 1.0)
}

/// Bivariate standard normal CDF Φ₂(h, k; r) = P(X ≤ h, Y ≤ k).
#[must_use]
pub fn bvn_cdf(h: f64, k: f64, r: f64) -> f64 {
    bvn_upper(-h, -k, r)
}

/// Bivariate standard normal density φ₂(h, k; r) = ∂Φ₂/∂r (Plackett's identity); 0 when
/// either argument is infinite.
#[must_use]
pub fn bvn_pdf(h: f64, k: f64, r: f64) -> f64 {
    if !h.is_finite() || !k.is_finite() {
        return 0.0;
    }
    let one_r2 = (1.0 - r) * (1.0 + r);
    (-(h * h - 2.0 * r * h * k + k * k) / (2.0 * one_r2)).exp() / (TWO_PI * one_r2.sqrt())
}

/// Φ₂ and φ₂ at one correlation r on many points (a polychoric's grid): Genz's sines and
/// φ₂'s normaliser depend on r alone, so they are computed once; every value is bit for bit
/// [`bvn_cdf`]'s and [`bvn_pdf`]'s.
/// A Gauss–Legendre node of Genz's rule at one r: its weight, sine and 1 − sine².
type Node = (f64, f64, f64);

pub(crate) struct BvnAt {
    r: f64,
    /// |r| < 0.925: asin r and, per Gauss–Legendre node, its weight, sine and 1 − sine².
    nodes: Option<(f64, Vec<Node>)>,
    /// 2(1 − r²) and 2π√(1 − r²), φ₂'s exponent divisor and normaliser.
    two: f64,
    den: f64,
}

impl BvnAt {
    pub(crate) fn new(r: f64) -> BvnAt {
        let nodes = (r.abs() < 0.925).then(|| {
            let ng = if r.abs() < 0.3 {
                0
            } else if r.abs() < 0.75 {
                1
            } else {
                2
            };
            let asr = r.asin();
            let mut v = Vec::with_capacity(2 * GL_W[ng].len());
            for (wi, xi) in GL_W[ng].iter().zip(GL_X[ng]) {
                for sign in [-1.0, 1.0] {
                    let sn = (asr * (sign * xi + 1.0) / 2.0).sin();
                    v.push((*wi, sn, 1.0 - sn * sn));
                }
            }
            (asr, v)
        });
        let one_r2 = (1.0 - r) * (1.0 + r);
        BvnAt {
            r,
            nodes,
            two: 2.0 * one_r2,
            den: TWO_PI * one_r2.sqrt(),
        }
    }

    /// Φ₂(h, k; r) for finite h and k, given Φ(h) and Φ(k).
    pub(crate) fn cdf(&self, h: f64, k: f64, ph: f64, pk: f64) -> f64 {
        let Some((asr, nodes)) = &self.nodes else {
            return bvn_cdf(h, k, self.r);
        };
        // bvn_upper(−h, −k, r): (−h)(−k) = hk and (−h)² = h² exactly.
        let hk = h * k;
        let hs = f64::midpoint(h * h, k * k);
        let mut bvn = 0.0;
        for &(wi, sn, one) in nodes {
            bvn += wi * ((sn * hk - hs) / one).exp();
        }
        (bvn * asr / (2.0 * TWO_PI) + ph * pk).clamp(0.0, 1.0)
    }

    /// φ₂(h, k; r) for finite h and k.
    pub(crate) fn pdf(&self, h: f64, k: f64) -> f64 {
        let r = self.r;
        (-(h * h - 2.0 * r * h * k + k * k) / self.two).exp() / self.den
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bvn_at_one_correlation_is_bvn_to_the_bit() {
        for r in [
            -0.99, -0.93, -0.8, -0.5, -0.1, 0.0, 0.2, 0.6, 0.9, 0.924, 0.95, 0.9999,
        ] {
            let at = BvnAt::new(r);
            for h in [-3.1, -1.0, -0.25, 0.0, 0.4, 1.7, 2.9] {
                for k in [-2.2, -0.7, 0.0, 0.33, 1.2, 3.5] {
                    let got = at.cdf(h, k, norm_cdf(h), norm_cdf(k));
                    assert_eq!(got.to_bits(), bvn_cdf(h, k, r).to_bits(), "{h} {k} {r}");
                    assert_eq!(at.pdf(h, k).to_bits(), bvn_pdf(h, k, r).to_bits());
                }
            }
        }
    }

    #[test]
    fn gauss_legendre_half_rules_integrate_polynomials_exactly() {
        // A 2n-point rule is exact for degree ≤ 4n − 1 on [−1, 1]: check x^k, k even ≤ 2(2n − 1).
        for (w, x) in GL_W.iter().zip(GL_X) {
            let n = w.len();
            for k in (0..2 * i32::try_from(n).unwrap()).step_by(2) {
                let exact = 2.0 / (f64::from(k) + 1.0);
                let got: f64 = w
                    .iter()
                    .zip(x.iter())
                    .map(|(wi, xi)| 2.0 * wi * xi.powi(k))
                    .sum();
                assert!(
                    (got - exact).abs() < 1e-14,
                    "n = {n}, k = {k}: {got} vs {exact}"
                );
            }
        }
    }
    #[test]
    fn bvn_limits_and_symmetries() {
        assert!((bvn_cdf(0.3, -0.2, 0.0) - norm_cdf(0.3) * norm_cdf(-0.2)).abs() < 1e-15);
        assert!((bvn_cdf(0.4, 0.9, 1.0) - norm_cdf(0.4)).abs() < 1e-15);
        assert!((bvn_cdf(0.4, 0.9, -1.0) - (norm_cdf(0.4) + norm_cdf(0.9) - 1.0)).abs() < 1e-15);
        assert!((bvn_cdf(-0.4, 1.1, 0.6) - bvn_cdf(1.1, -0.4, 0.6)).abs() < 1e-15);
        assert_eq!(bvn_cdf(f64::INFINITY, f64::INFINITY, 0.5), 1.0);
        assert_eq!(bvn_cdf(f64::NEG_INFINITY, 0.3, 0.5), 0.0);
        // Plackett: ∂Φ₂/∂r = φ₂, checked by a central difference.
        let (h, k, r) = (0.3, -0.7, 0.4);
        let d = (bvn_cdf(h, k, r + 1e-5) - bvn_cdf(h, k, r - 1e-5)) / 2e-5;
        assert!((d - bvn_pdf(h, k, r)).abs() < 1e-9);
    }
    #[test]
    fn quantile_inverts_cdf() {
        for p in [1e-10, 0.001, 0.2, 0.5, 0.77, 0.999_999] {
            assert!((norm_cdf(norm_quantile(p)) - p).abs() <= 1e-15 * p.max(1e-3) * 10.0);
        }
        assert_eq!(norm_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(norm_quantile(1.0), f64::INFINITY);
    }
}
