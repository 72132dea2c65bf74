//! Plan: per workload the chosen candidate's sizing — memory, concurrency, replicas,
//! redundancy, instances, GPUs, utilization — then its billing inputs (prices and terms, editable)
//! and the monthly costs as live Excel formulas over them, and the advice in the seeds' terms.

use super::live::{cell, result, Live};
use super::{Ctx, Extent};
use crate::lang::Lang;
use crate::model::{GpuOffer, Workload};
use crate::plan::{Candidate, Chosen, Hidden, Mode};
use crate::write::style::{number, text, Styles};
use rust_xlsxwriter::{Format, Formula, Note, Worksheet, XlsxError};
use std::collections::HashMap;

/// The columns, in order: key (a formula or input name, or a label), English and Chinese
/// headers and notes.
pub const COLUMNS: [[&str; 5]; 42] = [
    ["name", "Workload", "负载", "The workload's name.", "负载名称。"],
    ["kind", "Kind", "类型", "What it does.", "任务类型。"],
    ["model", "Model", "模型", "The model as resolved (a ~ marks a guessed architecture).", "解析后的模型（~ 表示架构为推测）。"],
    ["engine", "Engine", "引擎", "The serving engine or trainer whose profile sized it (the Assumptions tab lists the profile's figures); blank: the Assumptions sheet's figures.", "按其配置估算的推理引擎或训练框架（参数页列出配置数值）；空白表示使用参数表数值。"],
    ["gpu", "GPU", "GPU", "The chosen GPU offer.", "选中的 GPU 报价。"],
    ["required_vram_gib", "Required memory (GiB)", "所需显存(GiB)", "Peak memory of one replica plus the headroom (vram_headroom).", "单副本峰值显存加余量。"],
    ["replica_vram_gib", "Replica memory (GiB)", "副本显存(GiB)", "Memory of the GPUs of one replica.", "单副本所有 GPU 的显存。"],
    ["concurrency_per_replica", "Concurrency per replica", "单副本并发", "Concurrent requests one replica serves (memory and latency goal).", "单副本可服务的并发请求数（受显存与时延目标限制）。"],
    ["replicas", "Replicas", "副本数", "Replicas for the peak concurrency and target throughput, before redundancy.", "满足峰值并发与目标吞吐的副本数（未含冗余）。"],
    ["redundancy_used", "Redundancy", "冗余", "Extra share of instances (rounded up).", "冗余比例（向上取整）。"],
    ["instances", "Instances", "实例数", "ceil(replicas × (1 + redundancy)).", "ceil(副本数 × (1 + 冗余))。"],
    ["gpus_per_replica", "GPUs per replica", "单副本 GPU", "A power of two (tensor parallel), at most max_gpus.", "2 的幂（张量并行），不超过 max_gpus。"],
    ["gpus_total", "GPUs", "GPU 数", "Instances × GPUs per replica.", "实例数 × 单副本 GPU 数。"],
    ["run_hours", "Hours per month", "每月小时", "Hours each instance runs per month.", "每个实例每月运行小时数。"],
    ["utilization", "Utilization", "利用率", "Hours ÷ hours in the month.", "运行小时 ÷ 当月小时数。"],
    ["mode", "Billing mode", "计费方式", "The cheapest allowed mode when planned. It stays the plan's choice when prices are edited; the Billing tab shows if another becomes cheaper.", "规划时最便宜的可用方式；修改价格后仍按此方式计费，计费对比页可看其他方式。"],
    ["price_on_demand", "On-demand price per GPU-hour", "按量单价(每卡每小时)", "Editable: the costs to the right recompute. A later row on the same offer repeats the first row's prices by formula, so one edit there reprices every workload on the offer. Inputs are orange; formula cells are locked: to price a later row's workload alone, unprotect the sheet (Review → Unprotect Sheet; no password) and type over its cell.", "可修改：右侧费用自动重算。同一报价的后续行以公式引用第一行的价格，改第一行即更新该报价的所有负载；输入单元格为橙色，公式单元格已锁定：如需单独修改后续某行的价格，请先撤销工作表保护（审阅 → 撤销工作表保护，无密码）再改该单元格。"],
    ["price_monthly", "Monthly price per GPU", "包月单价(每卡)", "Editable.", "可修改。"],
    ["price_spot", "Spot price per GPU-hour", "竞价单价(每卡每小时)", "Editable.", "可修改。"],
    ["price_reserved", "Reserved price per GPU-month", "预留单价(每卡每月)", "Editable.", "可修改。"],
    ["billing_granularity_min", "Billing granularity (min)", "计费粒度(分钟)", "Editable: on-demand time is billed up to the next multiple.", "可修改：按量时长按此向上取整。"],
    ["min_rental_min", "Minimum rental (min)", "最小起租(分钟)", "Editable: least minutes billed per start.", "可修改：每次启动最少计费分钟。"],
    ["runs_per_month", "Runs per month", "每月启动次数", "Starts per month (each pays a cold start).", "每月启动次数（每次有冷启动）。"],
    ["storage_gb", "Storage (GB)", "存储(GB)", "GB kept in cloud storage.", "云存储 GB。"],
    ["egress_gb", "Egress (GB)", "出口流量(GB)", "GB transferred out per month.", "每月出口流量 GB。"],
    ["cost_on_demand", "On-demand cost", "按量费用", "Live formula: the Formulas sheet's cost_on_demand over this row and the Assumptions tab.", "实时公式：公式表 cost_on_demand。"],
    ["cost_monthly", "Monthly cost", "包月费用", "Live formula: cost_monthly.", "实时公式：cost_monthly。"],
    ["cost_spot", "Spot cost", "竞价费用", "Live formula: cost_spot; blank where spot is not allowed.", "实时公式：cost_spot；不允许时为空。"],
    ["cost_reserved", "Reserved cost", "预留费用", "Live formula: cost_reserved.", "实时公式：cost_reserved。"],
    ["cost_mixed", "Base + burst cost", "保底+弹性费用", "Live formula: cost_mixed.", "实时公式：cost_mixed。"],
    ["cold_start_cost", "Of which cold starts", "其中冷启动", "Of the chosen mode's cost, what pays for cold starts and billing rounding.", "所选方式费用中冷启动与取整的部分。"],
    ["rework_cost", "Of which spot rework", "其中竞价重跑", "Of the chosen mode's cost, the hours re-done after preemptions.", "所选方式费用中竞价回收重跑的部分。"],
    ["gpu_cost", "GPU cost", "GPU 费用", "The chosen mode's cost.", "所选方式的费用。"],
    ["storage_cost", "Storage cost", "存储费用", "Live formula: storage_cost.", "实时公式：storage_cost。"],
    ["egress_cost", "Egress cost", "流量费用", "Live formula: egress_cost.", "实时公式：egress_cost。"],
    ["tco", "Monthly TCO", "月度总成本", "GPU + storage + egress, per month.", "GPU + 存储 + 流量，每月。"],
    ["api", "Compared API", "对比 API", "The APIs row the workload names (its api column): what the same requests would cost through an API.", "负载 api 列指定的 API：相同请求量通过 API 调用的费用。"],
    ["api_monthly_cost", "API monthly cost", "API 月费用", "Live formula: api_monthly_cost, requests a day × tokens × the API's prices per million, × the days of the month.", "实时公式：api_monthly_cost，日请求量 × token 数 × 每百万 token 价格 × 当月天数。"],
    ["api_breakeven", "Break-even requests/day", "盈亏平衡日请求量", "Live: the requests a day at which the API would cost the self-hosted monthly TCO (requests a day × TCO ÷ API cost); below it the API is cheaper, above it renting GPUs is (as long as the planned GPUs carry that volume).", "实时公式：API 费用等于自建月度总成本时的日请求量（日请求量 × 总成本 ÷ API 费用）；低于此值 API 更便宜，高于此值租用 GPU 更便宜（前提是规划的 GPU 能承载该请求量）。"],
    ["cheapest_now", "Cheapest mode now", "当前最便宜方式", "Live: the mode with the lowest cost in this row's cost columns after any edit of prices or assumptions. When it differs from the billing mode, rerun gpuplan to re-plan.", "实时公式：修改价格或参数后本行费用最低的计费方式；与计费方式不同时，请重新运行 gpuplan。"],
    ["advice", "Advice (as planned)", "建议（规划时）", "Utilization, the rule of thumb, and the saving against the next best mode, as planned: it does not follow edits (the Cheapest mode now column does).", "利用率、经验法则，以及相对次优方案的节省（规划时，不随修改变化；“当前最便宜方式”列会随之变化）。"],
    ["notes", "Notes", "备注", "From the Workloads sheet.", "来自负载表。"],
];

/// The column of a key.
pub fn column(key: &str) -> u16 {
    COLUMNS.iter().position(|c| c[0] == key).unwrap_or(0) as u16
}

/// The sizing columns, from the required memory to the utilization: values, or live formulas of
/// their own.
fn sizing() -> std::ops::RangeInclusive<usize> {
    column("required_vram_gib") as usize..=column("utilization") as usize
}

/// Writes a live formula with its cached result, or the value with a note if it cannot be
/// translated.
#[allow(clippy::too_many_arguments)]
pub fn live_cell(
    ws: &mut Worksheet,
    row: u32,
    col: u16,
    formula: Result<String, String>,
    value: f64,
    fmt: &Format,
    cx: &Ctx,
) -> Result<(), XlsxError> {
    match formula {
        Ok(body) => {
            ws.write_formula_with_format(
                row,
                col,
                Formula::new(format!("={body}")).set_result(result(value)),
                fmt,
            )?;
        }
        Err(why) => {
            number(ws, row, col, value, fmt)?;
            let note = Note::new(format!(
                "{}: {why}",
                cx.t(
                    "Written as a value: no Excel translation",
                    "以数值写入：无法转换为 Excel 公式"
                )
            ))
            .set_author("gpuplan");
            ws.insert_note(row, col, &note)?;
        }
    }
    Ok(())
}

/// Writes a live formula whose value is text, with its cached text.
pub fn live_text(
    ws: &mut Worksheet,
    row: u32,
    col: u16,
    body: &str,
    cached: &str,
    fmt: &Format,
) -> Result<(), XlsxError> {
    ws.write_formula_with_format(
        row,
        col,
        Formula::new(format!("={body}")).set_result(crate::write::style::clip(cached)),
        fmt,
    )?;
    Ok(())
}

/// The label of the cheapest of a candidate's priced modes (the first of equals, as MATCH
/// finds it), the cached value of a [`super::live::cheapest_label`] cell.
pub fn cheapest_now(c: &crate::plan::Candidate, lang: Lang) -> &'static str {
    let mut best: Option<(Mode, f64)> = None;
    for m in Mode::ALL {
        if let Some(v) = c.cost(m) {
            if best.is_none_or(|(_, b)| v < b) {
                best = Some((m, v));
            }
        }
    }
    best.map_or("", |(m, _)| m.label(lang))
}

/// The quantities of a workload written as editable inputs on its row.
const ROW_QUANTITIES: [&str; 3] = ["runs_per_month", "storage_gb", "egress_gb"];

/// Writes the Plan tab: the header, one row per workload, the column widths and the frozen
/// header and names.
pub fn write(ws: &mut Worksheet, cx: &Ctx, live: &Live) -> Result<Extent, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let cols: Vec<[&str; 4]> = COLUMNS.iter().map(|c| [c[1], c[2], c[3], c[4]]).collect();
    cx.header(ws, 0, &cols)?;
    // The row that holds each offer's prices.
    let mut first_row: HashMap<usize, u32> = HashMap::new();
    for (i, w) in plan.input.workloads.iter().enumerate() {
        let r = i as u32 + 1;
        write_workload(ws, cx, r, w)?;
        let Some((c, ch)) = cx.chosen(i) else {
            text(ws, r, column("gpu"), cx.t("unplanned", "未规划"), &s.bad)?;
            let why = plan.workloads[i].unplanned.as_deref().unwrap_or("");
            text(ws, r, column("advice"), why, &s.text)?;
            continue;
        };
        let first = *first_row.entry(c.offer).or_insert(r);
        let row = PlanRow {
            cx,
            live,
            r,
            w,
            c,
            ch,
        };
        row.write(ws, first)?;
    }
    let widths = column_widths();
    crate::write::style::widths(ws, &widths)?;
    let labels: Vec<&str> = COLUMNS.iter().map(|c| cx.t(c[1], c[2])).collect();
    crate::write::style::fit_header_height(ws, 0, &labels, &widths)?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(
        plan.workloads.len() as u32,
        COLUMNS.len() as u16 - 1,
    ))
}

/// The width of each column.
fn column_widths() -> Vec<f64> {
    COLUMNS
        .iter()
        .map(|c| match c[0] {
            "name" | "model" | "gpu" => 22.0,
            "engine" => 13.0,
            "kind" => 12.0,
            "advice" => 90.0,
            "notes" => 40.0,
            "mode" | "cheapest_now" | "api" => 16.0,
            _ => 13.0,
        })
        .collect()
}

/// What every row has, planned or not: the workload's name, kind, model, engine and notes.
fn write_workload(ws: &mut Worksheet, cx: &Ctx, r: u32, w: &Workload) -> Result<(), XlsxError> {
    let s = &cx.s;
    text(ws, r, column("name"), &w.name, &s.text)?;
    text(
        ws,
        r,
        column("kind"),
        if cx.lang == Lang::Zh {
            w.kind.zh()
        } else {
            w.kind.key()
        },
        &s.text,
    )?;
    text(
        ws,
        r,
        column("model"),
        w.model.as_ref().map_or("", |m| m.name.as_str()),
        &s.text,
    )?;
    text(
        ws,
        r,
        column("engine"),
        w.engine.as_deref().unwrap_or(""),
        &s.text,
    )?;
    text(ws, r, column("notes"), &w.notes, &s.text)
}

/// The format of a key's cell: `live` for a formula whose value may change with edits.
fn value_format<'s>(s: &'s Styles, key: &str, v: f64, live: bool) -> &'s Format {
    match key {
        "required_vram_gib" | "replica_vram_gib" => &s.gib,
        "redundancy_used" | "utilization" => &s.pct,
        "concurrency_per_replica"
        | "replicas"
        | "instances"
        | "gpus_per_replica"
        | "gpus_total"
        | "runs_per_month" => &s.integer,
        "billing_granularity_min" | "min_rental_min" => &s.general,
        k if k.starts_with("price_")
            || k.starts_with("cost_")
            || k.ends_with("_cost")
            || k == "tco" =>
        {
            &s.money
        }
        _ if live => &s.live_number,
        _ => s.number_for(v),
    }
}

/// The format of an editable input.
fn input_format<'s>(s: &'s Styles, key: &str) -> &'s Format {
    match key {
        k if k.starts_with("price_") => &s.input_money,
        "runs_per_month" => &s.input_integer,
        _ => &s.input,
    }
}

/// The row of a planned workload: what its cells are written from.
struct PlanRow<'a> {
    cx: &'a Ctx<'a>,
    live: &'a Live,
    /// The sheet row (the header is row 0).
    r: u32,
    w: &'a Workload,
    c: &'a Candidate,
    ch: &'a Chosen,
}

impl PlanRow<'_> {
    /// Writes the row after the workload's own columns; `first` is the row that holds the
    /// prices of its offer.
    fn write(&self, ws: &mut Worksheet, first: u32) -> Result<(), XlsxError> {
        self.write_choice(ws)?;
        self.write_inputs(ws, first)?;
        self.write_sizing(ws)?;
        self.write_mode_costs(ws)?;
        self.write_totals(ws)?;
        if let Some(api) = &self.w.api {
            self.write_api(ws, api)?;
        }
        self.write_cheapest_now(ws)
    }

    /// A row input's value as the candidate was evaluated with it.
    fn input_value(&self, name: &str) -> Option<f64> {
        self.cx
            .plan
            .inputs
            .iter()
            .position(|x| x.name == name)
            .and_then(|k| self.ch.inputs.get(k).copied())
    }

    /// A value of the candidate: a formula's, else a row input's.
    fn value(&self, name: &str) -> Option<f64> {
        self.cx
            .plan
            .value(self.c, name)
            .or_else(|| self.input_value(name))
    }

    /// The cell of this row a live formula reads `v` from: the row inputs, and the sizing
    /// columns (values, or formulas of their own); `None` for any other name.
    fn in_row(&self, v: &str) -> Option<String> {
        let at = COLUMNS.iter().position(|c| c[0] == v)? as u16;
        let usable = GpuOffer::TERMS.contains(&v)
            || ROW_QUANTITIES.contains(&v)
            || sizing().contains(&(at as usize));
        usable.then(|| cell(None, self.r, at))
    }

    /// The live formula of `name` over this row's cells and the candidate's other values.
    fn formula(&self, name: &str) -> Result<String, String> {
        self.live
            .candidate(name, &|v| self.in_row(v), &|v| self.value(v))
    }

    /// The GPU offer, the billing mode and the advice (with the compared API's, if any).
    fn write_choice(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let (cx, r, ch, plan) = (self.cx, self.r, self.ch, self.cx.plan);
        let s = &cx.s;
        text(
            ws,
            r,
            column("gpu"),
            &plan.input.gpus[self.c.offer].label(),
            &s.text,
        )?;
        text(ws, r, column("mode"), ch.mode.label(cx.lang), &s.text)?;
        let mut advice = ch.advice.text(cx.lang);
        if let Some(api) = &self.w.api {
            let cost = plan.value(self.c, "api_monthly_cost").unwrap_or(0.0);
            let per_day = self.w.numbers.requests_per_day.unwrap_or(0.0);
            let currency = plan.input.assumptions.currency();
            advice.push_str(if cx.lang == Lang::Zh { "；" } else { "; " });
            advice.push_str(&crate::words::api_text(
                api,
                per_day,
                cost,
                ch.tco,
                crate::plan::api_breakeven(per_day, ch.tco, cost),
                &|v| crate::report::money(&currency, v),
                cx.lang,
            ));
        }
        text(ws, r, column("advice"), &advice, &s.text)
    }

    /// Row inputs: the offer's prices and terms (blank where not offered), and quantities.
    /// The first row on an offer (`first`) holds its prices; later rows on the same offer
    /// repeat them by formula, so one edit reprices every workload on it.
    fn write_inputs(&self, ws: &mut Worksheet, first: u32) -> Result<(), XlsxError> {
        let (cx, r) = (self.cx, self.r);
        let s = &cx.s;
        let offer = &cx.plan.input.gpus[self.c.offer];
        for (key, v) in GpuOffer::TERMS.iter().zip(offer.terms()) {
            let Some(v) = v else { continue };
            if first == r {
                number(ws, r, column(key), v, input_format(s, key))?;
            } else {
                live_cell(
                    ws,
                    r,
                    column(key),
                    Ok(cell(None, first, column(key))),
                    v,
                    value_format(s, key, v, true),
                    cx,
                )?;
            }
        }
        for key in ROW_QUANTITIES {
            let v = self.input_value(key).unwrap_or(0.0);
            number(ws, r, column(key), v, input_format(s, key))?;
        }
        Ok(())
    }

    /// Sizing: values, or live formulas where they depend on editable figures.
    fn write_sizing(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let (cx, r) = (self.cx, self.r);
        for key in COLUMNS[sizing()].iter().map(|c| c[0]) {
            let v = self.value(key).unwrap_or(0.0);
            if self.live.is_live(key) {
                let fmt = value_format(&cx.s, key, v, true);
                live_cell(ws, r, column(key), self.formula(key), v, fmt, cx)?;
            } else {
                number(ws, r, column(key), v, value_format(&cx.s, key, v, false))?;
            }
        }
        Ok(())
    }

    /// The costs of every offered and allowed mode, and of the chosen mode's cost what pays
    /// for cold starts and what for spot rework.
    fn write_mode_costs(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let (cx, r, ch) = (self.cx, self.r, self.ch);
        let s = &cx.s;
        for m in Mode::ALL {
            let key = format!("cost_{}", m.key());
            if let Some(v) = self.c.cost(m) {
                live_cell(ws, r, column(&key), self.formula(&key), v, &s.money, cx)?;
            }
        }
        let (cold_col, rework_col) = (column("cold_start_cost"), column("rework_cost"));
        let hidden_formula = ch
            .mode
            .hidden_formula()
            .filter(|h| cx.plan.column(h).is_some());
        for (col, kind, v) in [
            (cold_col, Hidden::ColdStarts, ch.cold_start_cost),
            (rework_col, Hidden::Rework, ch.rework_cost),
        ] {
            match hidden_formula {
                Some(h) if ch.mode.hidden() == Some(kind) => {
                    live_cell(ws, r, col, self.formula(h), v, &s.money, cx)?
                }
                _ => number(ws, r, col, 0.0, &s.money)?,
            }
        }
        Ok(())
    }

    /// The GPU cost (the chosen mode's), storage, egress and the monthly TCO over them.
    fn write_totals(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let (cx, r, ch) = (self.cx, self.r, self.ch);
        let s = &cx.s;
        let chosen_cost = cell(None, r, column(&format!("cost_{}", ch.mode.key())));
        live_cell(
            ws,
            r,
            column("gpu_cost"),
            Ok(chosen_cost),
            ch.gpu_cost,
            &s.money_bold,
            cx,
        )?;
        for key in ["storage_cost", "egress_cost"] {
            let v = self.value(key).unwrap_or(0.0);
            live_cell(ws, r, column(key), self.formula(key), v, &s.money, cx)?;
        }
        let tco = format!(
            "{}+{}+{}",
            cell(None, r, column("gpu_cost")),
            cell(None, r, column("storage_cost")),
            cell(None, r, column("egress_cost"))
        );
        live_cell(ws, r, column("tco"), Ok(tco), ch.tco, &s.money_bold, cx)
    }

    /// The compared API: its name, its monthly cost and the requests a day at which it would
    /// cost the monthly TCO.
    fn write_api(&self, ws: &mut Worksheet, api: &str) -> Result<(), XlsxError> {
        let (cx, r, ch) = (self.cx, self.r, self.ch);
        let s = &cx.s;
        text(ws, r, column("api"), api, &s.text)?;
        let cost = self.value("api_monthly_cost").unwrap_or(0.0);
        live_cell(
            ws,
            r,
            column("api_monthly_cost"),
            self.formula("api_monthly_cost"),
            cost,
            &s.money,
            cx,
        )?;
        let per_day = self.w.numbers.requests_per_day.unwrap_or(0.0);
        let (api_cell, tco_cell) = (
            cell(None, r, column("api_monthly_cost")),
            cell(None, r, column("tco")),
        );
        live_cell(
            ws,
            r,
            column("api_breakeven"),
            Ok(format!(
                "IF({api_cell}=0,0,{}*{tco_cell}/{api_cell})",
                crate::formula::excel_number(per_day)
            )),
            crate::plan::api_breakeven(per_day, ch.tco, cost),
            &s.integer,
            cx,
        )
    }

    /// The mode with the lowest cost in this row's cost columns, live after any edit.
    fn write_cheapest_now(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let (cx, r) = (self.cx, self.r);
        let labels: Vec<&str> = Mode::ALL.iter().map(|m| m.label(cx.lang)).collect();
        let costs = format!(
            "{}:{}",
            cell(None, r, column(&format!("cost_{}", Mode::ALL[0].key()))),
            cell(
                None,
                r,
                column(&format!("cost_{}", Mode::ALL[Mode::ALL.len() - 1].key()))
            )
        );
        live_text(
            ws,
            r,
            column("cheapest_now"),
            &super::live::cheapest_label(&costs, &labels),
            cheapest_now(self.c, cx.lang),
            &cx.s.text,
        )
    }
}
