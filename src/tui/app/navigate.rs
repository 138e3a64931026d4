//! Moving about the screen: focus, the data cursor, the selected slider, pane and overlay
//! scrolling, clicks and the wheel. Nothing here changes the data.

use super::state::{App, MAX_SCROLL};
use crate::tui::action::{Effect, Pane};

impl App {
    /// `Tab` / `Shift-Tab`, skipping the panes the presentation layout hides.
    pub(super) fn cycle_focus(&mut self, d: i32) -> Vec<Effect> {
        let shown: Vec<Pane> = Pane::ALL
            .into_iter()
            .filter(|p| !self.present || !matches!(p, Pane::Data | Pane::Sliders))
            .collect();
        let i = shown.iter().position(|p| *p == self.focus).unwrap_or(0);
        let n = shown.len();
        let j = if d > 0 { (i + 1) % n } else { (i + n - 1) % n };
        self.focus = shown[j];
        Vec::new()
    }

    pub(super) fn move_cursor(&mut self, d: i32) -> Vec<Effect> {
        if self.overlay.is_box() {
            // The view clamps the offset to the overlay's content.
            let next = i64::from(self.overlay_scroll) + i64::from(d.clamp(-1000, 1000));
            let end = i64::from(self.overlay_end.get().min(MAX_SCROLL));
            self.overlay_scroll = u16::try_from(next.clamp(0, end)).unwrap_or(0);
            return Vec::new();
        }
        match self.focus {
            // On a file's family of ρ the one slider moves with h/l, and j/k scroll the pane.
            Pane::Sliders if !self.family_shown() => self.select_slider(d),
            Pane::Data => {
                let len = self.entries.len() + self.file_columns();
                self.cursor = step_index(self.cursor, d, len);
                Vec::new()
            }
            p => {
                // The view clamps the offset to the pane's content.
                let next = i64::from(self.scroll[p]) + i64::from(d.clamp(-1000, 1000));
                let end = i64::from(self.scroll_end[p].get().min(MAX_SCROLL));
                self.scroll[p] = u16::try_from(next.clamp(0, end)).unwrap_or(0);
                Vec::new()
            }
        }
    }

    /// `g` / `Home`: the first item; in the data pane with a file open, the file's first
    /// column (where `Space` and `c` act), and from there the top of the list.
    pub(super) fn top(&mut self) -> Vec<Effect> {
        let first_column = self.entries.len();
        let on_file = self.focus == Pane::Data
            && !self.overlay.is_box()
            && self.file_columns() > 0
            && self.cursor > first_column;
        if on_file {
            self.cursor = first_column;
            self.status = "first column: g again goes to the presets".into();
            return Vec::new();
        }
        self.move_cursor(i32::MIN / 2)
    }

    /// A click: focus the pane and select the slider or data-pane entry under the pointer.
    pub(super) fn click(&mut self, pane: Pane, item: Option<usize>) -> Vec<Effect> {
        self.focus = pane;
        match (pane, item) {
            (Pane::Sliders, Some(i)) if i < self.scenario.sliders.len() => self.selected = i,
            (Pane::Data, Some(i)) if i < self.entries.len() + self.file_columns() => {
                self.cursor = i;
            }
            _ => {}
        }
        Vec::new()
    }

    /// The wheel steps the slider under it, moves the data cursor, or scrolls a pane.
    pub(super) fn wheel(&mut self, pane: Pane, up: bool) -> Vec<Effect> {
        let d = if up { -1 } else { 1 };
        match pane {
            Pane::Sliders => self.nudge(f64::from(-d), false),
            p => {
                let focus = std::mem::replace(&mut self.focus, p);
                let effects = self.move_cursor(d);
                self.focus = focus;
                effects
            }
        }
    }

    pub(super) fn select_slider(&mut self, d: i32) -> Vec<Effect> {
        if self.family_slider() {
            self.status = super::trust::ONE_SLIDER.into();
            return Vec::new();
        }
        if self.source != super::Source::Scenario {
            self.status = super::simulated::SLIDERS_IDLE.into();
            return Vec::new();
        }
        self.selected = step_index(self.selected, d, self.scenario.sliders.len());
        Vec::new()
    }

    /// A key of another pane: the status names every pane where it acts and how to get there.
    pub(super) fn elsewhere(&mut self, keys: &'static str, pane: Pane) -> Vec<Effect> {
        let mut panes = crate::tui::keymap::panes_of(keys);
        if !panes.contains(&pane) {
            panes.insert(0, pane);
        }
        let how = |p: Pane| {
            if self.hidden(p) {
                "v shows it".to_string()
            } else {
                format!("{} focuses it", &p.title()[..1])
            }
        };
        let named: Vec<String> = panes
            .iter()
            .map(|&p| format!("the {} pane", p.title()[2..].to_lowercase()))
            .collect();
        self.status = if let [one] = panes.as_slice() {
            format!("{keys} acts in {}: {}", named[0], how(*one))
        } else {
            let each: Vec<String> = panes
                .iter()
                .zip(&named)
                .map(|(&p, n)| format!("{n} ({})", how(p)))
                .collect();
            format!("{keys} acts in {}", each.join(" and "))
        };
        Vec::new()
    }
}

/// `i` moved by `d` within `0..len`.
pub(super) fn step_index(i: usize, d: i32, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    #[expect(
        clippy::cast_possible_wrap,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "lists are short"
    )]
    let j = (i as i64 + i64::from(d)).clamp(0, len as i64 - 1) as usize;
    j
}
