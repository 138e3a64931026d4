//! The house style of every figure: slide-sized (1280×720), large type for a projector, the
//! Okabe–Ito colour-blind-safe palette, and every series told apart twice, by colour and by
//! marker or dash, so a figure survives a greyscale printer and colour-blind readers.

use super::PlotError;
use plotters::coord::CoordTranslate;
use plotters::coord::Shift;
use plotters::element::{DashedPathElement, PathElement};
use plotters::prelude::*;

/// Width and height of every figure, in SVG pixels (16:9, a slide).
pub const SIZE: (u32, u32) = (1280, 720);
/// Font sizes: the title, axis descriptions and legend, and tick labels.
pub const TITLE: u32 = 34;
pub const LABEL: u32 = 26;
pub const TICK: u32 = 22;
/// Line width of every series.
pub const STROKE: u32 = 3;
/// The font family named in the SVG (the viewer chooses the face; no font file is read).
pub const FONT: &str = "sans-serif";

/// Okabe & Ito (2008): orange, blue, bluish green, vermilion, reddish purple, sky blue.
/// Yellow is left out: it vanishes on a white slide.
pub const PALETTE: [RGBColor; 6] = [
    RGBColor(230, 159, 0),
    RGBColor(0, 114, 178),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
];
/// The truth and reference lines.
pub const INK: RGBColor = RGBColor(0, 0, 0);
pub const GREY: RGBColor = RGBColor(150, 150, 150);

/// The colour of series `i`.
#[must_use]
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A marker shape; series `i` takes `Marker::of(i)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    InvertedTriangle,
    Cross,
}

impl Marker {
    #[must_use]
    pub fn of(i: usize) -> Marker {
        const ALL: [Marker; 6] = [
            Marker::Circle,
            Marker::Square,
            Marker::Triangle,
            Marker::Diamond,
            Marker::InvertedTriangle,
            Marker::Cross,
        ];
        ALL[i % ALL.len()]
    }

    /// The outline of the marker `r` pixels across its half-width, as pixel offsets (`None`
    /// for the circle and the cross, drawn otherwise).
    fn outline(self, r: i32) -> Option<Vec<(i32, i32)>> {
        match self {
            Marker::Circle | Marker::Cross => None,
            Marker::Square => Some(vec![(-r, -r), (r, -r), (r, r), (-r, r)]),
            Marker::Triangle => Some(vec![(0, -r - 2), (r + 2, r), (-r - 2, r)]),
            Marker::InvertedTriangle => Some(vec![(0, r + 2), (r + 2, -r), (-r - 2, -r)]),
            Marker::Diamond => Some(vec![(0, -r - 2), (r + 2, 0), (0, r + 2), (-r - 2, 0)]),
        }
    }
}

/// Draws `marker` at `at` (data coordinates) on a chart; a hollow marker (`filled` false)
/// draws its outline only.
///
/// # Errors
/// A drawing error of the backend.
pub fn marker<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    marker: Marker,
    at: (f64, f64),
    r: i32,
    colour: RGBColor,
    filled: bool,
) -> Result<(), PlotError>
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let fill = if filled {
        colour.filled()
    } else {
        colour.stroke_width(STROKE)
    };
    let line = colour.stroke_width(STROKE);
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    match (marker, marker.outline(r)) {
        (Marker::Circle, _) => chart
            .draw_series(std::iter::once(
                EmptyElement::at(at) + Circle::new((0, 0), r, fill),
            ))
            .map(|_| ())
            .map_err(e),
        (_, Some(pts)) if filled => chart
            .draw_series(std::iter::once(
                EmptyElement::at(at) + Polygon::new(pts, fill),
            ))
            .map(|_| ())
            .map_err(e),
        (_, Some(mut pts)) => {
            pts.push(pts[0]);
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at(at) + PathElement::new(pts, line),
                ))
                .map(|_| ())
                .map_err(e)
        }
        (_, None) => chart
            .draw_series(std::iter::once(
                EmptyElement::at(at)
                    + PathElement::new(vec![(-r, -r), (r, r)], line)
                    + PathElement::new(vec![(-r, r), (r, -r)], line),
            ))
            .map(|_| ())
            .map_err(e),
    }
}

/// Draws `marker` centred on pixel `at` of an area (legends).
///
/// # Errors
/// A drawing error of the backend.
pub fn marker_px<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    marker: Marker,
    (x, y): (i32, i32),
    colour: RGBColor,
) -> Result<(), PlotError> {
    let r = 7;
    let fill = colour.filled();
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    match marker.outline(r) {
        Some(pts) => {
            let pts: Vec<(i32, i32)> = pts.into_iter().map(|(a, b)| (x + a, y + b)).collect();
            area.draw(&Polygon::new(pts, fill)).map_err(e)
        }
        None if marker == Marker::Circle => area.draw(&Circle::new((x, y), r, fill)).map_err(e),
        None => {
            let line = colour.stroke_width(STROKE);
            area.draw(&PathElement::new(
                vec![(x - r, y - r), (x + r, y + r)],
                line,
            ))
            .map_err(e)?;
            area.draw(&PathElement::new(
                vec![(x - r, y + r), (x + r, y - r)],
                line,
            ))
            .map_err(e)
        }
    }
}

/// A line pattern; series `i` takes `Dash::of(i)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
    LongDash,
}

impl Dash {
    #[must_use]
    pub fn of(i: usize) -> Dash {
        [Dash::Solid, Dash::Dashed, Dash::Dotted, Dash::LongDash][i % 4]
    }

    /// Dash and gap lengths in pixels (`None`: solid).
    fn pattern(self) -> Option<(i32, i32)> {
        match self {
            Dash::Solid => None,
            Dash::Dashed => Some((14, 8)),
            Dash::Dotted => Some((3, 7)),
            Dash::LongDash => Some((28, 10)),
        }
    }
}

/// Draws a polyline in `dash` on a chart.
///
/// # Errors
/// A drawing error of the backend.
pub fn path<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    dash: Dash,
    points: Vec<(f64, f64)>,
    style: ShapeStyle,
) -> Result<(), PlotError>
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    match dash.pattern() {
        None => chart
            .draw_series(std::iter::once(PathElement::new(points, style)))
            .map(|_| ())
            .map_err(e),
        Some((size, gap)) => chart
            .draw_series(std::iter::once(DashedPathElement::new(
                points, size, gap, style,
            )))
            .map(|_| ())
            .map_err(e),
    }
}

/// Draws a 36-pixel legend sample of `dash` from pixel `(x, y)` of an area.
///
/// # Errors
/// A drawing error of the backend.
pub fn dash_px<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    dash: Dash,
    (x, y): (i32, i32),
    style: ShapeStyle,
) -> Result<(), PlotError> {
    let points = vec![(x, y), (x + 36, y)];
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    match dash.pattern() {
        None => area.draw(&PathElement::new(points, style)).map_err(e),
        Some((size, gap)) => area
            .draw(&DashedPathElement::new(
                points,
                size.min(10),
                gap.min(5),
                style,
            ))
            .map_err(e),
    }
}

/// A text style at `size` points in [`FONT`].
#[must_use]
pub fn font(size: u32) -> TextStyle<'static> {
    (FONT, f64::from(size)).into_font().into()
}

/// Fills the canvas white and writes the title across the top; returns the area below it.
///
/// # Errors
/// A drawing error of the backend.
pub fn canvas<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<DrawingArea<DB, Shift>, PlotError> {
    root.fill(&WHITE)
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    root.titled(title, font(TITLE))
        .map_err(|e| PlotError::Draw(e.to_string()))
}

/// A footnote along the bottom edge of the canvas (what a reader needs to read the figure).
///
/// # Errors
/// A drawing error of the backend.
pub fn footnote<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
) -> Result<(), PlotError> {
    if text.is_empty() {
        return Ok(());
    }
    let (_, h) = root.dim_in_pixel();
    root.draw(&Text::new(
        text.to_string(),
        (16, i32::try_from(h).unwrap_or(720) - 30),
        font(TICK).color(&RGBColor(60, 60, 60)),
    ))
    .map_err(|e| PlotError::Draw(e.to_string()))
}

/// The histogram bin of `v` among `bins` bins of `width` from `lo` (`None` outside).
#[must_use]
pub fn bin(v: f64, lo: f64, width: f64, bins: usize) -> Option<usize> {
    let b = ((v - lo) / width).floor();
    // In range, so the cast neither truncates nor loses a sign.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (b >= 0.0 && b < bins as f64).then_some(b as usize)
}

/// The category whose centre `x` is (integer positions 0, 1, …), if it is one.
#[must_use]
pub fn category(x: f64, count: usize) -> Option<usize> {
    let k = x.round();
    if (x - k).abs() < 1e-6 {
        bin(k, 0.0, 1.0, count)
    } else {
        None
    }
}

/// The range `[lo, hi]` padded by `pad` of its width on each side (a unit range if empty).
#[must_use]
pub fn padded(lo: f64, hi: f64, pad: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        let c = if lo.is_finite() { lo } else { 0.0 };
        return (c - 0.5, c + 0.5);
    }
    let w = hi - lo;
    (lo - pad * w, hi + pad * w)
}

/// One tick format for a whole axis over `[lo, hi]` (never "0.000" beside "5.00e-4"): fixed
/// decimals enough to tell ticks about a quarter of the range apart, or scientific notation
/// for every tick when the values are all tiny or huge.
pub fn tick_format(lo: f64, hi: f64) -> impl Fn(&f64) -> String {
    let span = (hi - lo).abs();
    let step = if span > 0.0 && span.is_finite() {
        span / 4.0
    } else {
        1.0
    };
    let big = lo.abs().max(hi.abs());
    let scientific = big >= 1e5 || (big > 0.0 && big < 1e-2);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to 0..=6 first"
    )]
    let decimals = (-step.log10().floor()).clamp(0.0, 6.0) as usize;
    move |x: &f64| {
        // A tick at zero reached through rounding is shown as 0, not -0.
        let x = if x.abs() < step * 1e-9 { 0.0 } else { *x };
        if scientific && x != 0.0 {
            format!("{x:.1e}")
        } else if scientific {
            "0".into()
        } else {
            format!("{x:.decimals$}")
        }
    }
}

/// `count` panels of equal size in a balanced grid on `area` (at most `max_cols` a row), the
/// last row's panels centred, so no row is mostly empty.
#[must_use]
pub fn grid<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    count: usize,
    max_cols: usize,
) -> Vec<DrawingArea<DB, Shift>> {
    if count == 0 {
        return Vec::new();
    }
    let rows = count.div_ceil(max_cols.max(1));
    let cols = count.div_ceil(rows);
    let mut out = Vec::with_capacity(count);
    for (r, row) in area.split_evenly((rows, 1)).into_iter().enumerate() {
        let here = (count - r * cols).min(cols);
        let width = row.dim_in_pixel().0;
        let empty = (cols - here) as u64;
        let side = i32::try_from(u64::from(width) * empty / cols as u64 / 2).unwrap_or(0);
        let row = row.margin(0, 0, side, side);
        out.extend(row.split_evenly((1, here)));
    }
    out
}

/// One entry of a legend strip: label, colour, dash and marker.
pub struct Entry {
    pub label: String,
    pub colour: RGBColor,
    pub dash: Option<Dash>,
    pub marker: Option<Marker>,
}

/// A legend laid out in a row along the top of `area` (for figures of several panels, where
/// a legend inside one panel would cover its data).
///
/// # Errors
/// A drawing error of the backend.
pub fn legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
) -> Result<(), PlotError> {
    let mut x = 24;
    let y = 18;
    for e in entries {
        let line = e.colour.stroke_width(STROKE);
        if let Some(d) = e.dash {
            dash_px(area, d, (x, y), line)?;
        }
        if let Some(m) = e.marker {
            marker_px(area, m, (x + 18, y), e.colour)?;
        }
        area.draw(&Text::new(e.label.clone(), (x + 46, y - 11), font(TICK)))
            .map_err(|e| PlotError::Draw(e.to_string()))?;
        // The naive layout's width estimate, as the plotters legend uses.
        let w = area
            .estimate_text_size(&e.label, &font(TICK))
            .map_or(200, |(w, _)| i32::try_from(w).unwrap_or(200));
        x += 46 + w + 30;
    }
    Ok(())
}

/// A legend laid out as a column down `area` (beside a single chart); labels longer than
/// the column wraps onto further lines.
///
/// # Errors
/// A drawing error of the backend.
pub fn legend_column<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
) -> Result<(), PlotError> {
    let x = 12;
    let room = area.dim_in_pixel().0.saturating_sub(70);
    let mut y = 60;
    for e in entries {
        let line = e.colour.stroke_width(STROKE);
        if let Some(d) = e.dash {
            dash_px(area, d, (x, y), line)?;
        }
        if let Some(m) = e.marker {
            marker_px(area, m, (x + 18, y), e.colour)?;
        }
        for text in wrap(area, &e.label, room) {
            area.draw(&Text::new(text, (x + 46, y - 11), font(TICK)))
                .map_err(|e| PlotError::Draw(e.to_string()))?;
            y += 30;
        }
        y += 14;
    }
    Ok(())
}

/// `label` broken at spaces into lines at most `room` pixels wide (by the naive layout).
fn wrap<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, label: &str, room: u32) -> Vec<String> {
    let fits = |s: &str| {
        area.estimate_text_size(s, &font(TICK))
            .map_or(true, |(w, _)| w <= room)
    };
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in label.split(' ') {
        let next = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if fits(&next) || cur.is_empty() {
            cur = next;
        } else {
            lines.push(std::mem::replace(&mut cur, format!("  {word}")));
        }
    }
    lines.push(cur);
    lines
}
