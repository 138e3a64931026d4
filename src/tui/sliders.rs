//! The simulation sliders: every knob the explorer lets a user move, each with its value,
//! range and steps, and the model [`Params`] they describe.

use crate::model::{Families, Params, Violations};

/// What a slider controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knob {
    /// ρ_k of anchor k.
    Rho(usize),
    /// Test A's violation: the first half of the judges load this much more on a second factor.
    Spread,
    /// Uniform judge loading g on the second factor (Proposition 1).
    G,
    /// Uniform anchor loading h on the second factor (Proposition 1).
    H,
    /// Non-uniform anchor loadings t·(1, 1/2, 0, …) on the second factor (Test B's target).
    Tilt,
    /// Shared judge residual s (Assumption 2).
    Shared,
    /// Family residual SD σ_f (three families).
    SigmaF,
    N,
    P,
    M,
    SigmaC2,
}

/// One slider.
#[derive(Debug, Clone, PartialEq)]
pub struct Slider {
    pub knob: Knob,
    pub label: String,
    pub value: f64,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub fine: f64,
    pub coarse: f64,
    /// What moving it shows, in a few words.
    pub hint: &'static str,
}

impl Slider {
    /// The value as the slider shows it: whole numbers for whole steps, else two decimals.
    #[must_use]
    pub fn value_text(&self) -> String {
        if self.fine >= 1.0 {
            format!("{:.0}", self.value)
        } else {
            format!("{:.2}", self.value)
        }
    }

    fn new(knob: Knob, value: f64) -> Slider {
        let (label, min, max, fine, coarse, hint) = match knob {
            Knob::Rho(k) => (
                format!("ρ_{}", k + 1),
                -0.95,
                0.99,
                0.01,
                0.1,
                "anchor contamination",
            ),
            Knob::Spread => (
                "judge spread".into(),
                0.0,
                1.0,
                0.05,
                0.2,
                "Test A's violation",
            ),
            Knob::G => (
                "factor g (judges)".into(),
                0.0,
                1.0,
                0.05,
                0.2,
                "second factor on judges; at h = 0 it is s",
            ),
            Knob::H => (
                "factor h (anchors)".into(),
                0.0,
                1.0,
                0.05,
                0.2,
                "g = h is harmless; g ≠ h biases ρ",
            ),
            Knob::Tilt => (
                "anchor tilt".into(),
                0.0,
                1.0,
                0.05,
                0.2,
                "anchor loadings (t, t/2, 0): Test B's target",
            ),
            Knob::Shared => (
                "shared residual s".into(),
                0.0,
                1.0,
                0.05,
                0.2,
                "judges only: factor g at h = 0; a false clean",
            ),
            Knob::SigmaF => ("family σ_f".into(), 0.0, 1.0, 0.05, 0.2, "Test C's target"),
            Knob::N => ("N items".into(), 50.0, 20_000.0, 50.0, 500.0, "sample size"),
            Knob::P => ("p judges".into(), 2.0, 12.0, 1.0, 2.0, "Test A needs 3"),
            Knob::M => ("m anchors".into(), 2.0, 5.0, 1.0, 1.0, "Test B needs 3"),
            Knob::SigmaC2 => ("σ_c²".into(), 0.1, 2.0, 0.05, 0.2, "common-mode variance"),
        };
        Slider {
            knob,
            label,
            value,
            default: value,
            min,
            max,
            fine,
            coarse,
            hint,
        }
    }

    /// Moves by `delta` and clamps to the range, rounding away floating-point dust so that
    /// values stay exactly on the step grid. Returns whether the value changed.
    pub fn nudge(&mut self, delta: f64) -> bool {
        let v = ((self.value + delta) / self.fine).round() * self.fine;
        let v = (v.clamp(self.min, self.max) * 1e9).round() / 1e9;
        let changed = v != self.value;
        self.value = v;
        changed
    }

    /// Position of the value within its range, in [0, 1].
    #[must_use]
    pub fn fraction(&self) -> f64 {
        ((self.value - self.min) / (self.max - self.min)).clamp(0.0, 1.0)
    }
}

/// The simulated scenario behind the sliders: the sliders plus the fixed parts of the design.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub sliders: Vec<Slider>,
    /// Anchor total error SDs (not a slider; scenes set them).
    pub sigma_a: Vec<f64>,
    pub sigma_t2: f64,
    /// The judges' families as the preset or scene gives them (`simulate --preset` writes
    /// the same ones): none for mid, so the explorer's mid has no Test C, as the command's.
    pub families: Families,
}

/// σ_a of an anchor added by the m slider (docs/method.md §4's third anchor).
const EXTRA_SIGMA_A: f64 = 0.7;
/// ρ of an anchor added by the m slider.
const EXTRA_RHO: f64 = 0.5;

impl Default for Scenario {
    /// The paper's base design at N = 500.
    fn default() -> Self {
        Scenario::from_params(&Params::default(), 500)
    }
}

impl Scenario {
    /// Sliders set to the knobs of `params` (its second-factor loadings are read as
    /// uniform g and h, Test A's spread on the first half of the judges, and with ≥ 3 anchors
    /// the tilt (t, t/2, 0, …) on the anchors).
    #[must_use]
    pub fn from_params(params: &Params, n: usize) -> Scenario {
        let v = &params.violations;
        let g = params.g();
        let h = params.h();
        let half = params.p / 2;
        let g_rest = if params.p > half {
            g[params.p - 1]
        } else {
            0.0
        };
        let spread = g.first().copied().unwrap_or(0.0) - g_rest;
        let (h0, tilt) = if h.len() >= 3 {
            (h[2], h[0] - h[2])
        } else {
            (h.first().copied().unwrap_or(0.0), 0.0)
        };
        let mut sliders: Vec<Slider> = params
            .rho
            .iter()
            .enumerate()
            .map(|(k, r)| Slider::new(Knob::Rho(k), *r))
            .collect();
        sliders.extend([
            Slider::new(Knob::Spread, spread.max(0.0)),
            Slider::new(Knob::G, g_rest),
            Slider::new(Knob::H, h0),
            Slider::new(Knob::Tilt, tilt.max(0.0)),
            Slider::new(Knob::Shared, v.shared_residual),
            Slider::new(Knob::SigmaF, v.sigma_f),
            Slider::new(Knob::N, n as f64),
            Slider::new(Knob::P, params.p as f64),
            Slider::new(Knob::M, params.m() as f64),
            Slider::new(Knob::SigmaC2, params.sigma_c2),
        ]);
        Scenario {
            sliders,
            sigma_a: params.sigma_a_full(),
            sigma_t2: params.sigma_t2,
            families: params.violations.families.clone(),
        }
    }

    /// The current value of a knob.
    #[must_use]
    pub fn get(&self, knob: Knob) -> f64 {
        self.sliders
            .iter()
            .find(|s| s.knob == knob)
            .map_or(0.0, |s| s.value)
    }

    /// Sets a knob (clamped), keeping ρ sliders in step with m.
    pub fn set(&mut self, knob: Knob, value: f64) {
        if let Some(i) = self.sliders.iter().position(|s| s.knob == knob) {
            let s = &mut self.sliders[i];
            s.value = value.clamp(s.min, s.max);
        }
        if knob == Knob::M {
            self.sync_anchors();
        }
    }

    /// Moves slider `i` by `delta`; returns whether anything changed.
    pub fn nudge(&mut self, i: usize, delta: f64) -> bool {
        let Some(s) = self.sliders.get_mut(i) else {
            return false;
        };
        let changed = s.nudge(delta);
        if changed && s.knob == Knob::M {
            self.sync_anchors();
        }
        changed
    }

    /// Restores slider `i` to its default.
    pub fn reset(&mut self, i: usize) -> bool {
        let Some(s) = self.sliders.get_mut(i) else {
            return false;
        };
        let changed = s.value != s.default;
        s.value = s.default;
        if changed && s.knob == Knob::M {
            self.sync_anchors();
        }
        changed
    }

    /// Adds or removes ρ sliders (and σ_a entries) so that there are m of them.
    fn sync_anchors(&mut self) {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "m is in 2..=5"
        )]
        let m = self.get(Knob::M).round() as usize;
        let have = self.m_rho();
        if have < m {
            for k in have..m {
                self.sliders.insert(k, Slider::new(Knob::Rho(k), EXTRA_RHO));
                self.sigma_a.push(EXTRA_SIGMA_A);
            }
        } else {
            self.sliders
                .retain(|s| !matches!(s.knob, Knob::Rho(k) if k >= m));
            self.sigma_a.truncate(m);
        }
    }

    fn m_rho(&self) -> usize {
        self.sliders
            .iter()
            .filter(|s| matches!(s.knob, Knob::Rho(_)))
            .count()
    }

    /// N, the number of items.
    #[must_use]
    pub fn n(&self) -> usize {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "N is in 50..=20000"
        )]
        let n = self.get(Knob::N).round() as usize;
        n
    }

    /// The judges the p slider stands at.
    #[must_use]
    pub fn judges(&self) -> usize {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "p is in 2..=12"
        )]
        let p = self.get(Knob::P).round() as usize;
        p
    }

    /// At most three family blocks, and one per judge when fewer than three judges are
    /// left: at every value of the p slider the design stays valid.
    #[must_use]
    pub fn families(&self) -> usize {
        self.judges().min(3)
    }

    /// The model the sliders describe. Families are three blocks (metadata) while p allows,
    /// so the family-blocked estimate and Test C are on show.
    #[must_use]
    pub fn params(&self) -> Params {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "p is in 2..=12"
        )]
        let p = self.get(Knob::P).round() as usize;
        let (spread, g, h) = (self.get(Knob::Spread), self.get(Knob::G), self.get(Knob::H));
        let tilt = self.get(Knob::Tilt);
        let rho: Vec<f64> = self
            .sliders
            .iter()
            .filter_map(|s| match s.knob {
                Knob::Rho(_) => Some(s.value),
                _ => None,
            })
            .collect();
        let m = rho.len();
        let judge_loading = if spread == 0.0 && g == 0.0 {
            Vec::new()
        } else {
            (0..p)
                .map(|j| g + if j < p / 2 { spread } else { 0.0 })
                .collect()
        };
        Params {
            sigma_t2: self.sigma_t2,
            sigma_c2: self.get(Knob::SigmaC2),
            p,
            judge_var: vec![1.0],
            sigma_a: self.sigma_a.clone(),
            rho,
            violations: Violations {
                judge_loading,
                anchor_loading: if h == 0.0 && tilt == 0.0 {
                    Vec::new()
                } else {
                    (0..m)
                        .map(|k| h + tilt * (1.0 - k as f64 / 2.0).max(0.0))
                        .collect()
                },
                shared_residual: self.get(Knob::Shared),
                // A family residual needs families: the σ_f slider moved up on a design
                // without them gives blocks, as `--set sigma_f=…` alone would be refused;
                // blocks never outnumber the judges the p slider leaves.
                families: match &self.families {
                    Families::None if self.get(Knob::SigmaF) > 0.0 => {
                        Families::Blocks(self.families())
                    }
                    Families::Blocks(k) => Families::Blocks((*k).min(self.judges())),
                    f => f.clone(),
                },
                sigma_f: self.get(Knob::SigmaF),
                ..Violations::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_scenario_is_the_base_design() {
        let sc = Scenario::default();
        let pm = sc.params();
        assert_eq!(pm.rho, vec![0.3, 0.7]);
        assert_eq!(pm.p, 6);
        assert_eq!(sc.n(), 500);
        pm.validate().unwrap();
    }

    #[test]
    fn m_slider_adds_and_removes_anchors() {
        let mut sc = Scenario::default();
        sc.set(Knob::M, 4.0);
        assert_eq!(sc.params().rho, vec![0.3, 0.7, 0.5, 0.5]);
        assert_eq!(sc.sigma_a.len(), 4);
        sc.set(Knob::M, 2.0);
        assert_eq!(sc.params().rho, vec![0.3, 0.7]);
    }

    #[test]
    fn nudges_stay_on_grid_and_in_range() {
        let mut s = Slider::new(Knob::Rho(0), 0.3);
        for _ in 0..10 {
            s.nudge(0.01);
        }
        assert_eq!(s.value, 0.4);
        for _ in 0..200 {
            s.nudge(0.1);
        }
        assert_eq!(s.value, 0.99);
    }

    #[test]
    fn tilt_loads_anchors_t_half_t_zero() {
        let mut sc = Scenario::default();
        sc.set(Knob::M, 3.0);
        sc.set(Knob::Tilt, 0.6);
        assert_eq!(sc.params().violations.anchor_loading, vec![0.6, 0.3, 0.0]);
        let back = Scenario::from_params(&sc.params(), 500);
        assert!((back.get(Knob::Tilt) - 0.6).abs() < 1e-12);
    }

    #[test]
    fn params_round_trip_through_sliders() {
        let mut pm = Params::default();
        pm.violations.judge_loading = vec![0.8, 0.8, 0.8, 0.2, 0.2, 0.2];
        pm.violations.anchor_loading = vec![0.4];
        let sc = Scenario::from_params(&pm, 1000);
        assert!((sc.get(Knob::Spread) - 0.6).abs() < 1e-12);
        assert!((sc.get(Knob::G) - 0.2).abs() < 1e-12);
        let back = sc.params();
        for (a, b) in back.g().iter().zip(pm.g()) {
            assert!((a - b).abs() < 1e-12);
        }
    }
}
