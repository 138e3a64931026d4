//! The explorer's arguments: `explore` on a file or scenario, `demo` for talks.

use std::path::PathBuf;

use clap::Args;

use super::panel::PanelOptions;

pub(super) const EXPLORE_HELP: &str = "\
Keys: ? shows them all. q quits, Tab/1–5 move focus, h/l/H/L move the selected slider,
[ ] select a slider, n/p step through the walkthrough (with a file) or the talk scenes.

Worked example:
  rhoscope explore                          # the base design, N = 500
  rhoscope explore assets/families.csv      # a panel file, then n to walk through it";

pub(super) const DEMO_HELP: &str = "\
Scenes: clean recovery; the boundary; a uniform second factor; an asymmetric one;
non-uniform judge loadings; a shared judge residual; family blocking; a designated clean
anchor that is not clean; two worlds Likert anchors cannot tell apart; the real HANNA panel
(with --hanna PATH or ../shared/data/hanna).
n / p step, f freezes the screen, q quits. Every scene shows the same numbers every time.

Worked example:
  rhoscope demo --no-mouse --hanna ../shared/data/hanna";

#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// Panel file to open (default: the simulated base design).
    pub panel: Option<PathBuf>,
    #[command(flatten)]
    pub opts: PanelOptions,
    /// Do not capture the mouse (for presenters).
    #[arg(long)]
    pub no_mouse: bool,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// The HANNA coherence panel (file, or the folder holding hanna_coherence_panel.csv).
    #[arg(long, value_name = "PATH")]
    pub hanna: Option<PathBuf>,
    /// Do not capture the mouse (for presenters).
    #[arg(long)]
    pub no_mouse: bool,
    /// Start at scene N (1-based), e.g. to restart a talk where it stopped.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::values::scene())]
    pub scene: u16,
}
