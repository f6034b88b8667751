//! Small widgets the views share: forms with the label before the control
//! (and the unit, range and meaning in the label's tooltip), number fields
//! in one format per unit, text fields that commit on Enter, combo boxes
//! over names.

use eframe::egui::{self, DragValue, Response, RichText, Ui};

/// A two-column form: a label (with a tooltip), then its control.
pub struct Form<'u> {
    ui: &'u mut Ui,
}

/// Lays out `add`'s rows as a form with id `id`.
pub fn form<R>(ui: &mut Ui, id: impl egui::AsIdSalt, add: impl FnOnce(&mut Form<'_>) -> R) -> R {
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([10.0, 6.0])
        .min_col_width(84.0)
        .show(ui, |ui| add(&mut Form { ui }))
        .inner
}

impl Form<'_> {
    /// A row: `label` (hover: `help`), then what `add` puts there (on one
    /// line).
    pub fn row<R>(&mut self, label: &str, help: &str, add: impl FnOnce(&mut Ui) -> R) -> R {
        let l = self.ui.label(label);
        if !help.is_empty() {
            l.on_hover_text(help);
        }
        let r = self.ui.horizontal(add).inner;
        self.ui.end_row();
        r
    }

    /// A row whose control is one widget, labelled by the row's label.
    pub fn field(
        &mut self,
        label: &str,
        help: &str,
        add: impl FnOnce(&mut Ui) -> Response,
    ) -> Response {
        let l = self.ui.label(label);
        if !help.is_empty() {
            l.clone().on_hover_text(help);
        }
        let r = add(self.ui).labelled_by(l.id);
        let r = if help.is_empty() {
            r
        } else {
            r.on_hover_text(help)
        };
        self.ui.end_row();
        r
    }

    /// A heading spanning the row.
    pub fn heading(&mut self, text: &str) {
        self.ui.label(RichText::new(text).strong());
        self.ui.end_row();
    }

    /// The form's `Ui`, for a row built by hand (end it with
    /// `end_row`).
    pub fn ui(&mut self) -> &mut Ui {
        self.ui
    }
}

/// A number in world units (`12.5 u`), dragged in steps of `speed`.
pub fn distance(value: &mut f32, range: std::ops::RangeInclusive<f32>) -> DragValue<'_> {
    DragValue::new(value)
        .range(range)
        .clamp_existing_to_range(false)
        .speed(0.05)
        .fixed_decimals(2)
        .suffix(crate::model::units::DISTANCE)
}

/// A speed in world units per second.
pub fn speed(value: &mut f32, range: std::ops::RangeInclusive<f32>) -> DragValue<'_> {
    DragValue::new(value)
        .range(range)
        .clamp_existing_to_range(false)
        .speed(0.02)
        .fixed_decimals(2)
        .suffix(crate::model::units::SPEED)
}

/// A duration in seconds.
pub fn seconds(value: &mut f32, range: std::ops::RangeInclusive<f32>) -> DragValue<'_> {
    DragValue::new(value)
        .range(range)
        .clamp_existing_to_range(false)
        .speed(0.02)
        .fixed_decimals(2)
        .suffix(crate::model::units::SECONDS)
}

/// An angle in degrees.
pub fn angle(value: &mut f32, range: std::ops::RangeInclusive<f32>) -> DragValue<'_> {
    DragValue::new(value)
        .range(range)
        .clamp_existing_to_range(false)
        .speed(0.5)
        .fixed_decimals(0)
        .suffix(crate::model::units::ANGLE)
}

/// A plain number with `decimals` decimals.
pub fn number(
    value: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    decimals: usize,
) -> DragValue<'_> {
    DragValue::new(value)
        .range(range)
        .clamp_existing_to_range(false)
        .speed(0.05)
        .fixed_decimals(decimals)
}

/// A percentage in [0, 100].
pub fn percent(value: &mut f32) -> DragValue<'_> {
    DragValue::new(value)
        .range(0.0..=100.0)
        .clamp_existing_to_range(false)
        .speed(0.2)
        .fixed_decimals(0)
        .suffix(crate::model::units::PERCENT)
}

/// A whole number of ticks.
pub fn ticks(value: &mut u32) -> DragValue<'_> {
    DragValue::new(value)
        .range(0..=1_000_000)
        .clamp_existing_to_range(false)
        .speed(0.2)
        .suffix(crate::model::units::TICKS)
}

/// X, Y and Z fields of a position in world units.
pub fn xyz(ui: &mut Ui, v: &mut (f32, f32, f32)) -> Response {
    let x = ui.add(
        DragValue::new(&mut v.0)
            .speed(0.1)
            .fixed_decimals(1)
            .prefix("x "),
    );
    let y = ui.add(
        DragValue::new(&mut v.1)
            .speed(0.1)
            .fixed_decimals(1)
            .prefix("y "),
    );
    let z = ui.add(
        DragValue::new(&mut v.2)
            .speed(0.1)
            .fixed_decimals(1)
            .prefix("z "),
    );
    x | y | z
}

/// X and Z fields of a point of the X-Z plane in world units.
pub fn xz(ui: &mut Ui, v: &mut (f32, f32)) -> Response {
    let x = ui.add(
        DragValue::new(&mut v.0)
            .speed(0.1)
            .fixed_decimals(1)
            .prefix("x "),
    );
    let z = ui.add(
        DragValue::new(&mut v.1)
            .speed(0.1)
            .fixed_decimals(1)
            .prefix("z "),
    );
    x | z
}

/// Tells when a tab comes into view, so its text field can take the
/// keyboard as the tab opens.
#[derive(Debug, Default)]
pub struct Opened {
    last_frame: Option<u64>,
}

impl Opened {
    /// Whether the tab drawn now was not drawn in the previous frame (it
    /// was opened); not for a tab shown as the editor starts.
    pub fn now(&mut self, ui: &Ui) -> bool {
        let frame = ui.ctx().cumulative_frame_nr();
        let opened = match self.last_frame {
            Some(f) => f + 1 < frame,
            None => frame > 3,
        };
        self.last_frame = Some(frame);
        opened
    }
}

/// A single-line text field, `width` points wide.
pub fn text<'t>(value: &'t mut String, width: f32) -> egui::TextEdit<'t> {
    egui::TextEdit::singleline(value).desired_width(width)
}

/// A combo box over `options` choosing `value`; `none` (when given) is the
/// label of the empty choice. Returns whether the value changed.
pub fn choose(
    ui: &mut Ui,
    id: impl egui::AsIdSalt,
    value: &mut String,
    options: &[String],
    none: Option<&str>,
) -> Response {
    let shown = if value.is_empty() {
        none.unwrap_or("-").to_owned()
    } else {
        value.clone()
    };
    let mut changed = false;
    let mut r = egui::ComboBox::from_id_salt(id)
        .selected_text(shown)
        .width(150.0)
        .show_ui(ui, |ui| {
            if let Some(none) = none {
                changed |= ui.selectable_value(value, String::new(), none).changed();
            }
            for o in options {
                changed |= ui.selectable_value(value, o.clone(), o).changed();
            }
        })
        .response;
    if changed {
        r.mark_changed();
    }
    r
}

/// A weak line of help.
pub fn hint(ui: &mut Ui, text: impl Into<String>) {
    ui.label(RichText::new(text.into()).weak());
}
