//! Results from the background worker: each is kept only while it answers the data on
//! screen (its generation) or the configuration it was asked for.

use super::state::{App, push};
use crate::battery::TestId;
use crate::tui::action::{Effect, WorkerMsg};

impl App {
    pub(super) fn receive(&mut self, msg: WorkerMsg) -> Vec<Effect> {
        match msg {
            WorkerMsg::Battery { generation, report } => {
                // The same run's next steps, checked: they replace the report's unchecked ones.
                let held = self.battery.as_ref().is_some_and(|b| b.reading.checking);
                if generation == self.generation && self.battery_generation == generation && held {
                    self.battery = Some(report);
                } else if generation == self.generation {
                    for t in TestId::ALL {
                        let r = &report.tests[t];
                        let x = match (r.statistic, r.threshold) {
                            (Some(s), Some(th)) if th > 0.0 => s / th,
                            _ => f64::NAN,
                        };
                        push(&mut self.history.stats[t], x);
                    }
                    self.battery = Some(report);
                    self.battery_generation = generation;
                    self.trust_answered(generation);
                }
                Vec::new()
            }
            WorkerMsg::Power { request, summary } => {
                self.power.retain(|(r, _)| *r != *request);
                self.power.push((*request, *summary));
                Vec::new()
            }
            WorkerMsg::Loaded { generation, result } => {
                if generation != self.generation {
                    return Vec::new();
                }
                match result {
                    Ok(file) => self.loaded(file),
                    Err(e) => self.failed(e),
                }
            }
            WorkerMsg::Planned { design, plan } => {
                self.plans.retain(|(d, _)| *d != *design);
                self.plans.push((*design, plan));
                Vec::new()
            }
            WorkerMsg::Validating {
                generation,
                done,
                total,
            } => {
                self.validation_progress(generation, done, total);
                Vec::new()
            }
            WorkerMsg::Validated { generation, result } => {
                // A study of older data (another file, edited roles) is dropped.
                self.validated(generation, result);
                Vec::new()
            }
            WorkerMsg::Crashed => {
                self.status = "the background worker crashed".into();
                self.quit()
            }
        }
    }
}
