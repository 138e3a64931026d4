//! One file per pane; each draws into its area from the state and never fails, at any size.

pub mod battery;
pub mod config;
pub mod data;
pub mod detail;
pub mod estimates;
pub mod help;
pub mod sliders;
pub mod validation;
