//! The spinner of a long `calc` on the terminal.

/// A spinner on stderr naming the phase of a long `calc`: drawn only on a terminal, and only
/// once the run has taken more than a second, so short runs print nothing extra.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub fn new(enabled: bool) -> Progress {
        if !enabled || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            return Progress { bar: None };
        }
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
            bar.set_style(style);
        }
        let delayed = bar.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(1));
            if !delayed.is_finished() {
                delayed.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                delayed.enable_steady_tick(std::time::Duration::from_millis(120));
            }
        });
        Progress { bar: Some(bar) }
    }

    pub fn phase(&self, msg: String) {
        if let Some(b) = &self.bar {
            b.set_message(msg);
        }
    }

    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    /// Cleared on every way out, errors included, so a message is never mixed with the spinner.
    fn drop(&mut self) {
        self.finish();
    }
}
