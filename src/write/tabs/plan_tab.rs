//! Plan: per workload the chosen candidate's sizing — memory, concurrency, replicas,
//! redundancy, instances, GPUs, utilization, billing mode — and the advice in the seeds' terms.

use super::{heads, Ctx};
use crate::write::style::{header, number, text};
use rust_xlsxwriter::{Worksheet, XlsxError};

pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<(), XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    header(
        ws,
        0,
        &heads(
            cx,
            &[
                ["Workload", "负载", "The workload's name.", "负载名称。"],
                ["Kind", "类型", "What it does.", "任务类型。"],
                [
                    "Model",
                    "模型",
                    "The model as resolved (a ~ marks a guessed architecture).",
                    "解析后的模型（~ 表示架构为推测）。",
                ],
                ["GPU", "GPU", "The chosen GPU offer.", "选中的 GPU 报价。"],
                [
                    "Required memory (GiB)",
                    "所需显存(GiB)",
                    "Peak memory of one replica plus the headroom (vram_headroom).",
                    "单副本峰值显存加余量。",
                ],
                [
                    "Replica memory (GiB)",
                    "副本显存(GiB)",
                    "Memory of the GPUs of one replica.",
                    "单副本所有 GPU 的显存。",
                ],
                [
                    "Concurrency per replica",
                    "单副本并发",
                    "Concurrent requests one replica serves (memory and latency goal).",
                    "单副本可服务的并发请求数（受显存与时延目标限制）。",
                ],
                [
                    "Replicas",
                    "副本数",
                    "Replicas for the peak concurrency and target throughput, before redundancy.",
                    "满足峰值并发与目标吞吐的副本数（未含冗余）。",
                ],
                [
                    "Redundancy",
                    "冗余",
                    "Extra share of instances (rounded up).",
                    "冗余比例（向上取整）。",
                ],
                [
                    "Instances",
                    "实例数",
                    "ceil(replicas × (1 + redundancy)).",
                    "ceil(副本数 × (1 + 冗余))。",
                ],
                [
                    "GPUs per replica",
                    "单副本 GPU",
                    "A power of two (tensor parallel), at most max_gpus.",
                    "2 的幂（张量并行），不超过 max_gpus。",
                ],
                [
                    "GPUs",
                    "GPU 数",
                    "Instances × GPUs per replica.",
                    "实例数 × 单副本 GPU 数。",
                ],
                [
                    "Hours per month",
                    "每月小时",
                    "Hours each instance runs per month.",
                    "每个实例每月运行小时数。",
                ],
                [
                    "Utilization",
                    "利用率",
                    "Hours ÷ hours in the month.",
                    "运行小时 ÷ 当月小时数。",
                ],
                [
                    "Billing mode",
                    "计费方式",
                    "The cheapest allowed mode.",
                    "最便宜的可用计费方式。",
                ],
                [
                    "Monthly TCO",
                    "月度总成本",
                    "GPU + storage + egress, per month.",
                    "GPU + 存储 + 流量，每月。",
                ],
                [
                    "Advice",
                    "建议",
                    "Utilization, the rule of thumb, and the saving against the next best mode.",
                    "利用率、经验法则，以及相对次优方案的节省。",
                ],
                ["Notes", "备注", "From the Workloads sheet.", "来自负载表。"],
            ],
        ),
        s,
    )?;
    for (i, w) in plan.input.workloads.iter().enumerate() {
        let r = i as u32 + 1;
        text(ws, r, 0, &w.name, &s.text)?;
        text(
            ws,
            r,
            1,
            if cx.zh { w.kind.zh() } else { w.kind.key() },
            &s.text,
        )?;
        text(
            ws,
            r,
            2,
            w.model.as_ref().map_or("", |m| m.name.as_str()),
            &s.text,
        )?;
        match cx.chosen(i) {
            Some((c, ch)) => {
                text(ws, r, 3, &plan.input.gpus[c.offer].label(), &s.text)?;
                let cols: [(&str, &rust_xlsxwriter::Format); 10] = [
                    ("required_vram_gib", &s.gib),
                    ("replica_vram_gib", &s.gib),
                    ("concurrency_per_replica", &s.integer),
                    ("replicas", &s.integer),
                    ("redundancy_used", &s.pct),
                    ("instances", &s.integer),
                    ("gpus_per_replica", &s.integer),
                    ("gpus_total", &s.integer),
                    ("run_hours", &s.number),
                    ("utilization", &s.pct),
                ];
                for (k, (name, f)) in cols.iter().enumerate() {
                    number(ws, r, 4 + k as u16, cx.value(c, name), f)?;
                }
                text(ws, r, 14, ch.mode.label(cx.zh), &s.text)?;
                number(ws, r, 15, ch.tco, &s.money)?;
                text(ws, r, 16, &ch.advice.text(cx.zh), &s.text)?;
            }
            None => {
                text(ws, r, 3, cx.t("unplanned", "未规划"), &s.bad)?;
                let why = plan
                    .warnings
                    .iter()
                    .find(|x| x.location == w.cell.to_string() && x.message.contains("unplanned"))
                    .map_or("", |x| x.message.as_str());
                text(ws, r, 16, why, &s.text)?;
            }
        }
        text(ws, r, 17, &w.notes, &s.text)?;
    }
    let widths = [
        22.0, 12.0, 22.0, 22.0, 12.0, 12.0, 12.0, 10.0, 11.0, 10.0, 11.0, 9.0, 10.0, 11.0, 16.0,
        14.0, 90.0, 40.0,
    ];
    for (c, w) in widths.iter().enumerate() {
        ws.set_column_width(c as u16, *w)?;
    }
    ws.set_freeze_panes(1, 1)?;
    Ok(())
}
