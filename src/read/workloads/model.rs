//! A workload's model: a row of the Models sheet or the catalog, a model folder or config.json
//! named by its path, or an architecture guessed from the catalog model closest in size.

use crate::error::Problem;
use crate::model::{normalize, Kind, ModelSpec, Warning, WorkloadNumbers};
use crate::read::table::Record;
use crate::read::Reader;
use crate::support::suggest;

impl Reader {
    /// The workload's model: the Models sheet or the catalog; a guessed architecture (with a
    /// warning) where only a name or a size is known.
    pub(in crate::read) fn resolve_model(
        &mut self,
        rec: &Record,
        name: &str,
        kind: Kind,
        n: &WorkloadNumbers,
        models: &[ModelSpec],
    ) -> Option<ModelSpec> {
        let sized_by_memory =
            matches!(kind, Kind::Batch | Kind::ImageGen | Kind::VideoGen) && n.vram_gib.is_some();
        let given = rec.text("model", &mut self.problems);
        if let Some(m) = &given {
            if let Some(spec) = models.iter().find(|s| normalize(&s.name) == normalize(m)) {
                return Some(spec.clone());
            }
            // A model folder or config.json, relative to the workbook (gpuplan model PATH).
            let looks_like_path = m.contains(['/', '\\']) || m.ends_with(".json");
            if looks_like_path {
                return self.model_from_path(rec, name, m);
            }
        }
        if n.params_b.is_none() && !sized_by_memory {
            self.push_missing_model(rec, name, kind, given.as_deref(), models);
            return None;
        }
        let params = n.params_b?;
        let needs_arch = matches!(
            kind,
            Kind::Inference | Kind::Lora | Kind::Qlora | Kind::FullFinetune | Kind::Pretrain
        ) || (kind == Kind::Batch && n.vram_gib.is_none());
        if !needs_arch {
            return None;
        }
        self.guessed_model(rec, name, given, params, models)
    }

    /// The model of a model folder or config.json (relative to the workbook), with a note of
    /// what was read, or a problem where it cannot be read.
    fn model_from_path(&mut self, rec: &Record, name: &str, m: &str) -> Option<ModelSpec> {
        let at = self.base.join(m);
        match crate::read::config::import(&at) {
            // Without these the model would be planned with no weights or no KV cache.
            Ok(i)
                if i.spec.params_b <= 0.0
                    || i.missing
                        .iter()
                        .any(|f| matches!(*f, "layers" | "hidden" | "heads" | "params_b")) =>
            {
                self.problems.push(Problem::new(
                    rec.at("model"),
                    format!(
                        "{name}: the model {m} ({}) cannot be sized: its files do not give {}; gpuplan reads config.json keys such as num_hidden_layers, hidden_size and num_attention_heads (add the model to the Models sheet instead, naming it here)",
                        i.architecture,
                        if i.missing.is_empty() {
                            "its parameters".to_string()
                        } else {
                            i.missing.join(", ")
                        }
                    ),
                ));
                None
            }
            Ok(i) => {
                let (model, arch) = (&i.spec.name, &i.architecture);
                let [missing, missing_zh] = if i.missing.is_empty() {
                    [String::new(), String::new()]
                } else {
                    [
                        format!("; not in its files: {}", i.missing.join(", ")),
                        format!("；文件中缺少：{}", i.missing.join("、")),
                    ]
                };
                self.notices.push(
                    Warning::info(
                        rec.at("model"),
                        format!("{name}: the model {model} was read from {m} ({arch}){missing}"),
                    )
                    .with_zh(format!(
                        "{name}：模型 {model} 读取自 {m}（{arch}）{missing_zh}"
                    )),
                );
                Some(i.spec)
            }
            Err(e) => {
                self.problems.push(Problem::new(
                    rec.at("model"),
                    format!("the model path {m} cannot be read: {e}"),
                ));
                None
            }
        }
    }

    /// The problem of a workload that cannot be sized: an unknown model (`given`) without
    /// params_b, or neither a model nor params_b.
    fn push_missing_model(
        &mut self,
        rec: &Record,
        name: &str,
        kind: Kind,
        given: Option<&str>,
        models: &[ModelSpec],
    ) {
        let message = match given {
            Some(m) => {
                let hint = suggest::hint(m, models.iter().map(|s| s.name.as_str()));
                format!("unknown model \"{m}\"{hint}; add it to the Models sheet, or give params_b")
            }
            None => format!(
                "{name} needs a model or params_b{}",
                if matches!(kind, Kind::Batch | Kind::ImageGen | Kind::VideoGen) {
                    " (or vram_gib)"
                } else {
                    ""
                }
            ),
        };
        self.problems.push(Problem::new(rec.at("model"), message));
    }

    /// A model of `params` billion parameters that no sheet describes: the architecture of the
    /// catalog language model closest in size, with a warning that it is guessed.
    fn guessed_model(
        &mut self,
        rec: &Record,
        name: &str,
        given: Option<String>,
        params: f64,
        models: &[ModelSpec],
    ) -> Option<ModelSpec> {
        // Language models only (a video DiT has layers and heads but no vocabulary).
        let nearest = models
            .iter()
            .filter(|m| m.has_architecture() && m.vocab > 0.0)
            .min_by(|a, b| {
                (a.params_b.ln() - params.ln())
                    .abs()
                    .total_cmp(&(b.params_b.ln() - params.ln()).abs())
            })?
            .clone();
        let label = given
            .clone()
            .unwrap_or_else(|| format!("a {params}B model"));
        let label_zh = given
            .as_ref()
            .map_or_else(|| format!("{params}B 模型"), |g| format!("模型 {g} "));
        self.notices.push(Warning::warn(
            rec.at(if given.is_some() { "model" } else { "params_b" }),
            format!(
                "{name}: {label} is not in the Models sheet or the catalog; its layers and heads are guessed from {} ({}B). Add the model's real figures to the Models sheet for an accurate KV cache",
                nearest.name, nearest.params_b
            ),
        ).with_zh(format!(
            "{name}：{label_zh}不在模型表或内置目录中，其层数和注意力头数按 {}（{}B）推测。请在模型表中填入该模型的真实参数，以准确估算 KV 缓存",
            nearest.name, nearest.params_b
        )));
        Some(ModelSpec {
            name: given.unwrap_or_else(|| format!("~{}", nearest.name)),
            params_b: params,
            source: format!("{}{}", ModelSpec::GUESSED_FROM, nearest.name),
            ..nearest
        })
    }
}
