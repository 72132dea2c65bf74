//! Plan: per workload the chosen candidate's sizing — memory, concurrency, replicas,
//! redundancy, instances, GPUs, utilization — then its billing inputs (prices and terms, editable)
//! and the monthly costs as live Excel formulas over them, and the advice in the seeds' terms.

use super::live::{absolute, cell, range, result, Live};
use super::{Ctx, Extent};
use crate::labels::{layout, Label};
use crate::lang::Lang;
use crate::model::{GpuOffer, Workload};
use crate::plan::{Candidate, Chosen, Hidden, Mode, Need};
use crate::write::style::{number, text, Styles};
use rust_xlsxwriter::{Format, Formula, Note, Worksheet, XlsxError};
use std::collections::HashMap;

/// What a Plan column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// Text: the workload's own fields, the choice, the compared API, the advice.
    Text,
    /// An editable input of the row: the offer's prices and terms, and the row's quantities.
    Input,
    /// A sizing figure: a value, or a live formula of its own where it depends on edits.
    Sizing,
    /// A live formula over the row's inputs and sizing: a cost, the TCO, the API's figures.
    Live,
}

/// How a Plan column's numbers are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Text,
    Gib,
    Pct,
    Integer,
    General,
    Money,
    /// A plain number: as many decimals as the value needs (or the live number format).
    Plain,
}

/// One Plan column: its key (a formula or input name, or a label), what it holds, how it looks,
/// its width, and its English and Chinese headers and notes.
pub struct Column {
    pub key: &'static str,
    pub holds: Holds,
    pub look: Look,
    pub width: f64,
    /// `[en, zh, en note, zh note]`.
    pub head: [&'static str; 4],
}

impl Column {
    const fn new(
        key: &'static str,
        holds: Holds,
        look: Look,
        width: f64,
        head: [&'static str; 4],
    ) -> Column {
        Column {
            key,
            holds,
            look,
            width,
            head,
        }
    }
}

/// The columns, in order, each with its key, what it holds, its look, width and headers. The
/// look sets the format of the sizing and input columns; the cost, TCO and API columns are
/// money (bold for the GPU cost and the TCO) and the break-even a whole number by their writers.
#[rustfmt::skip]
pub const COLUMNS: [Column; 44] = [
    Column::new("name", Holds::Text, Look::Text, 22.0, [layout::WORKLOAD.en, layout::WORKLOAD.zh, "The workload's name.", "负载名称。"]),
    Column::new("kind", Holds::Text, Look::Text, 12.0, ["Kind", "类型", "What it does.", "任务类型。"]),
    Column::new("model", Holds::Text, Look::Text, 22.0, ["Model", "模型", "The model as resolved (a ~ marks a guessed architecture).", "解析后的模型（~ 表示架构为推测）。"]),
    Column::new("engine", Holds::Text, Look::Text, 20.0, ["Engine", "引擎", "The serving engine or trainer whose profile sized it (the Assumptions tab lists the profile's figures); blank: the Assumptions sheet's figures. In brackets, the launch flags of the cache layout the plan assumes where the planner chose one the engine offers (-tp 8 -dcp 8).", "按其配置估算的推理引擎或训练框架（参数页列出配置数值）；空白表示使用参数表数值。括号内为规划选用的缓存布局的启动参数（引擎提供的布局，如 -tp 8 -dcp 8）。"]),
    Column::new("gpu", Holds::Text, Look::Text, 22.0, [layout::GPU.en, layout::GPU.zh, "The chosen GPU offer.", "选中的 GPU 报价。"]),
    Column::new("required_vram_gib", Holds::Sizing, Look::Gib, 13.0, ["Required memory (GiB)", "所需显存(GiB)", "Peak memory of one replica plus the headroom (vram_headroom).", "单副本峰值显存加余量。"]),
    Column::new("replica_vram_gib", Holds::Sizing, Look::Gib, 13.0, ["Replica memory (GiB)", "副本显存(GiB)", "Memory of the GPUs of one replica.", "单副本所有 GPU 的显存。"]),
    Column::new("concurrency_per_replica", Holds::Sizing, Look::Integer, 13.0, ["Concurrency per replica", "单副本并发", "Concurrent requests one replica serves (memory and latency goal).", "单副本可服务的并发请求数（受显存与时延目标限制）。"]),
    Column::new("replicas", Holds::Sizing, Look::Integer, 13.0, ["Replicas", "副本数", "Replicas for the peak concurrency and target throughput, before redundancy.", "满足峰值并发与目标吞吐的副本数（未含冗余）。"]),
    Column::new("redundancy_used", Holds::Sizing, Look::Pct, 13.0, ["Redundancy", "冗余", "Extra share of instances (rounded up).", "冗余比例（向上取整）。"]),
    Column::new("instances", Holds::Sizing, Look::Integer, 13.0, ["Instances", "实例数", "ceil(replicas × (1 + redundancy)).", "ceil(副本数 × (1 + 冗余))。"]),
    Column::new("gpus_per_replica", Holds::Sizing, Look::Integer, 13.0, ["GPUs per replica", "单副本 GPU", "A power of two, at most max_gpus: tensor parallel, or the layers split across them where the engine does that instead (splits_layers: transformers).", "2 的幂，不超过 max_gpus：张量并行；引擎按层拆分时为各层分布到各 GPU（splits_layers：transformers）。"]),
    Column::new("gpus_total", Holds::Sizing, Look::Integer, 13.0, [layout::GPUS.en, layout::GPUS.zh, "Instances × GPUs per replica.", "实例数 × 单副本 GPU 数。"]),
    Column::new("run_hours", Holds::Sizing, Look::Plain, 13.0, ["Hours per month", "每月小时", "Hours each instance runs per month.", "每个实例每月运行小时数。"]),
    Column::new("utilization", Holds::Sizing, Look::Pct, 13.0, ["Utilization", "利用率", "Hours ÷ hours in the month.", "运行小时 ÷ 当月小时数。"]),
    Column::new("mode", Holds::Text, Look::Text, 16.0, [layout::BILLING_MODE.en, layout::BILLING_MODE.zh, "The cheapest allowed mode when planned. It stays the plan's choice when prices are edited; the Billing tab shows if another becomes cheaper.", "规划时最便宜的可用方式；修改价格后仍按此方式计费，计费对比页可看其他方式。"]),
    Column::new("price_on_demand", Holds::Input, Look::Money, 13.0, [layout::offer_term("price_on_demand").en, layout::offer_term("price_on_demand").zh, "Editable: the costs to the right recompute. A later row on the same offer repeats the first row's prices by formula, so one edit there reprices every workload on the offer. Inputs are orange; formula cells are locked: to price a later row's workload alone, unprotect the sheet (Review → Unprotect Sheet; no password) and type over its cell.", "可修改：右侧费用自动重算。同一报价的后续行以公式引用第一行的价格，改第一行即更新该报价的所有负载；输入单元格为橙色，公式单元格已锁定：如需单独修改后续某行的价格，请先撤销工作表保护（审阅 → 撤销工作表保护，无密码）再改该单元格。"]),
    Column::new("price_monthly", Holds::Input, Look::Money, 13.0, [layout::offer_term("price_monthly").en, layout::offer_term("price_monthly").zh, "Editable. Where the offer has no price, type a quote into the blank cell: its cost column, which reads \"no price\" until then, follows.", "可修改。报价缺失时可在空白单元格中输入新报价：对应费用列（此前显示“无报价”）随之更新。"]),
    Column::new("price_spot", Holds::Input, Look::Money, 13.0, [layout::offer_term("price_spot").en, layout::offer_term("price_spot").zh, "Editable. Where the offer has no price, type a quote into the blank cell: its cost column, which reads \"no price\" until then, follows.", "可修改。报价缺失时可在空白单元格中输入新报价：对应费用列（此前显示“无报价”）随之更新。"]),
    Column::new("price_reserved", Holds::Input, Look::Money, 13.0, [layout::offer_term("price_reserved").en, layout::offer_term("price_reserved").zh, "Editable. Where the offer has no price, type a quote into the blank cell: its cost column, which reads \"no price\" until then, follows.", "可修改。报价缺失时可在空白单元格中输入新报价：对应费用列（此前显示“无报价”）随之更新。"]),
    Column::new("price_purchase", Holds::Input, Look::Money, 13.0, [layout::offer_term("price_purchase").en, layout::offer_term("price_purchase").zh, "Editable: the price of one card bought (the owned mode), with its share of the server. Blank: not for sale.", "可修改：自购一张卡的价格（自建模式），含分摊的服务器费用。空白表示不购买。"]),
    Column::new("billing_granularity_min", Holds::Input, Look::General, 13.0, [layout::offer_term("billing_granularity_min").en, layout::offer_term("billing_granularity_min").zh, "Editable: on-demand time is billed up to the next multiple.", "可修改：按量时长按此向上取整。"]),
    Column::new("min_rental_min", Holds::Input, Look::General, 13.0, [layout::offer_term("min_rental_min").en, layout::offer_term("min_rental_min").zh, "Editable: least minutes billed per start.", "可修改：每次启动最少计费分钟。"]),
    Column::new("runs_per_month", Holds::Input, Look::Integer, 13.0, ["Runs per month", "每月启动次数", "Starts per month (each pays a cold start).", "每月启动次数（每次有冷启动）。"]),
    Column::new("storage_gb", Holds::Input, Look::Plain, 13.0, ["Storage (GB)", "存储(GB)", "GB kept in cloud storage.", "云存储 GB。"]),
    Column::new("egress_gb", Holds::Input, Look::Plain, 13.0, ["Egress (GB)", "出口流量(GB)", "GB transferred out per month.", "每月出口流量 GB。"]),
    Column::new("cost_on_demand", Holds::Live, Look::Money, 13.0, ["On-demand cost", "按量费用", "Live formula: the Formulas sheet's cost_on_demand over this row and the Assumptions tab.", "实时公式：公式表 cost_on_demand。"]),
    Column::new("cost_monthly", Holds::Live, Look::Money, 13.0, ["Monthly cost", "包月费用", "Live formula: cost_monthly.", "实时公式：cost_monthly。"]),
    Column::new("cost_spot", Holds::Live, Look::Money, 13.0, ["Spot cost", "竞价费用", "Live formula: cost_spot; blank where spot is not allowed.", "实时公式：cost_spot；不允许时为空。"]),
    Column::new("cost_reserved", Holds::Live, Look::Money, 13.0, ["Reserved cost", "预留费用", "Live formula: cost_reserved.", "实时公式：cost_reserved。"]),
    Column::new("cost_mixed", Holds::Live, Look::Money, 13.0, ["Base + burst cost", "保底+弹性费用", "Live formula: cost_mixed.", "实时公式：cost_mixed。"]),
    Column::new("cost_owned", Holds::Live, Look::Money, 13.0, ["Owned cost", "自建费用", "Live formula: cost_owned, a month of the cards bought (depreciation, power, hosting).", "实时公式：cost_owned，自购卡一个月的费用（折旧、电费、托管）。"]),
    Column::new("cold_start_cost", Holds::Live, Look::Money, 13.0, ["Of which cold starts", "其中冷启动", "Of the chosen mode's cost, what pays for cold starts and billing rounding.", "所选方式费用中冷启动与取整的部分。"]),
    Column::new("rework_cost", Holds::Live, Look::Money, 13.0, ["Of which spot rework", "其中竞价重跑", "Of the chosen mode's cost, the hours re-done after preemptions.", "所选方式费用中竞价回收重跑的部分。"]),
    Column::new("gpu_cost", Holds::Live, Look::Money, 13.0, ["GPU cost", "GPU 费用", "The chosen mode's cost.", "所选方式的费用。"]),
    Column::new("storage_cost", Holds::Live, Look::Money, 13.0, ["Storage cost", "存储费用", "Live formula: storage_cost.", "实时公式：storage_cost。"]),
    Column::new("egress_cost", Holds::Live, Look::Money, 13.0, ["Egress cost", "流量费用", "Live formula: egress_cost.", "实时公式：egress_cost。"]),
    Column::new("tco", Holds::Live, Look::Money, 13.0, [layout::MONTHLY_TCO.en, layout::MONTHLY_TCO.zh, "GPU + storage + egress, per month.", "GPU + 存储 + 流量，每月。"]),
    Column::new("api", Holds::Text, Look::Text, 16.0, ["Compared API", "对比 API", "The APIs row the workload names (its api column): what the same requests would cost through an API.", "负载 api 列指定的 API：相同请求量通过 API 调用的费用。"]),
    Column::new("api_monthly_cost", Holds::Live, Look::Money, 13.0, ["API monthly cost", "API 月费用", "Live formula: api_monthly_cost, requests a day × tokens × the API's prices per million, × the days of the month.", "实时公式：api_monthly_cost，日请求量 × token 数 × 每百万 token 价格 × 当月天数。"]),
    Column::new("api_breakeven", Holds::Live, Look::Integer, 13.0, ["Break-even requests/day", "盈亏平衡日请求量", "Live: the requests a day at which the API would cost the self-hosted monthly TCO (requests a day × TCO ÷ API cost); below it the API is cheaper, above it renting GPUs is (as long as the planned GPUs carry that volume).", "实时公式：API 费用等于自建月度总成本时的日请求量（日请求量 × 总成本 ÷ API 费用）；低于此值 API 更便宜，高于此值租用 GPU 更便宜（前提是规划的 GPU 能承载该请求量）。"]),
    Column::new("cheapest_now", Holds::Text, Look::Text, 16.0, ["Cheapest mode now", "当前最便宜方式", "Live: the mode with the lowest cost in this row's cost columns after any edit of prices or assumptions. When it differs from the billing mode, rerun gpuplan to re-plan.", "实时公式：修改价格或参数后本行费用最低的计费方式；与计费方式不同时，请重新运行 gpuplan。"]),
    Column::new("advice", Holds::Text, Look::Text, 50.0, ["Advice (as planned)", "建议（规划时）", "Utilization, the rule of thumb, and the saving against the next best mode, as planned: it does not follow edits (the Cheapest mode now column does).", "利用率、经验法则，以及相对次优方案的节省（规划时，不随修改变化；“当前最便宜方式”列会随之变化）。"]),
    Column::new("notes", Holds::Text, Look::Text, 30.0, ["Notes", "备注", "From the Workloads sheet.", "来自负载表。"]),
];

/// The column of a key, for `const` items only: a key the table lacks fails the build there.
const fn column(key: &str) -> u16 {
    let mut i = 0;
    while i < COLUMNS.len() {
        if crate::plan::same_name(COLUMNS[i].key, key) {
            return i as u16;
        }
        i += 1;
    }
    panic!("the Plan tab has no such column")
}

/// The column of a key, if the Plan tab has one (a name a formula reads).
pub fn position(key: &str) -> Option<u16> {
    COLUMNS.iter().position(|c| c.key == key).map(|i| i as u16)
}

pub const NAME: u16 = column("name");
pub const KIND: u16 = column("kind");
pub const MODEL: u16 = column("model");
pub const ENGINE: u16 = column("engine");
pub const GPU: u16 = column("gpu");
pub const MODE: u16 = column("mode");
pub const PRICE_ON_DEMAND: u16 = column("price_on_demand");
pub const PRICE_MONTHLY: u16 = column("price_monthly");
pub const PRICE_PURCHASE: u16 = column("price_purchase");
pub const GPUS_TOTAL: u16 = column("gpus_total");
pub const COLD_START_COST: u16 = column("cold_start_cost");
pub const REWORK_COST: u16 = column("rework_cost");
pub const GPU_COST: u16 = column("gpu_cost");
pub const STORAGE_COST: u16 = column("storage_cost");
pub const EGRESS_COST: u16 = column("egress_cost");
pub const TCO: u16 = column("tco");
pub const API: u16 = column("api");
pub const API_MONTHLY_COST: u16 = column("api_monthly_cost");
pub const API_BREAKEVEN: u16 = column("api_breakeven");
pub const CHEAPEST_NOW: u16 = column("cheapest_now");
pub const ADVICE: u16 = column("advice");
pub const NOTES: u16 = column("notes");

/// Each mode's cost column, in `Mode::ALL`'s order.
const COSTS: [u16; Mode::ALL.len()] = [
    column("cost_on_demand"),
    column("cost_monthly"),
    column("cost_spot"),
    column("cost_reserved"),
    column("cost_mixed"),
    column("cost_owned"),
];

/// The column of a mode's cost.
pub fn cost_column(m: Mode) -> u16 {
    COSTS[m.index()]
}

/// The Plan tab's row of workload `w` (the header is row 0).
pub fn row(w: usize) -> u32 {
    w as u32 + 1
}

/// The cell of workload `w`'s column `col` on the Plan tab, as another tab reads it.
pub fn cell_of(cx: &Ctx, w: usize, col: u16) -> String {
    cell(Some(cx.sheet(super::Tab::Plan)), row(w), col)
}

/// The same cell with an absolute reference (`'Plan'!$AJ$2`).
pub fn absolute_of(cx: &Ctx, w: usize, col: u16) -> String {
    absolute(cx.sheet(super::Tab::Plan), row(w), col)
}

/// Column `col` over every workload's row; None when the plan has no workloads.
pub fn range_of(cx: &Ctx, col: u16) -> Option<String> {
    let n = cx.plan.workloads.len();
    (n > 0).then(|| range(cx.sheet(super::Tab::Plan), row(0), row(n - 1), col))
}

/// The numeric column named `name` (a formula or input) over every workload's row, where the
/// Plan tab has one: what a `total_<name>` sums.
pub fn range_named(cx: &Ctx, name: &str) -> Option<String> {
    let at = position(name).filter(|at| COLUMNS[*at as usize].holds != Holds::Text)?;
    range_of(cx, at)
}

/// The sizing columns, from the required memory to the utilization (values, or live formulas
/// of their own), each a required formula: checked when compiled.
const SIZING: [(u16, Need); 10] = {
    let mut out = [(0, Need::GPUS_TOTAL); 10];
    let (mut i, mut n) = (0, 0);
    while i < COLUMNS.len() {
        if matches!(COLUMNS[i].holds, Holds::Sizing) {
            out[n] = (i as u16, Need::of(COLUMNS[i].key));
            n += 1;
        }
        i += 1;
    }
    assert!(n == out.len(), "SIZING lists every sizing column");
    out
};

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

/// The columns of the offer's prices and terms, in `GpuOffer::TERMS`'s order.
const TERMS: [u16; GpuOffer::TERMS.len()] = {
    let mut out = [0; GpuOffer::TERMS.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = column(GpuOffer::TERMS[i]);
        i += 1;
    }
    out
};

/// The quantities of a workload written as editable inputs on its row.
const ROW_QUANTITIES: [u16; 3] = [
    column("runs_per_month"),
    column("storage_gb"),
    column("egress_gb"),
];

/// Writes the Plan tab: the header, one row per workload, the column widths and the frozen
/// header and names.
pub fn write(ws: &mut Worksheet, cx: &Ctx, live: &Live) -> Result<Extent, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let cols: Vec<[&str; 4]> = COLUMNS.iter().map(|c| c.head).collect();
    cx.header(ws, 0, &cols)?;
    // The row that holds each offer's prices.
    let mut first_row: HashMap<usize, u32> = HashMap::new();
    for (i, w) in plan.input.workloads.iter().enumerate() {
        let r = row(i);
        write_workload(ws, cx, r, i, w)?;
        let Some((c, ch)) = cx.chosen(i) else {
            text(ws, r, GPU, layout::UNPLANNED.get(cx.lang), &s.bad)?;
            let why = plan.workloads[i]
                .unplanned
                .as_ref()
                .map_or("", |u| u.get(cx.lang));
            text(ws, r, ADVICE, why, &s.wrap)?;
            fit_advice_and_notes(ws, r, why, &w.notes)?;
            continue;
        };
        let first = *first_row.entry(c.offer).or_insert(r);
        let row = PlanRow {
            cx,
            live,
            r,
            first,
            w,
            c,
            ch,
        };
        row.write(ws)?;
    }
    let widths: Vec<f64> = COLUMNS.iter().map(|c| c.width).collect();
    crate::write::style::widths(ws, &widths)?;
    let labels: Vec<&str> = COLUMNS.iter().map(|c| cx.t(c.head[0], c.head[1])).collect();
    crate::write::style::fit_header_height(ws, 0, &labels, &widths)?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(
        cx.plan.workloads.len() as u32,
        COLUMNS.len() as u16 - 1,
    ))
}

/// The first row the Plan tab prints: the cuts' section, or without cuts the printed block,
/// two rows under the table.
pub fn printed_from(cx: &Ctx) -> u32 {
    cx.plan.workloads.len() as u32 + 2
}

/// What every row has, planned or not: the workload's name, kind, model, engine and notes.
fn write_workload(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    i: usize,
    w: &Workload,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    text(ws, r, NAME, &w.name, &s.text)?;
    text(ws, r, KIND, w.kind.label().get(cx.lang), &s.text)?;
    text(
        ws,
        r,
        MODEL,
        w.model.as_ref().map_or("", |m| m.name.as_str()),
        &s.text,
    )?;
    // The engine, and the launch flags of a cache layout the planner chose.
    let engine = w.engine.as_deref().unwrap_or("");
    let engine = match cx.plan.layout(i) {
        Some((_, flags)) if engine.is_empty() => flags,
        Some((_, flags)) => format!("{engine} ({flags})"),
        None => engine.to_string(),
    };
    text(ws, r, ENGINE, &engine, &s.text)?;
    text(ws, r, NOTES, &w.notes, &s.wrap)
}

/// Row `r`'s height, so that its advice and notes wrap whole in their columns: they printed
/// cut off at the page's edge (#34 item 2).
fn fit_advice_and_notes(
    ws: &mut Worksheet,
    r: u32,
    advice: &str,
    notes: &str,
) -> Result<(), XlsxError> {
    let width = |c: u16| COLUMNS[c as usize].width;
    crate::write::style::fit_row_height(ws, r, &[(advice, width(ADVICE)), (notes, width(NOTES))])
}

/// The format of a column's number: `live` for a formula whose value may change with edits.
fn value_format(s: &Styles, look: Look, v: f64, live: bool) -> &Format {
    match look {
        Look::Gib => &s.gib,
        Look::Pct => &s.pct,
        Look::Integer => &s.integer,
        Look::General => &s.general,
        Look::Money => &s.money,
        Look::Text | Look::Plain if live => &s.live_number,
        Look::Text | Look::Plain => s.number_for(v),
    }
}

/// The format of an editable input.
fn input_format(s: &Styles, look: Look) -> &Format {
    match look {
        Look::Money => &s.input_money,
        Look::Integer => &s.input_integer,
        _ => &s.input,
    }
}

/// The row of a planned workload: what its cells are written from.
struct PlanRow<'a> {
    cx: &'a Ctx<'a>,
    live: &'a Live,
    /// The sheet row (the header is row 0).
    r: u32,
    /// The row that holds the prices of its offer (this row, or an earlier one on the offer).
    first: u32,
    w: &'a Workload,
    c: &'a Candidate,
    ch: &'a Chosen,
}

impl PlanRow<'_> {
    /// Writes the row after the workload's own columns.
    fn write(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        self.write_choice(ws)?;
        self.write_inputs(ws, self.first)?;
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
        let at = position(v)?;
        let usable = matches!(COLUMNS[at as usize].holds, Holds::Input | Holds::Sizing);
        // A price the offer lacks is a blank cell in its first row only (later rows repeat
        // the prices it has): a quote typed there is read from there.
        let missing = self.missing_terms().any(|(term, _)| term == at);
        usable.then(|| cell(None, if missing { self.first } else { self.r }, at))
    }

    /// The offer's prices and terms it lacks: their columns and `has_` flags (`has_spot` for
    /// `price_spot`; None for a term without one).
    fn missing_terms(&self) -> impl Iterator<Item = (u16, Option<String>)> + '_ {
        let offer = &self.cx.plan.input.gpus[self.c.offer];
        TERMS
            .into_iter()
            .zip(offer.terms())
            .filter(|(_, v)| v.is_none())
            .map(|(at, _)| {
                let flag = COLUMNS[at as usize]
                    .key
                    .strip_prefix("price_")
                    .map(|m| format!("has_{m}"));
                (at, flag)
            })
    }

    /// The cost of mode `m`, which the offer lacks a price for, as a formula guarded by the
    /// blank price cell, where a quote typed there would price the mode (#34 item 11): "no
    /// price" until a number is typed, so that a blank is never read as ¥0 (the cheapest mode
    /// now skips text). None where no quote would price it (spot on a workload that does not
    /// tolerate interruptions) or the formulas do not translate.
    fn quoted_cost(&self, m: Mode, none: &str) -> Option<String> {
        let missing: Vec<(String, String)> = self
            .missing_terms()
            .filter_map(|(at, flag)| Some((flag?, cell(None, self.first, at))))
            .collect();
        let quoted = |v: &str| missing.iter().any(|(f, _)| f == v);
        let value = |v: &str| self.value(v);
        let allow = format!("allow_{}", m.key());
        if missing.is_empty() || !self.live.allowed_with_quote(&allow, &quoted, &value) {
            return None;
        }
        let cells = |v: &str| -> Option<String> {
            match missing.iter().find(|(f, _)| f == v) {
                Some((_, at)) => Some(format!("ISNUMBER({at})")),
                None => self.in_row(v),
            }
        };
        let guard = self.live.candidate(&allow, &cells, &value).ok()?;
        // A mode whose allowance reads none of the blank prices is not one a quote prices.
        if !guard.contains("ISNUMBER(") {
            return None;
        }
        let cost = self
            .live
            .candidate(&format!("cost_{}", m.key()), &cells, &value);
        Some(format!(
            "IF({guard},{},{})",
            cost.ok()?,
            super::live::excel_text(none)
        ))
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
        text(ws, r, GPU, &plan.input.gpus[self.c.offer].label(), &s.text)?;
        text(ws, r, MODE, ch.mode.label(cx.lang), &s.text)?;
        let mut advice = ch.advice.said();
        if let Some(api) = &self.w.api {
            let cost = plan.value(self.c, "api_monthly_cost").unwrap_or(0.0);
            let per_day = self.w.numbers.requests_per_day.unwrap_or(0.0);
            let currency = plan.input.assumptions.currency();
            advice.push(&Label::new("; ", "；"));
            advice.push(&crate::labels::words::api_text(
                api,
                per_day,
                cost,
                ch.tco,
                crate::plan::api_breakeven(per_day, ch.tco, cost),
                &|v| crate::model::money(&currency, v),
            ));
        }
        let advice = advice.get(cx.lang);
        text(ws, r, ADVICE, advice, &s.wrap)?;
        fit_advice_and_notes(ws, r, advice, &self.w.notes)
    }

    /// Row inputs: the offer's prices and terms (blank where not offered), and quantities.
    /// The first row on an offer (`first`) holds its prices; later rows on the same offer
    /// repeat them by formula, so one edit reprices every workload on it.
    fn write_inputs(&self, ws: &mut Worksheet, first: u32) -> Result<(), XlsxError> {
        let (cx, r) = (self.cx, self.r);
        let s = &cx.s;
        let offer = &cx.plan.input.gpus[self.c.offer];
        for (at, v) in TERMS.into_iter().zip(offer.terms()) {
            let look = COLUMNS[at as usize].look;
            let Some(v) = v else {
                // A price the offer lacks: a blank input cell, unlocked, where a new quote can
                // be typed (#34 item 11).
                if first == r {
                    ws.write_blank(r, at, input_format(s, look))?;
                }
                continue;
            };
            if first == r {
                number(ws, r, at, v, input_format(s, look))?;
            } else {
                let fmt = value_format(s, look, v, true);
                live_cell(ws, r, at, Ok(cell(None, first, at)), v, fmt, cx)?;
            }
        }
        for at in ROW_QUANTITIES {
            let col = &COLUMNS[at as usize];
            let v = self.input_value(col.key).unwrap_or(0.0);
            number(ws, r, at, v, input_format(s, col.look))?;
        }
        Ok(())
    }

    /// Sizing: values, or live formulas where they depend on editable figures.
    fn write_sizing(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let (cx, r) = (self.cx, self.r);
        for (at, need) in SIZING {
            let (v, look) = (cx.plan.need(self.c, need), COLUMNS[at as usize].look);
            if self.live.is_live(need.name()) {
                let fmt = value_format(&cx.s, look, v, true);
                live_cell(ws, r, at, self.formula(need.name()), v, fmt, cx)?;
            } else {
                number(ws, r, at, v, value_format(&cx.s, look, v, false))?;
            }
        }
        Ok(())
    }

    /// The costs of every offered and allowed mode, and of the chosen mode's cost what pays
    /// for cold starts and what for spot rework.
    fn write_mode_costs(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let (cx, r, ch) = (self.cx, self.r, self.ch);
        let s = &cx.s;
        let none = cx.t("no price", "无报价");
        for m in Mode::ALL {
            let at = cost_column(m);
            if let Some(v) = self.c.cost(m) {
                let f = self.formula(COLUMNS[at as usize].key);
                live_cell(ws, r, at, f, v, &s.money, cx)?;
            } else if let Some(body) = self.quoted_cost(m, none) {
                live_text(ws, r, at, &body, none, &s.money)?;
            }
        }
        for (col, kind, v) in [
            (COLD_START_COST, Hidden::ColdStarts, ch.cold_start_cost),
            (REWORK_COST, Hidden::Rework, ch.rework_cost),
        ] {
            match ch
                .mode
                .hidden_formula(kind)
                .filter(|h| cx.plan.column(h).is_some())
            {
                Some(h) => live_cell(ws, r, col, self.formula(h), v, &s.money, cx)?,
                None => number(ws, r, col, 0.0, &s.money)?,
            }
        }
        Ok(())
    }

    /// The GPU cost (the chosen mode's), storage, egress and the monthly TCO over them.
    fn write_totals(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let (cx, r, ch) = (self.cx, self.r, self.ch);
        let s = &cx.s;
        let chosen_cost = cell(None, r, cost_column(ch.mode));
        live_cell(
            ws,
            r,
            GPU_COST,
            Ok(chosen_cost),
            ch.gpu_cost,
            &s.money_bold,
            cx,
        )?;
        for (at, need) in [
            (STORAGE_COST, Need::STORAGE_COST),
            (EGRESS_COST, Need::EGRESS_COST),
        ] {
            let v = cx.plan.need(self.c, need);
            live_cell(ws, r, at, self.formula(need.name()), v, &s.money, cx)?;
        }
        let tco = format!(
            "{}+{}+{}",
            cell(None, r, GPU_COST),
            cell(None, r, STORAGE_COST),
            cell(None, r, EGRESS_COST)
        );
        live_cell(ws, r, TCO, Ok(tco), ch.tco, &s.money_bold, cx)
    }

    /// The compared API: its name, its monthly cost and the requests a day at which it would
    /// cost the monthly TCO.
    fn write_api(&self, ws: &mut Worksheet, api: &str) -> Result<(), XlsxError> {
        let (cx, r, ch) = (self.cx, self.r, self.ch);
        let s = &cx.s;
        text(ws, r, API, api, &s.text)?;
        let cost = self.value("api_monthly_cost").unwrap_or(0.0);
        live_cell(
            ws,
            r,
            API_MONTHLY_COST,
            self.formula("api_monthly_cost"),
            cost,
            &s.money,
            cx,
        )?;
        let per_day = self.w.numbers.requests_per_day.unwrap_or(0.0);
        let (api_cell, tco_cell) = (cell(None, r, API_MONTHLY_COST), cell(None, r, TCO));
        live_cell(
            ws,
            r,
            API_BREAKEVEN,
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
            cell(None, r, COSTS[0]),
            cell(None, r, COSTS[COSTS.len() - 1])
        );
        live_text(
            ws,
            r,
            CHEAPEST_NOW,
            &super::live::cheapest_label(&costs, &labels),
            cheapest_now(self.c, cx.lang),
            &cx.s.text,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mode_and_term_finds_its_own_column() {
        for m in Mode::ALL {
            assert_eq!(
                COLUMNS[cost_column(m) as usize].key,
                format!("cost_{}", m.key())
            );
        }
        // Counted by hand in the table: name, kind, model, engine, gpu (0-4), ten sizing columns
        // (5-14), mode (15), then the five prices (on demand, monthly, spot, reserved, purchase)
        // and two billing terms (16-22).
        assert_eq!(TERMS, [16, 17, 18, 19, 20, 21, 22]);
        assert_eq!(ROW_QUANTITIES, [23, 24, 25]);
        // The cheapest-now formula reads the cost columns as one range: they are adjacent.
        assert_eq!(COSTS[COSTS.len() - 1] - COSTS[0], COSTS.len() as u16 - 1);
    }

    #[test]
    fn keys_are_unique_and_looked_up_by_name() {
        for (i, c) in COLUMNS.iter().enumerate() {
            assert_eq!(position(c.key), Some(i as u16), "{}", c.key);
        }
        assert_eq!(position("no_such_column"), None);
        // Columns A..: name, kind, model, engine, then the GPU in E (index 4); the TCO in AL
        // (after the five prices and the six modes' costs).
        assert_eq!((GPU, TCO), (4, 37));
        assert_eq!(row(0), 1);
    }

    #[test]
    fn the_sizing_columns_are_required_formulas_in_order() {
        let keys: Vec<&str> = SIZING.iter().map(|(_, n)| n.name()).collect();
        assert_eq!(keys.first(), Some(&"required_vram_gib"));
        assert_eq!(keys.last(), Some(&"utilization"));
        let at: Vec<u16> = SIZING.iter().map(|(at, _)| *at).collect();
        assert_eq!(at, (5..=14).collect::<Vec<u16>>());
    }
}
