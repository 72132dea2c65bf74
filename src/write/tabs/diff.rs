//! Diff (`calc --compare OLD`): what changed since an earlier plan — per workload the GPU, count,
//! mode and TCO before and after with the change, the budget before and after, and each input
//! that differs. Values: the earlier plan is a file, not part of this workbook.

use super::{at, heads_of, widths_of, Col, Ctx, Extent};
use crate::diff::{CutsView, Diff, Outcome};
use crate::labels::Said;
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The columns: key, width and `[English, Chinese, note in English, note in Chinese]`.
const COLUMNS: [Col; 10] = [
    Col::new(
        "workload",
        30.0,
        [
            "Workload",
            "负载",
            "Workloads of either plan.",
            "两个方案中的负载。",
        ],
    ),
    Col::new(
        "gpu_before",
        22.0,
        [
            "GPU before",
            "原 GPU",
            "The earlier plan's offer.",
            "原方案的报价。",
        ],
    ),
    Col::new(
        "gpus_before",
        10.0,
        [
            "GPUs before",
            "原 GPU 数",
            "GPUs rented then.",
            "原租用 GPU 数。",
        ],
    ),
    Col::new(
        "mode_before",
        14.0,
        [
            "Mode before",
            "原计费方式",
            "Billing mode then.",
            "原计费方式。",
        ],
    ),
    Col::new(
        "tco_before",
        14.0,
        [
            "TCO before",
            "原月度总成本",
            "Monthly TCO then.",
            "原月度总成本。",
        ],
    ),
    Col::new(
        "gpu_after",
        22.0,
        ["GPU now", "现 GPU", "This plan's offer.", "本方案的报价。"],
    ),
    Col::new(
        "gpus_after",
        10.0,
        [
            "GPUs now",
            "现 GPU 数",
            "GPUs rented now.",
            "现租用 GPU 数。",
        ],
    ),
    Col::new(
        "mode_after",
        14.0,
        [
            "Mode now",
            "现计费方式",
            "Billing mode now.",
            "现计费方式。",
        ],
    ),
    Col::new(
        "tco_after",
        14.0,
        [
            "TCO now",
            "现月度总成本",
            "Monthly TCO now.",
            "现月度总成本。",
        ],
    ),
    Col::new(
        "tco_change",
        14.0,
        [
            "Change",
            "变化",
            "TCO now less TCO before.",
            "现总成本减原总成本。",
        ],
    ),
];
const WORKLOAD: u16 = at(&COLUMNS, "workload");
const TCO_CHANGE: u16 = at(&COLUMNS, "tco_change");
/// The last column.
const LAST: u16 = COLUMNS.len() as u16 - 1;

/// Where one plan's outcome for a workload goes: its GPU, count, mode and TCO.
struct OutcomeCols {
    gpu: u16,
    gpus: u16,
    mode: u16,
    tco: u16,
}

/// The earlier plan's outcome and this plan's. The inputs that differ show their value before
/// and now in the outcomes' GPU columns.
const BEFORE: OutcomeCols = OutcomeCols {
    gpu: at(&COLUMNS, "gpu_before"),
    gpus: at(&COLUMNS, "gpus_before"),
    mode: at(&COLUMNS, "mode_before"),
    tco: at(&COLUMNS, "tco_before"),
};
const AFTER: OutcomeCols = OutcomeCols {
    gpu: at(&COLUMNS, "gpu_after"),
    gpus: at(&COLUMNS, "gpus_after"),
    mode: at(&COLUMNS, "mode_after"),
    tco: at(&COLUMNS, "tco_after"),
};

/// The blocks below the workloads (the budgets, the inputs that differ): their titles and
/// labels in the workload column; the budgets' figures in the GPU before column.
const LABEL: u16 = WORKLOAD;
const VALUE: u16 = BEFORE.gpu;

/// Writes the Diff tab: one row per workload, then the budgets, then the inputs that differ.
/// Empty when the run has no `--compare`.
pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let Some((old, d)) = &cx.calc.compared else {
        return Ok(Extent::new(0, 0));
    };
    cx.header(ws, 0, &heads_of(&COLUMNS))?;
    let r = write_workloads(ws, cx, d)?;
    let r = write_budgets(ws, cx, old, d, r + 2)?;
    let r = write_inputs(ws, cx, d, r + 2)?;
    widths(ws, &widths_of(&COLUMNS))?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(r, LAST))
}

/// One row per workload of either plan: its outcome before and now, and the TCO's change.
/// Returns the last row written (0 when none).
fn write_workloads(ws: &mut Worksheet, cx: &Ctx, d: &Diff) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let mut r = 0;
    for w in &d.workloads {
        r += 1;
        text(ws, r, WORKLOAD, &w.name, &s.text)?;
        write_outcome(ws, cx, r, &BEFORE, &w.before)?;
        write_outcome(ws, cx, r, &AFTER, &w.after)?;
        if let Some(c) = w.tco_change {
            number(ws, r, TCO_CHANGE, c, &s.money_bold)?;
        }
    }
    Ok(r)
}

/// One plan's outcome for a workload in the columns `c`: its GPU, count, mode and TCO; or
/// "unplanned" when the plan could not place it, "(absent)" when the plan lacks it.
fn write_outcome(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    c: &OutcomeCols,
    o: &Option<Outcome>,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    match o {
        Some(Outcome {
            gpu: Some(g),
            gpus,
            mode,
            tco,
        }) => {
            text(ws, r, c.gpu, g, &s.text)?;
            if let Some(n) = gpus {
                number(ws, r, c.gpus, *n, &s.integer)?;
            }
            let m = mode
                .as_deref()
                .and_then(crate::plan::Mode::parse)
                .map_or(mode.clone().unwrap_or_default(), |m| {
                    m.label(cx.lang).to_string()
                });
            text(ws, r, c.mode, &m, &s.text)?;
            if let Some(t) = tco {
                number(ws, r, c.tco, *t, &s.money)?;
            }
        }
        Some(_) => text(
            ws,
            r,
            c.gpu,
            crate::labels::layout::UNPLANNED.get(cx.lang),
            &s.bad,
        )?,
        None => text(ws, r, c.gpu, cx.t("(absent)", "（无）"), &s.muted)?,
    }
    Ok(())
}

/// From row `r`: which plan this one is compared with, then the budget before, now and its
/// change. Returns the last row written.
fn write_budgets(
    ws: &mut Worksheet,
    cx: &Ctx,
    old: &str,
    d: &Diff,
    r: u32,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    text(
        ws,
        r,
        LABEL,
        &format!("{} {old}", cx.t("Compared with", "对比")),
        &s.subtitle,
    )?;
    let r = write_totals(ws, cx, d, r)?;
    let r = write_bridge(ws, cx, d, r)?;
    let r = write_ceilings(ws, cx, d, r)?;
    write_cuts(ws, cx, d, r)
}

/// After row `r`: the budget before, now and its change, then the same with the fleet.
/// Returns the last row written.
fn write_totals(ws: &mut Worksheet, cx: &Ctx, d: &Diff, mut r: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    for (label, v) in [
        (cx.t("Budget before", "原预算"), d.total_with_margin_before),
        (cx.t("Budget now", "现预算"), d.total_with_margin_after),
        (cx.t("Change", "变化"), d.total_with_margin_change),
        (
            cx.t("Budget with the fleet before", "原卡群方案预算"),
            d.budget_with_fleet_before,
        ),
        (
            cx.t("Budget with the fleet now", "现卡群方案预算"),
            d.budget_with_fleet_after,
        ),
        (
            cx.t("Change with the fleet", "卡群方案预算变化"),
            d.budget_with_fleet_change,
        ),
    ] {
        r += 1;
        text(ws, r, LABEL, label, &s.bold)?;
        if let Some(v) = v {
            number(ws, r, VALUE, v, &s.money)?;
        }
    }
    Ok(r)
}

/// After row `r`: the change with the fleet in parts that add up to it (gpuplan diff's bridge).
/// Returns the last row written.
fn write_bridge(ws: &mut Worksheet, cx: &Ctx, d: &Diff, mut r: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let Some(b) = d.bridge() else {
        return Ok(r);
    };
    for (label, v, bold) in [
        (
            cx.t("  Of it: the workloads' TCO", "  其中：各负载总成本"),
            b.workloads,
            false,
        ),
        (
            cx.t("  Of it: trial reserve and ops", "  其中：试错预留与运维"),
            b.reserve_and_ops,
            false,
        ),
        (
            cx.t("  Of it: safety margin", "  其中：安全边际"),
            b.margin,
            false,
        ),
        (
            cx.t("  Of it: fleet saving", "  其中：卡群节省"),
            b.fleet,
            false,
        ),
        (cx.t("  The parts together", "  各项合计"), b.total, true),
    ] {
        r += 1;
        text(ws, r, LABEL, label, if bold { &s.bold } else { &s.text })?;
        number(ws, r, VALUE, v, &s.money)?;
    }
    Ok(r)
}

/// After row `r`, where either plan has one: the budget ceiling before and now ("none" where
/// a plan has none). Returns the last row written.
fn write_ceilings(ws: &mut Worksheet, cx: &Ctx, d: &Diff, mut r: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    if d.budget_ceiling_before.is_none() && d.budget_ceiling_after.is_none() {
        return Ok(r);
    }
    for (label, v) in [
        (
            cx.t("Budget ceiling before", "原预算上限"),
            d.budget_ceiling_before,
        ),
        (
            cx.t("Budget ceiling now", "现预算上限"),
            d.budget_ceiling_after,
        ),
    ] {
        r += 1;
        text(ws, r, LABEL, label, &s.bold)?;
        match v {
            Some(v) => number(ws, r, VALUE, v, &s.money)?,
            None => text(ws, r, VALUE, cx.t("none", "未设"), &s.muted)?,
        };
    }
    Ok(r)
}

/// After row `r`, where either plan lists cuts: the cuts before and now, how many and whether
/// they meet the ceiling. Returns the last row written.
fn write_cuts(ws: &mut Worksheet, cx: &Ctx, d: &Diff, mut r: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    if d.cuts_before.is_none() && d.cuts_after.is_none() {
        return Ok(r);
    }
    for (label, c) in [
        (cx.t("Cuts before", "原降级方案"), d.cuts_before),
        (cx.t("Cuts now", "现降级方案"), d.cuts_after),
    ] {
        r += 1;
        text(ws, r, LABEL, label, &s.bold)?;
        let said = CutsView::said(c);
        text(ws, r, VALUE, said.get(cx.lang), &s.text)?;
    }
    Ok(r)
}

/// From row `r`: how many inputs differ, each with its value before and now, and a note when
/// the earlier plan (a workbook) did not record every input. Returns the last row written.
fn write_inputs(ws: &mut Worksheet, cx: &Ctx, d: &Diff, mut r: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    text(
        ws,
        r,
        LABEL,
        &if d.inputs_changed.is_empty() {
            cx.t("Inputs: the same", "输入：相同").to_string()
        } else {
            format!(
                "{} ({})",
                cx.t("Inputs that differ", "不同的输入"),
                d.inputs_changed.len()
            )
        },
        &s.subtitle,
    )?;
    for c in &d.inputs_changed {
        r += 1;
        text(ws, r, LABEL, &c.key, &s.text)?;
        text(
            ws,
            r,
            BEFORE.gpu,
            c.before.as_deref().unwrap_or("—"),
            &s.text,
        )?;
        text(ws, r, AFTER.gpu, c.after.as_deref().unwrap_or("—"), &s.text)?;
    }
    let offers = d.one_sided_offers();
    if !offers.is_empty() {
        r += 1;
        let said = offers.join("; ");
        text(
            ws,
            r,
            LABEL,
            Said::new(
                format!("Offer terms recorded by one plan only, not compared: {said}"),
                format!("仅一方记录的报价条款，未比较：{said}"),
            )
            .get(cx.lang),
            &s.muted,
        )?;
    }
    if !d.inputs_complete {
        r += 1;
        text(
            ws,
            r,
            LABEL,
            cx.t(
                "A plan workbook records its assumptions, its offers' prices and terms and its input's SHA-256; compare with the earlier plan's JSON to see every workload column.",
                "方案工作簿只记录参数、报价价格与条款和输入文件 SHA-256；与原方案的 JSON 对比可看到所有负载列。",
            ),
            &s.muted,
        )?;
    }
    Ok(r)
}
