//! How a tensor-parallel replica lays out a latent (MLA) cache. Tensor parallelism splits a
//! cache by KV head, and a latent cache has one, so every GPU of the group holds all of it
//! (`kv_replicas`). Engines offer two ways out: vLLM's decode context parallelism shards each
//! request's tokens across the group, and data-parallel attention (SGLang, vLLM with expert
//! parallelism) gives each GPU its own requests whole. The planner tries the layouts a
//! workload's engine offers beside the one the Assumptions set, and keeps the cheapest that
//! fits (#45 item 5).

use crate::labels::Label;
use crate::model::{format_number, normalize, Engines, Input, Workload};

/// One layout of a replica's latent cache, in the order ties are broken (the layout as set
/// first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Layout {
    /// As the Assumptions and the engine profile set it (plain tensor parallelism unless
    /// `dp_attention` or `decode_context_parallel` is yes).
    #[default]
    AsSet,
    /// Decode context parallelism over the whole replica (vLLM `-dcp n`): each GPU holds 1/n
    /// of every request's latent cache.
    ContextParallel,
    /// Data-parallel attention over the replica: each GPU runs the attention of its own
    /// requests with the attention weights whole; the experts stay split.
    DataParallelAttention,
}

impl Layout {
    /// The layouts tried beside [`Layout::AsSet`].
    pub const ALTERNATIVES: [Layout; 2] = [Layout::ContextParallel, Layout::DataParallelAttention];

    /// The yes/no assumption the formulas read for this layout.
    pub fn assumption(self) -> Option<&'static str> {
        match self {
            Layout::AsSet => None,
            Layout::ContextParallel => Some("decode_context_parallel"),
            Layout::DataParallelAttention => Some("dp_attention"),
        }
    }

    /// The yes/no assumption (an engine profile's figure) that says the engine offers it.
    pub fn offered_by(self) -> Option<&'static str> {
        match self {
            Layout::AsSet => None,
            Layout::ContextParallel => Some("offers_dcp"),
            Layout::DataParallelAttention => Some("offers_dp_attention"),
        }
    }

    /// Its name in the JSON.
    pub fn key(self) -> &'static str {
        match self {
            Layout::AsSet => "as_set",
            Layout::ContextParallel => "decode_context_parallel",
            Layout::DataParallelAttention => "dp_attention",
        }
    }

    /// What the layout does, in English and Chinese, for the note that names it.
    pub fn said(self) -> Label {
        match self {
            Layout::AsSet => Label::new("the cache layout the Assumptions set", "参数表设置的缓存布局"),
            Layout::ContextParallel => Label::new(
                "decode context parallelism: each GPU holds 1/n of every request's latent cache",
                "解码上下文并行：每张 GPU 保存每个请求潜在缓存的 1/n",
            ),
            Layout::DataParallelAttention => Label::new(
                "data-parallel attention: each GPU holds its own requests' cache and the attention weights whole",
                "数据并行注意力：每张 GPU 保存自己请求的缓存和完整的注意力权重",
            ),
        }
    }

    /// The launch flags that ask `engine` for this layout on a replica of `gpus` GPUs; `None`
    /// for [`Layout::AsSet`]. An engine gpuplan does not know gets the layout's name.
    pub fn flags(self, engine: Option<&str>, gpus: f64) -> Option<String> {
        let n = format_number(gpus);
        let base = engine.map(|e| normalize(Engines::base(e)));
        Some(match (self, base.as_deref()) {
            (Layout::AsSet, _) => return None,
            // vllm/config/parallel.py: decode_context_parallel_size, -dcp.
            (Layout::ContextParallel, Some("vllm")) => format!("-tp {n} -dcp {n}"),
            (Layout::ContextParallel, _) => format!("decode context parallel {n}"),
            // docs.vllm.ai data parallel deployment: attention data-parallel, experts EP.
            (Layout::DataParallelAttention, Some("vllm")) => {
                format!("-dp {n} --enable-expert-parallel")
            }
            // docs.sglang.io: --enable-dp-attention with --dp equal to --tp.
            (Layout::DataParallelAttention, Some("sglang")) => {
                format!("--tp {n} --dp {n} --enable-dp-attention")
            }
            (Layout::DataParallelAttention, _) => format!("data-parallel attention {n}"),
        })
    }

    /// The layouts worth trying for `w` beside the one set: those its engine offers (or the
    /// Assumptions sheet, for a workload with no engine) and not already set, for a model
    /// whose cache is latent (a KV-head cache tensor parallelism splits already).
    pub fn alternatives(input: &Input, w: &Workload) -> Vec<Layout> {
        let latent = w.model.as_ref().is_some_and(|m| m.kv_lora_rank > 0.0);
        if !latent {
            return Vec::new();
        }
        let figure = |key: &str| -> f64 {
            let profile = w.engine.as_deref().and_then(|e| {
                input
                    .engines
                    .for_workload(e, w.kind)
                    .find(|v| v.key == key)
                    .map(|v| v.value)
            });
            profile.unwrap_or_else(|| input.assumptions.number(key, 0.0))
        };
        let set_already: Vec<Layout> = Self::ALTERNATIVES
            .into_iter()
            .filter(|l| l.assumption().is_some_and(|a| figure(a) != 0.0))
            .collect();
        if !set_already.is_empty() {
            // The sheet chose a layout: plan it as chosen.
            return Vec::new();
        }
        Self::ALTERNATIVES
            .into_iter()
            .filter(|l| l.offered_by().is_some_and(|o| figure(o) != 0.0))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_name_the_engines_options() {
        let dcp = Layout::ContextParallel;
        let dpa = Layout::DataParallelAttention;
        assert_eq!(dcp.flags(Some("vllm@0.17"), 8.0).unwrap(), "-tp 8 -dcp 8");
        assert_eq!(
            dpa.flags(Some("SGLang"), 8.0).unwrap(),
            "--tp 8 --dp 8 --enable-dp-attention"
        );
        assert_eq!(
            dpa.flags(Some("vllm"), 4.0).unwrap(),
            "-dp 4 --enable-expert-parallel"
        );
        assert_eq!(dcp.flags(None, 2.0).unwrap(), "decode context parallel 2");
        assert_eq!(Layout::AsSet.flags(Some("vllm"), 8.0), None);
    }
}
