//! Memory: per workload the breakdown of one replica's GPU memory (weights, KV cache,
//! activations, gradients, optimizer states, overhead, headroom) and a stacked bar chart.

use super::{at, heads_of, widths_of, workload_col, Col, Ctx, Extent, Tab};
use crate::model::column_letters;
use crate::plan::{Candidate, Need};
use crate::write::charts::Point;
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{
    Chart, ChartLegendPosition, ChartType, ConditionalFormatFormula, Worksheet, XlsxError,
};

/// The columns before the parts.
const LEAD: [Col; 2] = [
    workload_col(22.0),
    Col::new(
        "gpu",
        24.0,
        [
            "GPU",
            "GPU",
            "The chosen offer (unplanned: the largest offer, which still does not fit).",
            "选中的报价（未规划时为最大的报价，仍装不下）。",
        ],
    ),
];
const WORKLOAD: u16 = at(&LEAD, "workload");
const GPU: u16 = at(&LEAD, "gpu");

/// The parts of one replica's memory, a column each: formula (required, checked when
/// compiled), width, labels, header notes.
#[rustfmt::skip]
const PARTS: [(Need, f64, &str, &str, &str, &str); 6] = [
    (Need::of("weights_gib"), 12.0, "Weights", "模型权重", "Parameters × bytes per parameter (plus LoRA adapters).", "参数量 × 每参数字节（含 LoRA 适配器）。"),
    (Need::of("kv_cache_gib"), 12.0, "KV cache", "KV Cache", "2 × layers × KV heads × head dim × bytes × tokens held by the requests one replica serves.", "2 × 层数 × KV头数 × 头维度 × 字节 × 单副本承载请求的 token 数。"),
    (Need::of("activation_gib"), 12.0, "Activations", "激活值", "Serving: the prefill working set and the engine's buffers; training: activations of every GPU; image generation: working memory.", "推理：预填充工作显存与引擎缓冲；训练：各卡激活值；生图：工作显存。"),
    (Need::of("grads_gib"), 12.0, "Gradients", "梯度", "2 bytes per trained parameter.", "每个训练参数 2 字节。"),
    (Need::of("optimizer_gib"), 12.0, "Optimizer states", "优化器状态", "optimizer_bytes_per_param per trained parameter (12: AdamW with an fp32 master copy and two moments).", "每个训练参数 optimizer_bytes_per_param 字节（12：AdamW 的 fp32 主副本与两个动量）。"),
    (Need::of("overhead_gib"), 12.0, "Overhead", "运行时开销", "CUDA context and framework on every GPU.", "每卡 CUDA 上下文与框架开销。"),
];

/// The columns of the parts, in `PARTS` order.
const FIRST_PART: u16 = LEAD.len() as u16;
const LAST_PART: u16 = FIRST_PART + PARTS.len() as u16 - 1;

/// The columns after the parts.
const AFTER_PARTS: [Col; 6] = [
    Col::new(
        "measured",
        12.0,
        [
            "Measured (GiB)",
            "实测(GiB)",
            "A measured vram_gib from the Workloads sheet: it replaces the estimate, whose parts are then left blank.",
            "负载表中实测的 vram_gib：替代估算，各分项留空。",
        ],
    ),
    Col::new(
        "total_vram_gib",
        12.0,
        [
            "Total (GiB)",
            "合计(GiB)",
            "Peak memory of one replica.",
            "单副本峰值显存。",
        ],
    ),
    Col::new(
        "headroom",
        12.0,
        [
            "Headroom (GiB)",
            "余量(GiB)",
            "Kept free for peaks (vram_headroom).",
            "为峰值预留（vram_headroom）。",
        ],
    ),
    Col::new(
        "required_vram_gib",
        12.0,
        [
            "Required (GiB)",
            "需求(GiB)",
            "Total plus headroom: what must fit.",
            "合计加余量：必须装得下的量。",
        ],
    ),
    Col::new(
        "replica_vram_gib",
        12.0,
        [
            "Replica memory (GiB)",
            "副本显存(GiB)",
            "Memory of the GPUs of one replica. Red: the requirement does not fit.",
            "单副本 GPU 显存。红色表示装不下。",
        ],
    ),
    Col::new(
        "use",
        12.0,
        [
            "Use",
            "占用",
            "Total ÷ replica memory.",
            "合计 ÷ 副本显存。",
        ],
    ),
];
const MEASURED: u16 = LAST_PART + 1 + at(&AFTER_PARTS, "measured");
const TOTAL_VRAM_GIB: u16 = LAST_PART + 1 + at(&AFTER_PARTS, "total_vram_gib");
const HEADROOM: u16 = LAST_PART + 1 + at(&AFTER_PARTS, "headroom");
const REQUIRED_VRAM_GIB: u16 = LAST_PART + 1 + at(&AFTER_PARTS, "required_vram_gib");
const REPLICA_VRAM_GIB: u16 = LAST_PART + 1 + at(&AFTER_PARTS, "replica_vram_gib");
const USE: u16 = LAST_PART + 1 + at(&AFTER_PARTS, "use");
/// The last column.
const LAST_COL: u16 = LAST_PART + AFTER_PARTS.len() as u16;

/// The candidate whose memory the tab shows: the chosen one, else (unplanned) the one on the
/// offer with the most memory per node, to show how far off it is.
fn shown<'a>(cx: &'a Ctx, w: usize) -> Option<&'a Candidate> {
    if let Some((c, _)) = cx.chosen(w) {
        return Some(c);
    }
    let g = &cx.plan.input.gpus;
    cx.plan.workloads[w]
        .candidates
        .iter()
        .filter(|c| !c.values.is_empty())
        .max_by(|a, b| {
            (g[a.offer].vram_gib * g[a.offer].gpus_per_node)
                .total_cmp(&(g[b.offer].vram_gib * g[b.offer].gpus_per_node))
        })
}

/// The numbers written in one row, by column, for the chart's caches.
type Row = Vec<Option<f64>>;

/// Writes the Memory tab: one row per workload, the requirement in red where it does not fit,
/// and a stacked bar chart of the parts below the table.
pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let cols = columns();
    cx.header(ws, 0, &cols)?;
    let labels: Vec<String> = cols.iter().map(|c| cx.t(c[0], c[1]).to_string()).collect();
    let n = cx.plan.workloads.len() as u32;
    let mut grid: Vec<Row> = Vec::with_capacity(n as usize);
    for i in 0..cx.plan.input.workloads.len() {
        grid.push(write_row(ws, cx, i)?);
    }
    if n > 0 {
        mark_misfits(ws, cx, n)?;
        insert_chart(ws, cx, &grid, &labels, n)?;
    }
    widths(ws, &column_widths())?;
    // The workload column stays in view.
    ws.set_freeze_panes(1, WORKLOAD + 1)?;
    // The chart below the table: 360 px, 18 rows of 20 px.
    Ok(Extent::new(if n > 0 { n + 3 + 18 } else { 0 }, LAST_COL))
}

/// The header's columns: the workload, the GPU, the parts, then measured to use.
fn columns() -> Vec<[&'static str; 4]> {
    let mut cols = heads_of(&LEAD);
    for (_, _, en, zh, ne, nz) in PARTS {
        cols.push([en, zh, ne, nz]);
    }
    cols.extend(heads_of(&AFTER_PARTS));
    cols
}

/// The width of every column, in the header's order.
fn column_widths() -> Vec<f64> {
    let mut w = widths_of(&LEAD);
    w.extend(PARTS.iter().map(|(_, width, ..)| *width));
    w.extend(widths_of(&AFTER_PARTS));
    w
}

/// Workload `i`'s row: its name, and for the candidate shown its GPU, the parts (or the
/// measured figure), total, headroom, required and replica memory and use. Returns the
/// numbers written, for the chart.
fn write_row(ws: &mut Worksheet, cx: &Ctx, i: usize) -> Result<Row, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let w = &plan.input.workloads[i];
    let r = i as u32 + 1;
    let mut row = vec![None; LAST_COL as usize + 1];
    text(ws, r, WORKLOAD, &w.name, &s.text)?;
    let Some(c) = shown(cx, i) else {
        return Ok(row);
    };
    text(ws, r, GPU, &plan.input.gpus[c.offer].label(), &s.text)?;
    let total = cx.plan.need(c, Need::TOTAL_VRAM_GIB);
    if w.numbers.vram_gib.is_some() {
        number(ws, r, MEASURED, total, &s.gib)?;
        row[MEASURED as usize] = Some(total);
    } else {
        for (k, (need, ..)) in PARTS.iter().enumerate() {
            let v = cx.plan.need(c, *need);
            let col = FIRST_PART + k as u16;
            number(ws, r, col, v, &s.gib)?;
            row[col as usize] = Some(v);
        }
    }
    let required = cx.plan.need(c, Need::REQUIRED_VRAM_GIB);
    let replica = cx.plan.need(c, Need::REPLICA_VRAM_GIB);
    row[HEADROOM as usize] = Some(required - total);
    number(ws, r, TOTAL_VRAM_GIB, total, &s.gib)?;
    number(ws, r, HEADROOM, required - total, &s.gib)?;
    number(ws, r, REQUIRED_VRAM_GIB, required, &s.gib)?;
    number(ws, r, REPLICA_VRAM_GIB, replica, &s.gib)?;
    number(
        ws,
        r,
        USE,
        if replica > 0.0 { total / replica } else { 0.0 },
        &s.pct,
    )?;
    Ok(row)
}

/// The required and replica memory in red over the `n` workloads' rows where the requirement
/// does not fit.
fn mark_misfits(ws: &mut Worksheet, cx: &Ctx, n: u32) -> Result<(), XlsxError> {
    let misfit = ConditionalFormatFormula::new()
        .set_rule(
            format!(
                "=${}2>${}2",
                column_letters(REQUIRED_VRAM_GIB.into()),
                column_letters(REPLICA_VRAM_GIB.into())
            )
            .as_str(),
        )
        .set_format(&cx.s.bad);
    ws.add_conditional_format(1, REQUIRED_VRAM_GIB, n, REPLICA_VRAM_GIB, &misfit)?;
    Ok(())
}

/// The stacked bar chart below the `n` workloads' rows: a series per part, the measured figure
/// and the headroom, cached from `grid`, named by the header `labels`.
fn insert_chart(
    ws: &mut Worksheet,
    cx: &Ctx,
    grid: &[Row],
    labels: &[String],
    n: u32,
) -> Result<(), XlsxError> {
    let sheet = cx.sheet(Tab::Memory);
    let mut chart = Chart::new(ChartType::BarStacked);
    chart
        .title()
        .set_name(cx.t("GPU memory per replica (GiB)", "单副本显存构成 (GiB)"));
    let names: Vec<_> = cx
        .plan
        .input
        .workloads
        .iter()
        .map(|w| Some(Point::Text(w.name.clone())))
        .collect();
    for col in (FIRST_PART..=LAST_PART).chain([MEASURED, HEADROOM]) {
        let values = grid
            .iter()
            .map(|row| row[col as usize].map(Point::Number))
            .collect();
        chart
            .add_series()
            .set_name(cx.charts.cell(sheet, 0, col, &labels[col as usize]))
            .set_categories(cx.charts.range(sheet, 1, WORKLOAD, names.clone()))
            .set_values(cx.charts.range(sheet, 1, col, values));
    }
    chart.legend().set_position(ChartLegendPosition::Bottom);
    chart.set_width(760).set_height(360);
    ws.insert_chart(n + 3, WORKLOAD, &chart)?;
    Ok(())
}
