//! Talk mode: scenes that each set the sliders (or load the real HANNA panel) and carry a
//! two-line caption. Every scene has a fixed seed, so it always shows the same numbers.

use std::path::{Path, PathBuf};

use crate::model::{Families, Params};

/// What a scene puts on screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Setup {
    /// A simulated scenario.
    Simulated {
        params: Box<Params>,
        n: usize,
        seed: u64,
    },
    /// A simulated panel with Likert anchors, with the family of worlds its latent
    /// correlations allow (the estimates pane shows two of them).
    Worlds {
        params: Box<Params>,
        n: usize,
        seed: u64,
    },
    /// The real HANNA coherence panel (three raters as judges), when its file is at hand.
    Hanna,
}

/// One scene of the talk.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    pub title: &'static str,
    pub caption: [&'static str; 2],
    pub setup: Setup,
    /// The comparison the caption is about, shown first under the anchors so that it is on
    /// screen at 80×24.
    pub point: Option<crate::estimate::Estimator>,
}

/// The HANNA raters forming the paper's 431-story panel.
pub const HANNA_RATERS: [&str; 3] = ["A1IZ4NX41GKU4X", "A2VE5IV9OD2SK1", "A3CFNUD7VR2E1E"];
/// The wide HANNA panel's file name.
pub const HANNA_FILE: &str = "hanna_coherence_panel.csv";

/// Where the HANNA panel is: the given path (a file, or a folder holding it), else the
/// shared data folder beside the working directory, if present.
#[must_use]
pub fn find_hanna(given: Option<&Path>) -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match given {
        Some(p) => vec![p.to_path_buf(), p.join(HANNA_FILE)],
        None => vec![PathBuf::from("../shared/data/hanna").join(HANNA_FILE)],
    };
    candidates.into_iter().find(|p| p.is_file())
}

fn base() -> Params {
    let mut pm = Params::default();
    pm.violations.families = Families::Blocks(3);
    pm
}

/// The simulated designs of scenes 2–8, in talk order (scene 9's is [`likert_anchors`]).
fn designs() -> [Params; 7] {
    let mut boundary = base();
    boundary.rho = vec![0.99, 0.5];
    boundary.sigma_a = vec![0.9, 0.6];
    let mut uniform = base();
    uniform.violations.judge_loading = vec![0.6];
    uniform.violations.anchor_loading = vec![0.6];
    // Asymmetry across the anchors. (A factor on the judges alone is algebraically a shared
    // judge residual, the blind spot of a later scene.)
    let mut asym = base().with_third_anchor();
    asym.violations.anchor_loading = vec![0.6, 0.3, 0.0];
    let mut spread = base();
    spread.violations.judge_loading = vec![0.6, 0.6, 0.6, 0.0, 0.0, 0.0];
    let mut shared = base().with_third_anchor();
    shared.violations.shared_residual = 0.6;
    let mut family = base();
    family.violations.sigma_f = 0.7;
    let mut clean = base();
    clean.rho = vec![0.6, 0.5];
    clean.sigma_a = vec![0.5, 0.6];
    [boundary, uniform, asym, spread, shared, family, clean]
}

/// Three five-level anchors, A1 clean, under continuous judges (docs/method.md §7b).
fn likert_anchors() -> Params {
    let mut pm = base().with_third_anchor();
    pm.rho = vec![0.0, 0.5, 0.3];
    pm.violations.ordinal = (pm.p..pm.p + 3)
        .map(|k| (k, crate::model::Discretise::equal_probability(5)))
        .collect();
    pm
}

/// A simulated scene's setup at the talks' seed.
fn sim(params: Params, n: usize) -> Setup {
    Setup::Simulated {
        params: Box::new(params),
        n,
        seed: 2026,
    }
}

/// The scenes, in talk order.
#[must_use]
pub fn scenes() -> Vec<Scene> {
    let [boundary, uniform, asym, spread, shared, family, clean] = designs();
    vec![
        Scene {
            title: "Clean recovery",
            caption: [
                "Six judges, two anchors: the closed form, which trusts no anchor, recovers both ρ (true values ◆).",
                "Intervals cover the truth, the denominator is far from zero, and no test fires.",
            ],
            setup: sim(base(), 2000),
            point: None,
        },
        Scene {
            title: "Approaching the boundary",
            caption: [
                "ρ_1 = 0.99 puts β_1 next to σ_c²: the denominator of Theorem 1 nearly vanishes (Corollary 1).",
                "Here the fit leaves the admissible range (σ̂_c² < 0, den -0.001): every ρ̂ is undefined and the range check fires, so no point or interval is reported.",
            ],
            setup: sim(boundary, 2000),
            point: None,
        },
        Scene {
            title: "A uniform second factor",
            caption: [
                "A second factor loads 0.6 on every judge and every anchor: ρ stays unbiased, and σ̂_t² absorbs it (1.370 against the true 1.00).",
                "Nothing fires, and nothing needs to: this blind spot is harmless for ρ (Proposition 1).",
            ],
            setup: sim(uniform, 2000),
            point: None,
        },
        Scene {
            title: "An asymmetric second factor",
            caption: [
                "A second factor loads unevenly on the anchors (0.6, 0.3, 0) and not on the judges: ρ̂ is biased.",
                "With three anchors the pairs disagree about σ_t²: Test B fires (Section 5), and Test O, its free-scale twin.",
            ],
            setup: sim(asym, 2000),
            point: None,
        },
        Scene {
            title: "Non-uniform judge loadings",
            caption: [
                "Half the judges load 0.6 on a second factor: the judge covariances spread apart.",
                "Tests A and C fire (two loaded judges share a family), and Test J: free judge scales cannot absorb it either, so no estimate here holds.",
            ],
            setup: sim(spread, 2000),
            point: None,
        },
        Scene {
            title: "A shared judge residual",
            caption: [
                "A residual shared by every judge (one base model, one template) pulls the closed form's ρ̂ toward \"clean\" (0.612 against the true 0.70).",
                "Tests A and B stay quiet: a false clean that a uniform residual hides from every test.",
            ],
            setup: sim(shared, 2000),
            point: None,
        },
        Scene {
            title: "Family blocking",
            caption: [
                "If the residual is family-level instead, judges within a family covary more: Test C fires, and Test J with it.",
                "The family-blocked estimate takes K from cross-family pairs only: it removes that pull (ρ̂_2 0.700, the true 0.70; the closed form's line below still reads the pulled value).",
            ],
            // Seed 2032 draws a panel whose naive and blocked ρ̂_2 sit on their population
            // values (0.654 and 0.700), so the screen shows the caption's shift.
            setup: Setup::Simulated {
                params: Box::new(family),
                n: 4000,
                seed: 2032,
            },
            point: Some(crate::estimate::Estimator::Blocked),
        },
        Scene {
            title: "A designated clean anchor that is not clean",
            caption: [
                "Trusting A1 as clean (CT-C(M−1)-style) while ρ_1 = 0.6 reports A2 as clean: ρ̂_2 = -0.072 on the designated-clean line.",
                "The closed form trusts no anchor and stays near the true 0.5 (ρ̂_2 0.490).",
            ],
            setup: sim(clean, 4000),
            point: Some(crate::estimate::Estimator::DesignatedClean),
        },
        two_worlds(),
        Scene {
            title: "A real panel: HANNA",
            caption: [
                "Three human raters, 431 stories, coherence 1–5 (HANNA), codes scored continuous.",
                "Test A fires (0.589, p = 0.001): real raters violate the equal-loading structure.",
            ],
            setup: Setup::Hanna,
            point: None,
        },
    ]
}

/// The scene of two worlds Likert anchors cannot tell apart (docs/method.md §7b).
fn two_worlds() -> Scene {
    Scene {
        title: "Two worlds the data cannot tell apart",
        caption: [
            "Five-level anchors share no scale with the judges: only their latent correlations are seen, and the two worlds in the estimates pane give the same ones.",
            "In one A1 is clean, in the other A2: the data cannot say which, so ρ is a family, not a point; only an assumption (one anchor trusted as clean) picks the world.",
        ],
        setup: Setup::Worlds {
            params: Box::new(likert_anchors()),
            n: 4000,
            seed: 2026,
        },
        point: None,
    }
}

/// The caption shown when the HANNA file is not at hand.
pub const HANNA_MISSING: [&str; 2] = [
    "The HANNA panel is not at hand: press o and type the path of hanna_coherence_panel.csv or its folder (from dig-team/hanna-benchmark-asg).",
    "A talk run from beside ../shared/data/hanna finds it itself.",
];
