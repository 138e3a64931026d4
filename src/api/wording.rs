//! Python's names for settings: the keyword arguments that change them.

use std::borrow::Cow;

use crate::wording::{RunSetting, Setting, Wording};

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
            // No keyword marks a column ordinal: say when a column is read as one instead.
            Setting::Ordinal => {
                "a column is read as ordinal only when its values are integer codes with ≤ 10 levels and it is not named in continuous="
            }
            Setting::FreeScale => "method=\"free-scale\"",
            Setting::DesignatedClean => "designated_clean=",
            Setting::CodesAsNumbers => "codes_as_numbers=True",
            Setting::BiasCorrect => "bias_correct=True",
            Setting::FailOnDiagnostic => "fail_on_diagnostic=True",
            Setting::Target => "target=",
            Setting::Inject => "inject=",
            Setting::Force => "force=True",
            Setting::Scenario => "preset= and the scenario's keyword arguments",
        })
    }

    /// The keyword argument as Python code: `anchors=["A1", "A2"]`.
    fn given(&self, setting: Setting, values: &[String]) -> String {
        let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
        match setting {
            Setting::Families => {
                "families={\"JUDGE\": \"FAMILY\", …} (or a Series, a two-column frame, a path)"
                    .into()
            }
            Setting::DesignatedClean => {
                format!(
                    "rhoscope.estimate(…, designated_clean={})",
                    quoted.join(", ")
                )
            }
            Setting::Id => format!("id={}", quoted.join(", ")),
            s => format!("{}[{}]", self.setting(s), quoted.join(", ")),
        }
    }

    /// The planner's call as Python code: `rhoscope.plan(target="ci-width=0.2", p=3, rho=[…])`.
    fn run_given(&self, setting: RunSetting, values: &[String]) -> String {
        let Some((target, set)) = values.split_first() else {
            return self.run(setting).into_owned();
        };
        if setting != RunSetting::Target {
            return format!("{} {}", self.run(setting), values.join(", "));
        }
        let mut args = vec![format!("target={target:?}")];
        for kv in set {
            let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
            args.push(format!("{key}={}", python_value(value)));
        }
        format!("rhoscope.plan({})", args.join(", "))
    }
}

/// A scenario value as Python code: a number, a list of numbers, or else a string.
fn python_value(value: &str) -> String {
    let number = |v: &str| v.trim().parse::<f64>().is_ok();
    if number(value) {
        value.to_string()
    } else if value.contains(',') && value.split(',').all(number) {
        format!("[{}]", value.split(',').collect::<Vec<_>>().join(", "))
    } else {
        format!("{value:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wording::reword;

    #[test]
    fn a_marked_change_is_python_code() {
        let cols = ["A, 1".to_string(), "A2".to_string()];
        let text = format!("use {}", Setting::Anchors.marked_given(&cols));
        assert_eq!(reword(&text, &Keywords), r#"use anchors=["A, 1", "A2"]"#);
        let clean = Setting::DesignatedClean.marked_given(&["A2".to_string()]);
        assert_eq!(
            reword(&clean, &Keywords),
            r#"rhoscope.estimate(…, designated_clean="A2")"#
        );
        assert_eq!(
            reword(&Setting::Continuous.marked(), &Keywords),
            "continuous="
        );
        let plan = RunSetting::Target.marked_given(&[
            "ci-width=0.2".to_string(),
            "p=3".to_string(),
            "rho=0.23,0.67".to_string(),
        ]);
        assert_eq!(
            reword(&plan, &Keywords),
            r#"rhoscope.plan(target="ci-width=0.2", p=3, rho=[0.23, 0.67])"#
        );
    }
}
