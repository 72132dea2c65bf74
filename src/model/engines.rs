//! Engine profiles: the values an assumption takes for the workloads that name an engine.

use super::*;

/// Which workloads an engine profile's value applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Applies {
    /// Inference, batch, image and video generation: what serves requests or items.
    Serving,
    /// LoRA, QLoRA, full fine-tune, pretraining.
    Training,
    /// Both.
    Any,
}

impl Applies {
    /// Reads the `applies_to` column: `serving`, `training` or `any` (blank is `any`), with
    /// aliases in English and Chinese; None for anything else.
    pub fn parse(text: &str) -> Option<Applies> {
        match normalize(text).as_str() {
            "serving" | "inference" | "推理" | "服务" => Some(Applies::Serving),
            "training" | "train" | "训练" => Some(Applies::Training),
            "any" | "both" | "all" | "" => Some(Applies::Any),
            _ => None,
        }
    }

    /// The word the Engines sheet writes: `serving`, `training` or `any`.
    pub fn key(self) -> &'static str {
        match self {
            Applies::Serving => "serving",
            Applies::Training => "training",
            Applies::Any => "any",
        }
    }

    /// Whether a workload of `kind` takes the value: training kinds for
    /// [`Applies::Training`], every other kind for [`Applies::Serving`].
    pub fn covers(self, kind: Kind) -> bool {
        match self {
            Applies::Any => true,
            Applies::Training => kind.is_training(),
            Applies::Serving => !kind.is_training(),
        }
    }
}

/// One figure of an engine profile: the value an assumption takes for the workloads that run
/// on that engine, with its source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineValue {
    /// The engine's name as a workload's `engine` column names it (`vllm`, `vllm@0.17`).
    pub engine: String,
    /// Which workloads the value applies to (`applies_to` column).
    pub applies: Applies,
    /// An assumption key whose role is sizing (`catalog::profile_keys`).
    pub key: String,
    /// The value the assumption takes, in its unit (a yes/no as 1 or 0).
    pub value: f64,
    /// The value's unit as written (`tokens`, `share`, `bytes`).
    pub unit: String,
    /// The engine version the figure holds for.
    pub version: String,
    /// Where the figure comes from (code, benchmark or documentation it was read from).
    pub source: String,
    /// The Engines sheet cell of the value, `None` for a built-in figure.
    pub cell: Option<CellRef>,
}

/// The engine profiles of an input (built-in figures and the Engines sheet's).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Engines {
    /// Every figure: templates/engines.tsv's, an Engines sheet row replacing the one of the
    /// same engine, applies and key, or added after them.
    pub values: Vec<EngineValue>,
}

impl Engines {
    /// The engines named, in first-seen order.
    pub fn names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for v in &self.values {
            if !out.iter().any(|n| *n == v.engine) {
                out.push(&v.engine);
            }
        }
        out
    }

    /// The engine's canonical name for `text` (compared normalized), if it has a profile.
    pub fn find(&self, text: &str) -> Option<&str> {
        let n = normalize(text);
        self.values
            .iter()
            .find(|v| normalize(&v.engine) == n)
            .map(|v| v.engine.as_str())
    }

    /// The profile a versioned one is keyed on: `vllm` for `vllm@0.17`; a plain name itself.
    pub fn base(engine: &str) -> &str {
        engine.split_once('@').map_or(engine, |(b, _)| b)
    }

    /// The figures of `engine` that apply to a workload of `kind`. A profile keyed by version,
    /// `base@version` (`vllm@0.17`: what vLLM 0.17 and later spend differently), has its
    /// base's figures with its own in their place: the base's first, then its own.
    pub fn for_workload<'a>(
        &'a self,
        engine: &'a str,
        kind: Kind,
    ) -> impl Iterator<Item = &'a EngineValue> + 'a {
        let own = move |v: &&'a EngineValue| v.engine == engine && v.applies.covers(kind);
        let base = Some(Self::base(engine)).filter(|b| *b != engine);
        // The keys the versioned profile sets itself, found once (none for a plain profile).
        let replaced: Vec<&str> = match base {
            Some(_) => self
                .values
                .iter()
                .filter(own)
                .map(|v| v.key.as_str())
                .collect(),
            None => Vec::new(),
        };
        let inherited = self.values.iter().filter(move |v| {
            base.is_some_and(|b| v.engine == b)
                && v.applies.covers(kind)
                && !replaced.contains(&v.key.as_str())
        });
        inherited.chain(self.values.iter().filter(own))
    }
}
