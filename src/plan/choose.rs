//! The choice of one workload's plan among its candidates, and the warnings about it.

use super::evaluate::Best;
use super::programs::Keys;
use super::{Advice, Band, Candidate, Chosen, Hidden, Mode, Said};
use crate::labels::Label;
use crate::model::{format_number, format_tenths, GpuOffer, Input, Warning, Workload};

/// The least-TCO (offer, mode) from each mode's best; ties to fewer GPUs, then sheet order,
/// then mode order. The next best is the best option of another mode.
pub(super) fn choose(
    cands: &[Candidate],
    best: &[Option<Best>; Mode::ALL.len()],
    k: &Keys,
    monthly_min: f64,
) -> Option<Chosen> {
    let mut options: Vec<(Best, Mode)> = Mode::ALL
        .iter()
        .zip(best)
        .filter_map(|(m, b)| b.map(|b| (b, *m)))
        .collect();
    options.sort_by(|a, b| {
        if a.0.better_than(&b.0) {
            std::cmp::Ordering::Less
        } else if b.0.better_than(&a.0) {
            std::cmp::Ordering::Greater
        } else {
            a.1.index().cmp(&b.1.index())
        }
    });
    let &(first, mode) = options.first()?;
    let ci = cands.iter().position(|c| {
        c.offer == first.offer
            && c.values[k.gpus_per_replica] == first.size
            && c.layout == first.layout
    })?;
    let c = &cands[ci];
    let tco = first.tco;
    let next = options
        .get(1)
        .map(|o| {
            (
                o.1,
                if tco > 0.0 {
                    o.0.tco / tco
                } else {
                    f64::INFINITY
                },
            )
        })
        .filter(|(_, r)| r.is_finite());
    let utilization = c.values[k.utilization];
    let gpu_cost = c.cost(mode).unwrap_or(0.0);
    let hidden = |h: Hidden| k.hidden[mode.index()][h as usize].map_or(0.0, |i| c.values[i]);
    let (cold_start_cost, rework_cost) = (hidden(Hidden::ColdStarts), hidden(Hidden::Rework));
    Some(Chosen {
        candidate: ci,
        mode,
        gpu_cost,
        cold_start_cost,
        rework_cost,
        storage_cost: c.values[k.storage],
        egress_cost: c.values[k.egress],
        tco,
        advice: Advice {
            utilization,
            band: Band::of(utilization),
            below_monthly_minimum: utilization < monthly_min,
            mode,
            next,
        },
        inputs: Vec::new(),
    })
}

/// Why spot was refused for a job that tolerates it on the chosen offer: it does not checkpoint
/// and a run finishes before it is reclaimed less often than the Assumption `spot_min_success`
/// (the expected time, (1/λ + r)(e^(λT) − 1), explodes). `None` where the sheet's allow_spot
/// priced spot after all, spot was not refused for that reason, or the Formulas sheet deleted
/// the formulas that say it.
fn spot_refused(w: &Workload, input: &Input, c: &Candidate, k: &Keys) -> Option<Said> {
    let s = k.spot?;
    let g = &input.gpus[c.offer];
    let v = |i: usize| c.values.get(i).copied().unwrap_or(f64::NAN);
    let floor = input.assumptions.number("spot_min_success", 0.01);
    let success = v(s.success);
    // Only where the plan did refuse spot; a NaN share (a formula that computes none) explains
    // nothing.
    let refused = c.cost(Mode::Spot).is_none();
    if !w.spot_ok || g.spot_hourly.is_none() || !refused || success.is_nan() || success >= floor {
        return None;
    }
    let (per_day, hours) = (v(s.interruptions_h) * 24.0, v(s.run_length_h));
    let pct = |x: f64| format!("{}%", format_number((x * 1000.0).round() / 10.0));
    let (rate, run, p, min) = (
        format_number((per_day * 100.0).round() / 100.0),
        format_tenths(hours),
        pct(success),
        pct(floor),
    );
    Some(Said::new(
        format!(
            "{}: spot not used on {}: a {run} h run without checkpoints, reclaimed about {rate} times a day, finishes before it is reclaimed {p} of the time (spot_min_success {min}), so its expected hours cannot be budgeted; give checkpoint_min to price spot by its checkpoints",
            w.name,
            g.label()
        ),
        format!(
            "{}：{} 未用竞价：{run} 小时的运行不存断点，每天约被回收 {rate} 次，运行在被回收前完成的概率为 {p}（spot_min_success {min}），期望时长无法纳入预算；填写 checkpoint_min 后按断点为竞价定价",
            w.name,
            g.label()
        ),
    ))
}

/// A chosen candidate's workload, values, card and formula keys, and the cell its notes
/// name: what each of its notes reads.
#[derive(Clone, Copy)]
struct Site<'a> {
    w: &'a Workload,
    c: &'a Candidate,
    g: &'a GpuOffer,
    k: &'a Keys,
    at: &'a str,
}

pub(super) fn chosen_warnings(
    w: &Workload,
    input: &Input,
    c: &Candidate,
    ch: &Chosen,
    k: &Keys,
    monthly_min: f64,
    out: &mut Vec<Warning>,
) {
    let g = &input.gpus[c.offer];
    let at = w.cell.to_string();
    if let Some(refused) = spot_refused(w, input, c, k) {
        out.push(Warning::info(&at, refused.en).with_zh(refused.zh));
    }
    let site = Site {
        w,
        c,
        g,
        k,
        at: &at,
    };
    layout_note(&site, out);
    gpu_warnings(w, g, &at, out);
    // Cards from sm_89 to sm_90 get one note for the whole plan: cuda_note.
    nodes_warning(&site, out);
    compat_note(&site, out);
    memory_warnings(&site, out);
    if ch.advice.utilization > 1.0 + 1e-9 {
        out.push(Warning::warn(&at, format!(
            "{} runs {}% of the month on each instance: more hours than the month has. Check hours_per_month against hours_in_month, or the formulas run_hours and utilization; more instances are needed to do that work in a month",
            w.name, format_number((ch.advice.utilization * 100.0).round()))).with_zh(format!(
            "{} 每个实例的运行时间占当月 {}%，超过了一个月的小时数。请核对 hours_per_month 与 hours_in_month，或公式 run_hours 与 utilization；一个月内完成这些工作需要更多实例",
            w.name, format_number((ch.advice.utilization * 100.0).round()))));
    }
    if let Some(warning) = window_too_short(w, input, ch) {
        out.push(warning);
    }
    if let Some(warning) = redundancy_doubles(w, c, ch, k, &input.assumptions.currency()) {
        out.push(warning);
    }
    if ch.mode.is_committed() && ch.advice.utilization < monthly_min {
        out.push(Warning::warn(&at, format!(
            "{} is billed {} at {}% utilization, under monthly_min_utilization ({}%): check the hours, or measure a month on demand first",
            w.name, ch.mode.name().en, format_number((ch.advice.utilization * 100.0).round()), format_number(monthly_min * 100.0))).with_zh(format!(
            "{} 按{}计费，利用率仅 {}%，低于 monthly_min_utilization（{}%）：请核对使用时长，或先按量计费实测一个月",
            w.name, ch.mode.name().zh, format_number((ch.advice.utilization * 100.0).round()), format_number(monthly_min * 100.0))));
    }
}

/// The note of a latent cache laid out by the engine's flags (`-dcp`, `--dp-attention`): the
/// flags to launch it with, and vLLM's fp8-cache caveat with `-dcp`.
fn layout_note(site: &Site, out: &mut Vec<Warning>) {
    let Site { w, c, k, at, .. } = *site;
    let replica = c.values[k.gpus_per_replica];
    if let Some(flags) = c.layout.flags(w.engine.as_deref(), replica) {
        let Label { en, zh } = c.layout.said();
        // vLLM refused an fp8 cache with -dcp in MLA decode through 0.13.0 (PR 44044 lifted it).
        let fp8 = c.layout == super::Layout::ContextParallel
            && w.kv_precision == crate::model::Precision::Fp8;
        let (fp8_en, fp8_zh) = if fp8 {
            (
                " (vLLM up to 0.13 refuses an fp8 KV cache with -dcp: use a release with PR 44044)",
                "（vLLM 0.13 及以前不支持 fp8 KV 缓存与 -dcp 同用：请使用含 PR 44044 的版本）",
            )
        } else {
            ("", "")
        };
        out.push(Warning::info(at, format!(
        "{}: planned with {en} ({flags}), which needs fewer GPUs or costs less than the latent cache copied to each of the replica's {} GPUs; launch the engine with these flags{fp8_en}",
        w.name, format_number(replica))).with_zh(format!(
        "{}：按{zh}规划（{flags}），比在副本的 {} 张 GPU 上各存一份潜在缓存所需的 GPU 更少或费用更低；请用这些参数启动引擎{fp8_zh}",
        w.name, format_number(replica))));
    }
}

/// The warnings of the card's compute capability: below 8.0 no FlashAttention-2, sm_70 dropped
/// by CUDA 13, sm_100 and above needing a recent CUDA, driver and PyTorch.
fn gpu_warnings(w: &Workload, g: &GpuOffer, at: &str, out: &mut Vec<Warning>) {
    let cc = g.compute_capability;
    // A compute capability of 0 is a card that has none (ROCm, Ascend): its own fused attention
    // keeps the scores unmaterialised, as no_flash_attention counts.
    if cc > 0.0 && cc < 8.0 && w.kind != crate::model::Kind::ImageGen {
        out.push(Warning::warn(at, format!(
            "{} runs on {} (compute capability {}): FlashAttention-2 needs ≥ 8.0, so attention holds more memory than the estimate assumes",
            w.name, g.gpu, format_number(cc))).with_zh(format!(
            "{} 运行在 {}（计算能力 {}）上：FlashAttention-2 需要 ≥ 8.0，注意力计算占用的显存会超出估算",
            w.name, g.gpu, format_number(cc))));
    }
    if (7.0..7.5).contains(&cc) {
        out.push(
            Warning::warn(
                at,
                format!(
                    "{}: {} (sm_70) is dropped by CUDA 13; pin a CUDA 12.x image",
                    w.name, g.gpu
                ),
            )
            .with_zh(format!(
                "{}：CUDA 13 已不再支持 {}（sm_70），请固定使用 CUDA 12.x 镜像",
                w.name, g.gpu
            )),
        );
    } else if cc >= 10.0 {
        out.push(Warning::warn(at, format!("{}: {} (sm_{}) needs CUDA ≥ 12.8, driver R570+ and PyTorch ≥ 2.7; check the image before renting", w.name, g.gpu, (cc * 10.0).round())).with_zh(format!("{}：{}（sm_{}）需要 CUDA ≥ 12.8、R570 及以上驱动和 PyTorch ≥ 2.7，租用前请确认镜像", w.name, g.gpu, (cc * 10.0).round())));
    }
}

/// The warning of a replica across nodes without a link between them given, or with one too
/// slow for parallelism between nodes.
fn nodes_warning(site: &Site, out: &mut Vec<Warning>) {
    let Site { w, c, g, k, at } = *site;
    let size = c.values[k.gpus_per_replica];
    if size > g.gpus_per_node {
        let nodes = (size / g.gpus_per_node.max(1.0)).ceil();
        let gpn = format_number(g.gpus_per_node);
        match g.node_interconnect_gbs {
            None => out.push(Warning::warn(at, format!(
                "{}: one replica spans {} nodes of {gpn} {} ({} GPUs), but the GPUs sheet gives no link between nodes (node_interconnect_gbs): a replica across nodes needs RDMA, InfiniBand or RoCE at 400 Gb/s (50 GB/s a GPU) or more; ask the provider, and give the figure so the decode estimate uses it (25 GB/s is assumed)",
                w.name, format_number(nodes), g.gpu, format_number(size))).with_zh(format!(
                "{}：单个副本跨 {} 个节点（每节点 {gpn} 张 {}，共 {} 张 GPU），但 GPU 表未给出节点间互联带宽（node_interconnect_gbs）：跨节点的副本需要 400 Gb/s（每张 GPU 50 GB/s）及以上的 RDMA、InfiniBand 或 RoCE；请向服务商确认并填入该数值，以便解码估算使用（目前按 25 GB/s 计）",
                w.name, format_number(nodes), g.gpu, format_number(size)))),
            Some(bw) if bw < 25.0 => out.push(Warning::warn(at, format!(
                "{}: one replica spans {} nodes of {}, linked at {} GB/s a GPU: below the 25 GB/s (200 Gb/s) that pipeline and expert parallelism between nodes want; decoding will be slow",
                w.name, format_number(nodes), g.gpu, format_number(bw))).with_zh(format!(
                "{}：单个副本跨 {} 个 {} 节点，节点间互联为每张 GPU {} GB/s，低于跨节点流水线并行和专家并行所需的 25 GB/s（200 Gb/s），解码会很慢",
                w.name, format_number(nodes), g.gpu, format_number(bw)))),
            Some(_) => {}
        }
    }
}

/// The note of a precision the card runs by its weights only (templates/compat.tsv), or that
/// the engine runs so where the card could multiply it natively (weight_only_math: vLLM's
/// MXFP4 experts on Blackwell, fed bf16 activations).
fn compat_note(site: &Site, out: &mut Vec<Warning>) {
    let Site { w, c, g, k, at } = *site;
    match super::compat::verdict(w, g) {
        super::compat::Verdict::WeightOnly(notes) => {
            let joined = Said::join(&notes, Label::new("; ", "；"));
            out.push(Warning::info(
                at,
                format!(
                    "{}: {}; it runs, but decodes slower than a GPU with native support (see templates/compat.tsv)",
                    w.name, joined.en
                ),
            ).with_zh(format!(
                "{}：{}；可以运行，但解码比原生支持的 GPU 慢（见 templates/compat.tsv）",
                w.name, joined.zh
            )));
        }
        super::compat::Verdict::Native
            if w.expert_precision == crate::model::Precision::Mxfp4
                && k.weight_only_math.is_some_and(|i| c.values[i] != 0.0) =>
        {
            out.push(Warning::info(
                at,
                format!(
                    "{}: {} could multiply its MXFP4 experts natively, but the engine feeds them 16-bit activations (mxfp4_bf16_activations: vLLM's default FlashInfer MXFP4 BF16 backend), so they run weight-only and decode slower; vLLM uses FP4 products with VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1 (then set mxfp4_bf16_activations to no in the Engines sheet)",
                    w.name, g.gpu
                ),
            ).with_zh(format!(
                "{}：{} 本可原生相乘其 MXFP4 专家，但引擎以 16 位激活调用（mxfp4_bf16_activations：vLLM 默认的 FlashInfer MXFP4 BF16 后端），专家按仅权重运行，解码较慢；设置 VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1 后 vLLM 以 FP4 相乘（同时在引擎表中把 mxfp4_bf16_activations 设为 no）",
                w.name, g.gpu
            )));
        }
        _ => {}
    }
}

/// The note of a QLoRA of an MoE whose 4-bit quantizer leaves the routed experts as they are
/// (experts_unquantized): what they take, and what a stack that quantizes them would need.
pub(super) fn experts_note(w: &Workload, c: &Candidate, k: &Keys, out: &mut Vec<Warning>) {
    let Some((flag, params, bytes)) = k.experts_unquantized else {
        return;
    };
    if c.values[flag] == 0.0 {
        return;
    }
    let (params, bytes) = (c.values[params], c.values[bytes]);
    let gib = |b: f64| format_tenths(params * b * 1e9 / 2f64.powi(30));
    let (held, four) = (gib(bytes), gib(0.5));
    let (p, b) = (format_tenths(params), format_number(bytes));
    out.push(Warning::info(w.cell.to_string(), format!(
        "{}: a QLoRA of an MoE whose {p} B routed-expert parameters the 4-bit quantizer leaves unquantized (transformers 5 keeps them as 3D tensors, which bitsandbytes' conversion of nn.Linear skips: bitsandbytes issue 1849), held at {b} bytes a parameter: {held} GiB, against {four} GiB at 4 bits before their scales; a stack that quantizes them (engine unsloth, axolotl's expert quantization, transformers 4) plans with kbit_quantizes_experts yes",
        w.name)).with_zh(format!(
        "{}：MoE 的 QLoRA，其 {p} B 路由专家参数未被 4 位量化器转换（transformers 5 把它们存为三维张量，bitsandbytes 只转换 nn.Linear：bitsandbytes issue 1849），按每参数 {b} 字节计：{held} GiB，4 位（不含缩放因子）为 {four} GiB；能量化专家的训练栈（引擎 unsloth、axolotl 的专家量化、transformers 4）请设 kbit_quantizes_experts 为 yes",
        w.name)));
}

/// The note of a LoRA of an MoE whose adapters reach every routed expert (lora_on_experts):
/// how much of what it trains they are, what they hold, and what the attention alone trains.
pub(super) fn lora_experts_note(w: &Workload, c: &Candidate, k: &Keys, out: &mut Vec<Warning>) {
    let Some(l) = &k.lora_experts else {
        return;
    };
    let v = |i: usize| c.values[i];
    let (experts, counted, trained) = (v(l.experts), v(l.counted), v(l.trained));
    // Said where the count is what trains: a share given in lora_trainable_fraction is not it.
    if experts <= 0.0 || (trained - counted).abs() > 1e-9 * counted.max(1.0) {
        return;
    }
    // Billions to tenths from 1 B, whole millions from 100 M, tenths of a million below.
    let count = |b: f64| match b {
        b if b >= 1.0 => format!("{} B", format_tenths(b)),
        b if b >= 0.1 => format!("{} M", format_number((b * 1e3).round())),
        b => format!("{} M", format_tenths(b * 1e3)),
    };
    let (e, t, rest) = (count(experts), count(trained), count(trained - experts));
    // The experts' share of the adapters, their gradients and optimizer states.
    let states: f64 = l.states.iter().map(|i| v(*i)).sum();
    let held = format_tenths(states * experts / trained);
    out.push(Warning::info(w.cell.to_string(), format!(
        "{}: a LoRA of an MoE with adapters on every routed expert (lora_on_experts yes): {e} of the {t} parameters it trains are the experts', and their adapters, gradients and optimizer states take {held} GiB; with adapters on the attention and shared experts only (lora_on_experts no: a target list without the experts' projections) it trains {rest}",
        w.name)).with_zh(format!(
        "{}：MoE 的 LoRA 在每个路由专家上都加了适配器（lora_on_experts 为 yes）：训练的 {t} 参数中 {e} 属于专家，其适配器、梯度与优化器状态共 {held} GiB；只在注意力和共享专家上加适配器（lora_on_experts 为 no：目标列表不含专家的投影）时训练 {rest}",
        w.name)));
}

/// The warnings of memory: the runtime's decoding buffers taking a fifth of a card or more,
/// and a peak over 90% of the replica's memory.
fn memory_warnings(site: &Site, out: &mut Vec<Warning>) {
    let Site { w, c, g, k, at } = *site;
    let buffers = k.batch_buffers.map_or(0.0, |i| c.values[i]);
    if buffers >= 0.2 * g.vram_gib && g.vram_gib > 0.0 {
        out.push(Warning::warn(at, format!(
            "{}: the runtime's decoding buffers for the engine's max_batch_size take {} GiB of each {}'s {} GiB (batch_buffers_gib); build the engine for the sequences it will serve (trtllm-build --max_batch_size) and give that figure as engine_max_batch_size in the Engines sheet",
            w.name, format_number((buffers * 100.0).round() / 100.0), g.gpu, format_number(g.vram_gib))).with_zh(format!(
            "{}：推理引擎按 max_batch_size 预留的解码缓冲区占每张 {}（{} GiB）中的 {} GiB（batch_buffers_gib）；请按实际服务的并发序列数构建引擎（trtllm-build --max_batch_size），并在引擎表中把该数值填为 engine_max_batch_size",
            w.name, g.gpu, format_number(g.vram_gib), format_number((buffers * 100.0).round() / 100.0))));
    }
    let share = c.values[k.total] / c.values[k.replica_vram].max(1e-9);
    if share > 0.9 {
        out.push(Warning::warn(at, format!(
            "{} uses {}% of the memory of {} at peak; an out-of-memory error is likely (seed 000: keep at least 20% free)",
            w.name, format_number((share * 100.0).round()), g.gpu)).with_zh(format!(
            "{} 峰值占用 {} {}% 的显存，很可能显存不足（OOM）（依据 seed 000：至少留 20% 余量）",
            w.name, g.gpu, format_number((share * 100.0).round()))));
    }
}

/// The warning that a job's hours do not fit its `window` (#44 item 4): 700 h a month inside
/// 22-07 cannot be, since the window holds at most its hours a day times the days of the month
/// (hours_in_month / 24). The plan prices the hours as given; this says they cannot all fall in
/// the window.
fn window_too_short(w: &Workload, input: &Input, ch: &Chosen) -> Option<Warning> {
    let window = w.window.filter(|_| !w.online)?;
    let hours_in_month = input.assumptions.number("hours_in_month", 730.0);
    let per_day = window.len() as f64;
    let days = hours_in_month / 24.0;
    let allowed = per_day * days;
    // utilization is run_hours / hours_in_month: the hours each instance runs a month.
    let run_hours = ch.advice.utilization * hours_in_month;
    if run_hours <= allowed + 1e-6 {
        return None;
    }
    let (run, per_day, days, allowed) = (
        format_number((run_hours * 100.0).round() / 100.0),
        format_number(per_day),
        format_number((days * 10_000.0).round() / 10_000.0),
        format_number((allowed * 100.0).round() / 100.0),
    );
    Some(Warning::warn(w.cell.to_string(), format!(
        "{} runs {run} h a month on each instance, but its window {window} allows at most {per_day} h × {days} days = {allowed} h: the work cannot all fall inside the window; widen the window, or give the hours it can run",
        w.name
    )).with_zh(format!(
        "{} 每个实例每月运行 {run} 小时，但其运行时段 {window} 最多只有 {per_day} 小时 × {days} 天 = {allowed} 小时：这些工作无法全部在时段内完成；请放宽运行时段，或填写它能运行的小时数",
        w.name
    )))
}

/// The note that redundancy doubled a service of one replica (#34 item 9): seed 000's +20%
/// rounds 1 replica up to 2 instances, which doubles its GPU cost; said with what the added
/// instances cost (the chosen mode's GPU cost shared evenly by the instances), so that a team
/// that accepts the risk can set the workload's redundancy to 0.
pub fn redundancy_doubles(
    w: &Workload,
    c: &Candidate,
    ch: &Chosen,
    k: &Keys,
    currency: &str,
) -> Option<Warning> {
    let (replicas, instances) = (c.values[k.replicas], c.values[k.instances]);
    if replicas != 1.0 || instances < 2.0 {
        return None;
    }
    let extra = crate::model::money(
        currency,
        ch.gpu_cost * super::even_spare_share(replicas, instances)?,
    );
    let n = format_number(instances);
    Some(Warning::warn(w.cell.to_string(), format!(
        "{}: redundancy rounds its 1 replica up to {n} instances, which costs {extra} a month more than one; set the workload's redundancy to 0 to run one instance without a spare",
        w.name,
    )).with_zh(format!(
        "{}：冗余把 1 个副本向上取整为 {n} 个实例，每月比单实例多花 {extra}；如接受无备用的风险，可将该负载的冗余（redundancy）设为 0，只运行一个实例",
        w.name,
    )))
}

/// One note for every chosen card from sm_89 to before sm_100, which needs CUDA ≥ 11.8 and
/// PyTorch ≥ 2.0 (any current image has them): a line a card naming its workloads, not a line
/// a workload (#34 item 12). `chosen` gives each planned workload with its chosen offer.
pub(super) fn cuda_note<'a>(
    input: &Input,
    chosen: impl Iterator<Item = (&'a Workload, usize)>,
    out: &mut Vec<Warning>,
) {
    let mut cards: Vec<(String, Vec<&str>)> = Vec::new();
    for (w, offer) in chosen {
        let g = &input.gpus[offer];
        let cc = g.compute_capability;
        if !(8.9..10.0).contains(&cc) {
            continue;
        }
        let card = format!("{} (sm_{})", g.gpu, (cc * 10.0).round());
        match cards.iter_mut().find(|(c, _)| *c == card) {
            Some((_, names)) => names.push(&w.name),
            None => cards.push((card, vec![&w.name])),
        }
    }
    if cards.is_empty() {
        return;
    }
    let list: Vec<String> = cards
        .iter()
        .map(|(card, names)| format!("{card} for {}", names.join(", ")))
        .collect();
    let list_zh: Vec<String> = cards
        .iter()
        .map(|(card, names)| format!("{card} 用于 {}", names.join("、")))
        .collect();
    out.push(
        Warning::info(
            "Workloads",
            format!(
                "CUDA ≥ 11.8 and PyTorch ≥ 2.0 needed by {}",
                list.join("; ")
            ),
        )
        .with_zh(format!(
            "以下 GPU 需要 CUDA ≥ 11.8 和 PyTorch ≥ 2.0：{}",
            list_zh.join("；")
        )),
    );
}
