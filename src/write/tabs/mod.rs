//! The plan workbook, one file per tab, in SPEC §8 order (#18 adds Year; Scenarios, Sensitivity,
//! Diff and Actuals appear only when the run has them): Summary, Year, Plan, Memory, Billing,
//! Candidates, TCO, Assumptions, Formulas, Warnings.

mod actuals;
mod approval;
mod assumptions;
mod billing;
mod candidates;
mod cuts;
mod diff;
mod fleet;
mod formulas;
mod line_items;
mod live;
mod memory;
mod plan_print;
mod plan_tab;
mod scenarios;
mod sensitivity;
mod summary;
mod tco;
mod warnings;
mod year;

use super::style::Styles;
use crate::calc::Calc;
use crate::labels::{Label, Said};
use crate::lang::Lang;
use crate::model::Warning;
use crate::plan::{Candidate, Chosen, NeedSum, Plan};
use rust_xlsxwriter::{ExcelDateTime, Workbook, XlsxError};

/// What every tab needs: the plan, the language, the formats and the tab names.
pub struct Ctx<'a> {
    /// The calculation: the plan and what was computed beside it.
    pub calc: &'a Calc,
    /// Its plan, `calc.plan`.
    pub plan: &'a Plan,
    pub lang: Lang,
    pub s: Styles,
    pub date: &'a str,
    pub stamp: &'a crate::support::provenance::Provenance,
    /// What each chart plots, for the chart parts' caches.
    pub charts: super::charts::Caches,
}

impl Ctx<'_> {
    /// The label in the chosen language.
    pub fn t<'b>(&self, en: &'b str, zh: &'b str) -> &'b str {
        self.lang.t(en, zh)
    }

    /// The chosen candidate of workload `w`.
    pub fn chosen(&self, w: usize) -> Option<(&Candidate, &Chosen)> {
        self.plan.chosen(w)
    }

    pub fn sheet(&self, tab: Tab) -> &'static str {
        tab.name(self.lang)
    }

    pub fn yes_no(&self, b: bool) -> &'static str {
        super::style::yes_no(b).get(self.lang)
    }

    /// A block's header row inside a tab, from column A: the labels in the chosen language,
    /// without notes or the tab header's row height.
    pub fn plain_header(
        &self,
        ws: &mut rust_xlsxwriter::Worksheet,
        row: u32,
        cols: &[Col],
    ) -> Result<(), rust_xlsxwriter::XlsxError> {
        for (c, col) in (0u16..).zip(cols) {
            super::style::text(ws, row, c, self.t(col.head[0], col.head[1]), &self.s.header)?;
        }
        Ok(())
    }

    /// A header row at `row` from `[en, zh, en note, zh note]` columns, in the chosen language.
    pub fn header(
        &self,
        ws: &mut rust_xlsxwriter::Worksheet,
        row: u32,
        cols: &[[&str; 4]],
    ) -> Result<(), rust_xlsxwriter::XlsxError> {
        super::style::header(ws, row, &heads(self, cols), &self.s)
    }
}

/// The last row and column a tab's printed content reaches (0-based).
#[derive(Debug, Clone, Copy)]
pub struct Extent {
    pub last_row: u32,
    pub last_col: u16,
}

impl Extent {
    pub fn new(last_row: u32, last_col: u16) -> Extent {
        Extent { last_row, last_col }
    }
}

pub use crate::labels::layout::Tab;

/// How a tab is printed (SPEC §8, #18): every tab A4 landscape, its content as print area,
/// fitted one page wide unless said otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Print {
    /// One page (the Summary).
    OnePage,
    /// The header row repeated on each page.
    Rows,
    /// The header row and the first column (the workload or the label) repeated.
    RowsAndLabels,
    /// The Plan tab: the printed block under the table, its header repeated (plan_print.rs).
    PlanBlock,
    /// The Assumptions tab: the money inputs finance approves, not the engineering constants.
    MoneyRows,
    /// The Scenarios tab: as RowsAndLabels, at 100% across pages when too wide to fit.
    Scenarios,
}

/// One tab stated once: whether the workbook has it for a calculation, its writer, whether its
/// formula cells are live (and locked), whether it is an appendix (#34 item 2: hidden, without
/// a print area), whether its figures are fixed at calculation (a line says so under them) and
/// how it prints. Adding a tab is a [`Tab`] (its labels) and a row here, which the build checks.
struct TabSpec {
    tab: Tab,
    shown: fn(&Calc) -> bool,
    write: Writer,
    live: bool,
    appendix: bool,
    fixed: bool,
    print: Print,
}

/// A tab's writer: the worksheet, the context, the live formulas and the TCO tab's layout in;
/// how far its content reaches out.
type Writer = fn(
    &mut rust_xlsxwriter::Worksheet,
    &Ctx,
    &live::Live,
    &tco::Layout,
) -> Result<Extent, XlsxError>;

const fn always(_: &Calc) -> bool {
    true
}

/// The tabs, in the workbook's order ([`Tab::ALL`]'s).
#[rustfmt::skip]
const TABS: [TabSpec; 15] = [
    TabSpec { tab: Tab::Summary, shown: always, write: |ws, cx, live, layout| summary::write(ws, cx, layout, live), live: true, appendix: false, fixed: false, print: Print::OnePage },
    TabSpec { tab: Tab::Year, shown: always, write: |ws, cx, live, _| year::write(ws, cx, live), live: true, appendix: false, fixed: false, print: Print::RowsAndLabels },
    // Only when the input has scenarios.
    TabSpec { tab: Tab::Scenarios, shown: |c| !c.scenarios.is_empty(), write: |ws, cx, _, layout| scenarios::write(ws, cx, layout), live: true, appendix: false, fixed: false, print: Print::Scenarios },
    // Only when the input has ranges.
    TabSpec { tab: Tab::Sensitivity, shown: |c| c.sensitivity.is_some(), write: |ws, cx, _, _| sensitivity::write(ws, cx), live: false, appendix: false, fixed: true, print: Print::Rows },
    // Only with calc --compare.
    TabSpec { tab: Tab::Diff, shown: |c| c.compared.is_some(), write: |ws, cx, _, _| diff::write(ws, cx), live: false, appendix: false, fixed: true, print: Print::RowsAndLabels },
    // Only with calc --usage or --bills.
    TabSpec { tab: Tab::Actuals, shown: |c| !c.actuals.is_empty() || c.bills.is_some(), write: |ws, cx, _, _| actuals::write(ws, cx), live: false, appendix: false, fixed: true, print: Print::RowsAndLabels },
    TabSpec { tab: Tab::Plan, shown: always, write: write_plan, live: true, appendix: false, fixed: false, print: Print::PlanBlock },
    // Only when cards are shared.
    TabSpec { tab: Tab::Fleet, shown: |c| c.plan.fleet.is_some(), write: |ws, cx, _, _| fleet::write(ws, cx), live: false, appendix: true, fixed: false, print: Print::Rows },
    TabSpec { tab: Tab::Memory, shown: always, write: |ws, cx, _, _| memory::write(ws, cx), live: false, appendix: true, fixed: false, print: Print::RowsAndLabels },
    TabSpec { tab: Tab::Billing, shown: always, write: |ws, cx, _, _| billing::write(ws, cx), live: true, appendix: true, fixed: false, print: Print::RowsAndLabels },
    TabSpec { tab: Tab::Candidates, shown: always, write: |ws, cx, _, _| candidates::write(ws, cx), live: false, appendix: true, fixed: false, print: Print::Rows },
    TabSpec { tab: Tab::Tco, shown: always, write: |ws, cx, live, layout| tco::write(ws, cx, live, layout), live: true, appendix: false, fixed: false, print: Print::Rows },
    TabSpec { tab: Tab::Assumptions, shown: always, write: |ws, cx, live, _| assumptions::write(ws, cx, live), live: true, appendix: false, fixed: false, print: Print::MoneyRows },
    TabSpec { tab: Tab::Formulas, shown: always, write: |ws, cx, _, _| formulas::write(ws, cx), live: false, appendix: true, fixed: false, print: Print::Rows },
    TabSpec { tab: Tab::Warnings, shown: always, write: |ws, cx, live, _| warnings::write(ws, cx, &live.warnings()), live: false, appendix: false, fixed: false, print: Print::Rows },
];

// A row for every tab, each where its tab's declaration puts it.
const _: () = {
    assert!(TABS.len() == Tab::ALL.len());
    let mut i = 0;
    while i < TABS.len() {
        assert!(TABS[i].tab as usize == i && Tab::ALL[i] as usize == i);
        i += 1;
    }
};

impl Tab {
    fn spec(self) -> &'static TabSpec {
        &TABS[self as usize]
    }

    /// Whether the tab holds live formulas (then its formula cells are locked).
    pub fn has_live_formulas(self) -> bool {
        self.spec().live
    }

    /// Whether the tab is an appendix to the approval view (#34 item 2): the engineering tabs
    /// (Memory, Candidates, Formulas), the Fleet's card schedule (its saving is on the Summary)
    /// and Billing (each mode's cost is on the Plan tab's row and in the Summary's chart). They
    /// are hidden sheets without a print area: Excel never prints a hidden sheet, LibreOffice
    /// none without a print area, and OOXML has no other per-sheet "do not print" (a print
    /// area of one blank cell, the way before, was skipped by LibreOffice, but a user who
    /// printed the tab got nothing, and Excel was not known to skip it). Once shown
    /// (right-click a tab → Unhide) each prints its content one page wide. The Summary names
    /// them.
    pub fn is_appendix(self) -> bool {
        self.spec().appendix
    }
}

/// The Plan tab: the table, then under it the cuts (cuts.rs) and the printed block
/// (plan_print.rs).
fn write_plan(
    ws: &mut rust_xlsxwriter::Worksheet,
    cx: &Ctx,
    live: &live::Live,
    _: &tco::Layout,
) -> Result<Extent, XlsxError> {
    let table = plan_tab::write(ws, cx, live)?;
    let cuts = cuts::section(ws, cx, plan_tab::printed_from(cx))?;
    let block = if cx.plan.cuts.as_ref().is_some_and(|c| c.over()) {
        cuts + 2
    } else {
        cuts
    };
    let last = plan_print::section(ws, cx, block)?;
    Ok(Extent::new(last, table.last_col))
}

/// A TCO category, for the TCO tab and the Summary's cost by category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    GpuTime,
    ColdStart,
    SpotRework,
    Storage,
    Egress,
    TrialReserve,
    Ops,
}

impl Category {
    pub const ALL: [Category; 7] = [
        Category::GpuTime,
        Category::ColdStart,
        Category::SpotRework,
        Category::Storage,
        Category::Egress,
        Category::TrialReserve,
        Category::Ops,
    ];

    /// The category's name in both languages, as the TCO, Summary and Year tabs write it.
    pub const fn label(self) -> Label {
        match self {
            Category::GpuTime => Label::new("GPU time (work)", "GPU 计算费用"),
            Category::ColdStart => {
                Label::new("Cold starts and billing rounding", "冷启动与计费取整")
            }
            Category::SpotRework => Label::new("Spot rework", "竞价回收重跑"),
            Category::Storage => Label::new("Storage", "存储费用"),
            Category::Egress => Label::new("Egress", "流量费"),
            Category::TrialReserve => Label::new("Trial-and-error reserve", "试错预留"),
            Category::Ops => Label::new("Ops labour", "运维人力"),
        }
    }

    /// This category's amount for one chosen workload (portfolio categories are 0 here).
    pub fn of_workload(self, ch: &Chosen) -> f64 {
        match self {
            Category::GpuTime => ch.work_cost(),
            Category::ColdStart => ch.cold_start_cost,
            Category::SpotRework => ch.rework_cost,
            Category::Storage => ch.storage_cost,
            Category::Egress => ch.egress_cost,
            Category::TrialReserve | Category::Ops => 0.0,
        }
    }

    /// The portfolio formula that holds a portfolio category; None for per-workload ones.
    pub fn portfolio_name(self) -> Option<NeedSum> {
        match self {
            Category::TrialReserve => Some(NeedSum::TRIAL_RESERVE_COST),
            Category::Ops => Some(NeedSum::OPS_COST),
            _ => None,
        }
    }

    /// The live formula of a per-workload category over the Plan tab's cost columns, given how
    /// a column is referenced (one row's cell, or a sum over the rows); None for portfolio ones.
    pub fn plan_formula(self, col: impl Fn(u16) -> String) -> Option<String> {
        use plan_tab::{COLD_START_COST, EGRESS_COST, GPU_COST, REWORK_COST, STORAGE_COST};
        Some(match self {
            Category::GpuTime => format!(
                "{}-{}-{}",
                col(GPU_COST),
                col(COLD_START_COST),
                col(REWORK_COST)
            ),
            Category::ColdStart => col(COLD_START_COST),
            Category::SpotRework => col(REWORK_COST),
            Category::Storage => col(STORAGE_COST),
            Category::Egress => col(EGRESS_COST),
            Category::TrialReserve | Category::Ops => return None,
        })
    }

    /// This category's amount over the whole plan.
    pub fn total(self, plan: &Plan) -> f64 {
        match self.portfolio_name() {
            Some(n) => plan.sum(n),
            None => (0..plan.workloads.len())
                .filter_map(|w| plan.chosen(w))
                .map(|(_, ch)| self.of_workload(ch))
                .sum(),
        }
    }
}

/// The plan workbook, ready to save, the warnings its writing raised (formulas written as
/// values because their Excel translation would be too long) and what its charts plot.
pub fn workbook(
    calc: &Calc,
    lang: Lang,
    creation: &ExcelDateTime,
    date: &str,
    stamp: &crate::support::provenance::Provenance,
) -> Result<(Workbook, Vec<Warning>, super::charts::Caches), XlsxError> {
    let plan = &calc.plan;
    let cx = Ctx {
        calc,
        plan,
        lang,
        s: Styles::new(&plan.input.assumptions.currency()),
        date,
        stamp,
        charts: super::charts::Caches::default(),
    };
    let mut wb = new_workbook(&cx, creation);
    let live = live::Live::new(
        &cx,
        assumptions::value_cells(
            &cx.plan.input.assumptions.items,
            Tab::Assumptions.name(lang),
        ),
    );
    let layout = tco::Layout::new(&cx);
    let streamed = streamed(calc);
    for tab in Tab::ALL {
        let spec = tab.spec();
        if !(spec.shown)(calc) {
            continue;
        }
        let ws = add_sheet(&mut wb, streamed)?;
        ws.set_name(tab.name(lang))?;
        let mut extent = (spec.write)(ws, &cx, &live, &layout)?;
        if spec.fixed {
            extent = stamp_fixed(ws, &cx, extent)?;
        }
        end_rows(ws, &cx, extent)?;
        page_setup(ws, &cx, tab, extent)?;
        if tab.has_live_formulas() {
            protect(ws);
        }
        if tab.is_appendix() {
            ws.set_hidden(true);
        }
    }
    let warnings = live.warnings();
    Ok((wb, warnings, cx.charts))
}

/// Cells past which the sheets are streamed. Held in memory, a cell costs about 150 bytes until
/// the save (measured with `calc --timings`: 1,000 workloads on 2 offers, about 550,000 cells,
/// peak 132 MB held against 50 MB streamed; 1,000 workloads × 100 offers, 3.7 million cells,
/// 552 MB against 31 MB), so a plan held in memory peaks near 150 MB at the most.
const STREAM_CELLS: usize = 1_000_000;

/// Cells a workload takes outside the Candidates tab (Plan, Memory, Billing, TCO, Year and the
/// rest: about 200 columns in all).
const CELLS_A_WORKLOAD: usize = 200;

/// Whether the workbook's sheets are streamed through temporary files (rust_xlsxwriter's
/// constant memory: a row at a time, strings inline) rather than held in memory until saved
/// (strings shared): past [`STREAM_CELLS`] cells, and only where there are temporary files (the
/// command line; the page in the browser holds every workbook in memory). Either way the cells
/// are the same; a plan within the bound is the same bytes from both.
fn streamed(calc: &Calc) -> bool {
    let plan = &calc.plan;
    let rows: usize = plan.workloads.iter().map(|w| w.candidates.len()).sum();
    let cells = rows * (usize::from(candidates::FIRST_FORMULA) + plan.columns.len())
        + plan.workloads.len() * CELLS_A_WORKLOAD;
    cfg!(feature = "cli") && cells > STREAM_CELLS
}

/// A new sheet, streamed or held in memory.
fn add_sheet(
    wb: &mut Workbook,
    streamed: bool,
) -> Result<&mut rust_xlsxwriter::Worksheet, XlsxError> {
    #[cfg(feature = "cli")]
    if streamed {
        return wb.add_worksheet_with_constant_memory();
    }
    let _ = streamed;
    Ok(wb.add_worksheet())
}

/// Under a tab of figures computed once (Diff, Sensitivity, Actuals: re-plans, a comparison,
/// measurements), a line saying they are fixed at calculation, so that beside the live tabs
/// nobody reads them as following an edit (#34 item 5). Returns the extent with the line.
fn stamp_fixed(
    ws: &mut rust_xlsxwriter::Worksheet,
    cx: &Ctx,
    extent: Extent,
) -> Result<Extent, XlsxError> {
    let row = extent.last_row + 2;
    let when = cx
        .stamp
        .generated_iso()
        .replace('T', " ")
        .trim_end_matches('Z')
        .to_string();
    // Two lines, each short enough for the narrowest printed tab (the Sensitivity note ran past
    // its page's edge as one).
    let lines = [
        Said::new(
            format!("Fixed at calculation ({when} UTC): these figures are re-plans, a comparison or measurements"),
            format!("计算时固定（{when} UTC）：本页数值为重新规划、对比或实测结果，"),
        ),
        Label::new(
            "and do not follow edits in this workbook; rerun gpuplan after an edit.",
            "不随本工作簿中的修改变化；修改后请重新运行 gpuplan。",
        )
        .into(),
    ];
    for (i, line) in lines.iter().enumerate() {
        super::style::text(ws, row + i as u32, 0, line.get(cx.lang), &cx.s.muted)?;
    }
    Ok(Extent::new(row + 1, extent.last_col))
}

/// Closes a tab's rows with a blank cell in the row after its content. rust_xlsxwriter 0.102's
/// constant-memory mode writes the last row it holds twice when that row has a height of its
/// own (`flush_last_row` flushes the current row, then flushes it again as the row after it,
/// with its height but no cells): `<row r="67">` came twice in Assumptions, a row of a wrapped
/// note. Excel then offers to repair the file (#34). A last row of one blank cell and no height
/// leaves nothing to repeat. `extent` reaches at least every row the tab wrote (its print area).
fn end_rows(
    ws: &mut rust_xlsxwriter::Worksheet,
    cx: &Ctx,
    extent: Extent,
) -> Result<(), XlsxError> {
    ws.write_blank(extent.last_row.max(1) + 1, 0, &cx.s.text)?;
    Ok(())
}

/// An empty workbook with its compression level and document properties (title, author,
/// creation time, and a comment naming gpuplan's version and the input with its SHA-256).
fn new_workbook(cx: &Ctx, creation: &ExcelDateTime) -> Workbook {
    let stamp = cx.stamp;
    let mut wb = Workbook::new();
    // Level 2 saves in about 0.6 of the default's time for about 1.1 of its size; compression
    // dominates the write of large plans.
    wb.set_zip_compression_level(2);
    wb.set_properties(
        &rust_xlsxwriter::DocProperties::new()
            .set_title(cx.t("GPU plan", "GPU 算力方案"))
            .set_author("gpuplan")
            .set_creation_datetime(creation)
            .set_comment(format!(
                "gpuplan {} from {} (SHA-256 {})",
                stamp.version, stamp.input, stamp.input_sha256
            )),
    );
    wb
}

/// Whether the plan workbook has `tab` for this calculation.
pub(super) fn shows(tab: Tab, calc: &Calc) -> bool {
    (tab.spec().shown)(calc)
}

/// Locks a tab's formula cells, its inputs (prices, terms, money assumptions) left unlocked:
/// typing over a formula is refused instead of silently breaking it. No password: Review →
/// Unprotect Sheet lifts it.
fn protect(ws: &mut rust_xlsxwriter::Worksheet) {
    ws.protect_with_options(&rust_xlsxwriter::ProtectionOptions {
        format_columns: true,
        format_rows: true,
        sort: true,
        use_autofilter: true,
        ..rust_xlsxwriter::ProtectionOptions::default()
    });
}

/// The widest content (in characters) a tab fits to one page wide: A4 landscape holds about 130
/// characters at 100%, so this is a scale of about 70%.
const MAX_FITTED_WIDTH: f64 = 190.0;

/// Print setup (SPEC §8, #18): A4 landscape, the tab's content as print area, the header row and
/// the workload column repeated on every page, a header with the title, tab and page x of y
/// and a footer with the generation time and gpuplan's version. Every tab is fitted to one
/// page wide (Summary to one page); the Plan tab prints its block of twelve columns under the
/// table (plan_print.rs), the Candidates tab its columns up to the cheapest cost.
fn page_setup(
    ws: &mut rust_xlsxwriter::Worksheet,
    cx: &Ctx,
    tab: Tab,
    extent: Extent,
) -> Result<(), XlsxError> {
    const A4: u8 = 9;
    ws.set_landscape();
    ws.set_paper_size(A4);
    let spec = tab.spec();
    set_print_area(ws, cx, spec, extent)?;
    set_print_fit(ws, cx, spec)?;
    set_header_footer(ws, cx);
    Ok(())
}

/// The print area of a tab of `spec` with the content `extent`: none in the appendix.
fn set_print_area(
    ws: &mut rust_xlsxwriter::Worksheet,
    cx: &Ctx,
    spec: &TabSpec,
    extent: Extent,
) -> Result<(), XlsxError> {
    match spec.print {
        // No print area: LibreOffice prints a hidden sheet that has one (it printed all five,
        // 31 pages for team; gotenberg issue 677 says the same), and skips one without. Shown
        // again, the tab prints its content, one page wide.
        _ if spec.appendix => {}
        // The printed block under the table, one page wide (plan_print.rs).
        Print::PlanBlock => {
            let first = plan_tab::printed_from(cx);
            ws.set_print_area(first, 0, extent.last_row.max(first), plan_print::LAST_COL)?;
        }
        // The money inputs finance approves; the engineering constants below are for the screen.
        Print::MoneyRows => {
            ws.set_print_area(0, 0, assumptions::printed_rows(cx), extent.last_col)?;
        }
        Print::OnePage | Print::Rows | Print::RowsAndLabels | Print::Scenarios => {
            ws.set_print_area(0, 0, extent.last_row.max(1), extent.last_col)?;
        }
    }
    Ok(())
}

/// How a tab of `spec` fits the page: one page, or one page wide with the header row (and the
/// labels' column) repeated on each.
fn set_print_fit(
    ws: &mut rust_xlsxwriter::Worksheet,
    cx: &Ctx,
    spec: &TabSpec,
) -> Result<(), XlsxError> {
    match spec.print {
        Print::OnePage => {
            ws.set_print_fit_to_pages(1, 1);
        }
        Print::PlanBlock => {
            // The printed block's header row on every page it runs to.
            let header = plan_tab::printed_from(cx) + 1;
            ws.set_repeat_rows(header, header)?;
            ws.set_print_fit_to_pages(1, 0);
        }
        // Wider than about 1.4 pages at 100% (the scale would fall under about 70%): printed
        // at 100% across pages, the labels' column on each.
        Print::Scenarios if scenarios::printed_width(cx) > MAX_FITTED_WIDTH => {
            ws.set_repeat_rows(0, 0)?;
            ws.set_repeat_columns(0, 0)?;
        }
        Print::RowsAndLabels | Print::Scenarios => {
            ws.set_repeat_rows(0, 0)?;
            ws.set_repeat_columns(0, 0)?;
            ws.set_print_fit_to_pages(1, 0);
        }
        Print::Rows | Print::MoneyRows => {
            ws.set_repeat_rows(0, 0)?;
            ws.set_print_fit_to_pages(1, 0);
        }
    }
    Ok(())
}

/// The page's header (the title and the input's file name, the tab, page x of y) and footer
/// (the generation time and gpuplan's version).
fn set_header_footer(ws: &mut rust_xlsxwriter::Worksheet, cx: &Ctx) {
    let title = cx.t("GPU plan", "GPU 算力方案");
    // Excel limits a header or footer to 255 characters; `&` is its escape character.
    let input: String = cx
        .stamp
        .input
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .chars()
        .take(60)
        .collect::<String>()
        .replace('&', "&&");
    ws.set_header(format!(
        "&L{title} — {input}&C&A&R{}",
        cx.t("Page &P of &N", "第 &P 页，共 &N 页")
    ));
    ws.set_footer(format!(
        "&L{} {} UTC&Rgpuplan {}",
        cx.t("Generated", "生成于"),
        cx.stamp
            .generated_iso()
            .replace('T', " ")
            .trim_end_matches('Z'),
        cx.stamp.version
    ));
}

/// One column of a tab, stated once: the key code names it by, its width (characters) and its
/// header `[English, Chinese, note in English, note in Chinese]`.
#[derive(Debug, Clone, Copy)]
pub struct Col {
    pub key: &'static str,
    pub width: f64,
    pub head: [&'static str; 4],
}

impl Col {
    pub const fn new(key: &'static str, width: f64, head: [&'static str; 4]) -> Col {
        Col { key, width, head }
    }
}

/// The workload's name, the first column of the per-workload tabs, at the tab's width.
pub const fn workload_col(width: f64) -> Col {
    Col::new(
        "workload",
        width,
        [
            crate::labels::layout::WORKLOAD.en,
            crate::labels::layout::WORKLOAD.zh,
            "The workload's name.",
            "负载名称。",
        ],
    )
}

/// The position of `key` among `cols`, for `const` items: a key the table lacks fails the build.
pub const fn at(cols: &[Col], key: &str) -> u16 {
    let mut i = 0;
    while i < cols.len() {
        if crate::plan::same_name(cols[i].key, key) {
            return i as u16;
        }
        i += 1;
    }
    panic!("the tab has no such column")
}

/// The headers of a column table, for [`Ctx::header`].
pub fn heads_of(cols: &[Col]) -> Vec<[&'static str; 4]> {
    cols.iter().map(|c| c.head).collect()
}

/// The widths of a column table, for [`crate::write::style::widths`].
pub fn widths_of(cols: &[Col]) -> Vec<f64> {
    cols.iter().map(|c| c.width).collect()
}

/// Header cells from `[English, Chinese, note in English, note in Chinese]`.
pub fn heads(cx: &Ctx, cols: &[[&str; 4]]) -> Vec<(String, String)> {
    cols.iter()
        .map(|c| (cx.t(c[0], c[1]).to_string(), cx.t(c[2], c[3]).to_string()))
        .collect()
}
