//! Python's names for settings: the keyword arguments that change them.

use std::borrow::Cow;

use crate::wording::{Setting, Wording};

/// Settings named as the Python package's keyword arguments (`anchors=`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Keywords;

impl Wording for Keywords {
    fn setting(&self, setting: Setting) -> Cow<'static, str> {
        Cow::Borrowed(match setting {
            Setting::Judges => "judges=",
            Setting::Anchors => "anchors=",
            Setting::SetAside => "set_aside=",
            Setting::Id => "id=",
            Setting::Long => "long=",
            Setting::Families => "families=",
            Setting::Continuous => "continuous=",
            Setting::Ordinal => "leaving it out of continuous=",
            Setting::FreeScale => "method=\"free-scale\"",
            Setting::DesignatedClean => "designated_clean=",
            Setting::CodesAsNumbers => "codes_as_numbers=True",
            Setting::BiasCorrect => "bias_correct=True",
            Setting::FailOnDiagnostic => "fail_on_diagnostic=True",
        })
    }
}
