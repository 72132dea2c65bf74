//! Fleet: each rented card (or group of cards) carrying more than one workload, what runs on it
//! in each hour of the day as a 24-cell bar of coloured cells, and what sharing saves against
//! each workload on cards of its own; and the Summary's line of that saving.

use super::live::{absolute, cell, MAX_FORMULA_CHARS};
use super::plan_tab::{self, live_cell};
use super::{at, heads_of, widths_of, Col, Ctx, Extent, Tab};
use crate::labels::Said;
use crate::plan::fleet::{Carried, FleetCard, FleetPlan, ScheduleJson};
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{Color, Format, FormatAlign, FormatBorder, Worksheet, XlsxError};

/// The columns before the 24 hours.
const COLUMNS: [Col; 6] = [
    Col::new(
        "card",
        24.0,
        [
            "Card",
            "卡",
            "The GPU and provider of the rented card (or group of cards).",
            "所租显卡（或一组卡）的型号与供应商。",
        ],
    ),
    Col::new(
        "cards",
        7.0,
        [
            "Cards",
            "卡数",
            "Cards in the group.",
            "该组卡数。",
        ],
    ),
    Col::new(
        "workload",
        22.0,
        [
            "Workload",
            "负载",
            "A workload the cards carry.",
            "该组卡承载的负载。",
        ],
    ),
    Col::new(
        "role",
        12.0,
        [
            "Role",
            "角色",
            "service: the cards' own service, or one of the services sharing a card; job: moved onto the hours the service leaves idle.",
            "服务：卡的本来服务，或合用一张卡的服务之一；任务：错峰使用服务闲置时段。",
        ],
    ),
    Col::new(
        "vram_gib",
        10.0,
        [
            "GiB a card",
            "每卡显存(GiB)",
            "Memory it needs on each card (jobs and shared services; with the headroom, or the engine's own budget).",
            "在每张卡上所需显存（任务与合用服务；含余量或引擎自身预算）。",
        ],
    ),
    Col::new(
        "saving",
        13.0,
        [
            "Saving a month",
            "每月节省",
            "What it no longer pays: a moved job's own rental.",
            "不再支付的费用：错峰任务原本单独租卡的费用。",
        ],
    ),
];
const CARD: u16 = at(&COLUMNS, "card");
const CARDS: u16 = at(&COLUMNS, "cards");
const WORKLOAD: u16 = at(&COLUMNS, "workload");
const ROLE: u16 = at(&COLUMNS, "role");
const VRAM: u16 = at(&COLUMNS, "vram_gib");
const SAVING: u16 = at(&COLUMNS, "saving");
/// The first hour's column.
const HOUR0: u16 = COLUMNS.len() as u16;

/// A cell of the 24-hour bar: the cards held that hour, filled in the role's colour; whole
/// numbers without a point, others with one decimal (`0.#` would show `2.`).
fn hour_format(fill: u32, whole: bool) -> Format {
    Format::new()
        .set_num_format(if whole { "0;;" } else { "0.0;;" })
        .set_align(FormatAlign::Center)
        .set_font_size(8)
        .set_background_color(Color::RGB(fill))
        .set_border(FormatBorder::Thin)
        .set_border_color(Color::RGB(0xFFFFFF))
}

/// The 24-hour bar's formats of each role, each whole and with a decimal ([`hour_format`]).
struct Fills {
    service: [Format; 2],
    job: [Format; 2],
    empty: [Format; 2],
}

impl Fills {
    /// Blue for a service, orange for a job, grey for none.
    fn new() -> Fills {
        let fills = |fill| [hour_format(fill, true), hour_format(fill, false)];
        let (service, job, empty) = (fills(0x9BC2E6), fills(0xF4B183), fills(0xF2F2F2));
        Fills {
            service,
            job,
            empty,
        }
    }
}

/// Writes the Fleet tab (only when the plan has a fleet).
pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let Some(f) = cx.plan.fleet.as_ref() else {
        return Ok(Extent::new(0, 0));
    };
    let s = &cx.s;
    write_header(ws, cx)?;
    let fills = Fills::new();
    let mut row = 0u32;
    for card in &f.cards {
        for (i, c) in card.workloads.iter().enumerate() {
            row += 1;
            if i == 0 {
                text(ws, row, CARD, &card.gpu, &s.bold)?;
                number(ws, row, CARDS, card.cards as f64, &s.count)?;
            }
            carried_row(ws, cx, row, c, &fills)?;
        }
    }
    row = schedule_rows(ws, cx, f, row, &fills)?;
    row = write_footer(ws, cx, f, row)?;
    Ok(Extent::new(row, HOUR0 + 23))
}

/// The columns' widths and the header row: the columns, then an hour each.
fn write_header(ws: &mut Worksheet, cx: &Ctx) -> Result<(), XlsxError> {
    let mut w = widths_of(&COLUMNS);
    w.extend([3.6; 24]);
    widths(ws, &w)?;
    let mut heads = super::heads(cx, &heads_of(&COLUMNS));
    for h in 0..24 {
        heads.push((
            format!("{h:02}"),
            cx.t(
                "Cards it holds in this hour of the day, on average over the month's days (the day types below give each day).",
                "该小时占用的卡数（按每月各天平均；下方日类型给出每一天的安排）。",
            )
            .to_string(),
        ));
    }
    crate::write::style::header(ws, 0, &heads, &cx.s)
}

/// One workload on a card group at `row`: its name, role, memory a card and saving, and the
/// cards it holds in each hour.
fn carried_row(
    ws: &mut Worksheet,
    cx: &Ctx,
    row: u32,
    c: &Carried,
    fills: &Fills,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    // A preallocating engine's instance on a shared card: the flag to launch it with.
    let name = match &c.launch {
        Some(flag) => format!("{} ({flag})", c.name),
        None => c.name.clone(),
    };
    text(ws, row, WORKLOAD, &name, &s.text)?;
    let role = match c.role {
        "job" => cx.t("job", "任务"),
        _ => cx.t("service", "服务"),
    };
    text(ws, row, ROLE, role, &s.text)?;
    if c.vram_gib > 0.0 {
        number(ws, row, VRAM, c.vram_gib, &s.gib)?;
    }
    if c.saving > 0.0 {
        number(ws, row, SAVING, c.saving, &s.money)?;
    }
    for (h, v) in c.hours.iter().enumerate() {
        let fill = match (*v > 1e-9, c.role) {
            (false, _) => &fills.empty,
            (true, "job") => &fills.job,
            (true, _) => &fills.service,
        };
        let v = (v * 10.0).round() / 10.0;
        let f = &fill[usize::from(v.fract() != 0.0)];
        ws.write_number_with_format(row, HOUR0 + h as u16, v, f)?;
    }
    Ok(())
}

/// The tab's foot, two rows below `row`: the saving a month (live), how the solver ended and
/// what the colours say. Returns the last row written.
fn write_footer(
    ws: &mut Worksheet,
    cx: &Ctx,
    f: &FleetPlan,
    mut row: u32,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    row += 2;
    text(
        ws,
        row,
        CARD,
        cx.t("Saving a month", "每月节省"),
        &s.total_label,
    )?;
    live_cell(
        ws,
        row,
        SAVING,
        saving_formula(cx, f),
        f.saving,
        &s.money_bold,
        cx,
    )?;
    row += 1;
    text(ws, row, CARD, &solver_line(cx, f), &s.muted)?;
    row += 1;
    text(
        ws,
        row,
        CARD,
        cx.t(
            "Each hour shows the cards held: blue, a service; orange, a job on cards the service leaves idle; grey, none.",
            "每小时显示占用的卡数：蓝色为服务，橙色为错峰任务（使用服务闲置的卡），灰色为未占用。",
        ),
        &s.muted,
    )?;
    Ok(row)
}

/// The month of each card group that lends idle hours: each day type, on how many days it
/// runs, and per card the holder of each hour (S its service, A, B, … the jobs, named below).
fn schedule_rows(
    ws: &mut Worksheet,
    cx: &Ctx,
    f: &FleetPlan,
    mut row: u32,
    fills: &Fills,
) -> Result<u32, XlsxError> {
    for card in &f.cards {
        let Some(sched) = &card.schedule else {
            continue;
        };
        row = card_schedule(ws, cx, card, sched, row, fills)?;
    }
    Ok(row)
}

/// The letters of a card group's holders: S its service, A, B, … its jobs in order.
struct Codes<'a> {
    jobs: Vec<&'a str>,
}

impl<'a> Codes<'a> {
    /// The jobs of `card`, in its order.
    fn of(card: &'a FleetCard) -> Codes<'a> {
        let jobs: Vec<&str> = card
            .workloads
            .iter()
            .filter(|w| w.role == "job")
            .map(|w| w.name.as_str())
            .collect();
        Codes { jobs }
    }

    /// The letter of the workload `name`: a job's, else S.
    fn code(&self, name: &str) -> String {
        match self.jobs.iter().position(|j| *j == name) {
            Some(i) => char::from(b'A' + (i % 26) as u8).to_string(),
            None => "S".to_string(),
        }
    }
}

/// One card group's month, two rows below `row`: its title with the legend, then each day
/// type's cards. Returns the last row written.
fn card_schedule(
    ws: &mut Worksheet,
    cx: &Ctx,
    card: &FleetCard,
    sched: &ScheduleJson,
    mut row: u32,
    fills: &Fills,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let codes = Codes::of(card);
    row += 2;
    let service_name = card.workloads.first().map_or("", |w| w.name.as_str());
    let legend: Vec<String> = std::iter::once(format!("S = {service_name}"))
        .chain(
            codes
                .jobs
                .iter()
                .map(|j| format!("{} = {j}", codes.code(j))),
        )
        .collect();
    text(
        ws,
        row,
        CARD,
        Said::new(
            format!(
                "{} — day types, days start at {:02}:00 ({})",
                card.gpu,
                sched.first_hour,
                legend.join(", ")
            ),
            format!(
                "{} — 日类型，每天起始于 {:02}:00（{}）",
                card.gpu,
                sched.first_hour,
                legend.join("；")
            ),
        )
        .get(cx.lang),
        &s.bold,
    )?;
    for (k, t) in sched.day_types.iter().enumerate() {
        for (c, hours) in t.cards.iter().enumerate() {
            row += 1;
            if c == 0 {
                let label = Said::new(
                    format!(
                        "Day type {}: {} of {} days",
                        k + 1,
                        t.days,
                        sched.days_in_month
                    ),
                    format!(
                        "日类型 {}：每月 {} 天（共 {} 天）",
                        k + 1,
                        t.days,
                        sched.days_in_month
                    ),
                );
                text(ws, row, CARD, label.get(cx.lang), &s.text)?;
            }
            schedule_row(ws, cx, row, c, hours, &codes, fills)?;
        }
    }
    Ok(row)
}

/// One card's row of a day type at `row`: its number, then the holder of each hour.
fn schedule_row(
    ws: &mut Worksheet,
    cx: &Ctx,
    row: u32,
    c: usize,
    hours: &[Option<String>; 24],
    codes: &Codes,
    fills: &Fills,
) -> Result<(), XlsxError> {
    text(
        ws,
        row,
        WORKLOAD,
        &format!("{} {}", cx.t("card", "卡"), c + 1),
        &cx.s.muted,
    )?;
    for (h, holder) in hours.iter().enumerate() {
        let (value, fill) = match holder {
            None => (String::new(), &fills.empty),
            Some(n) if codes.jobs.contains(&n.as_str()) => (codes.code(n), &fills.job),
            Some(_) => ("S".to_string(), &fills.service),
        };
        ws.write_string_with_format(row, HOUR0 + h as u16, &value, &fill[0])?;
    }
    Ok(())
}

/// How the solver ended, in a line.
fn solver_line(cx: &Ctx, f: &FleetPlan) -> String {
    let v = &f.solver;
    if v.optimal {
        cx.t(
            "Packed by a mixed-integer programme (microlp), proven optimal.",
            "由混合整数规划（microlp）求解，已证明最优。",
        )
        .to_string()
    } else {
        format!(
            "{} {:.1}%",
            cx.t(
                "Packed by a mixed-integer programme (microlp) within its node limit; gap to the best bound:",
                "由混合整数规划（microlp）在节点上限内求解；与最优下界的差距：",
            ),
            v.gap * 100.0
        )
    }
}

/// The Summary's lines of the fleet, from `row` (the budget's last row, its amount at
/// `amount_col`) down: the saving, live over the Plan tab's GPU costs of what it saves
/// ([`FleetPlan::terms`]), and the budget less it, live over the budget above; returns the last
/// row written (`row` when the plan has no fleet).
pub fn summary_lines(
    ws: &mut Worksheet,
    cx: &Ctx,
    row: u32,
    label_col: u16,
    amount_col: u16,
) -> Result<u32, XlsxError> {
    let Some(f) = cx.plan.fleet.as_ref() else {
        return Ok(row);
    };
    let s = &cx.s;
    text(
        ws,
        row + 1,
        label_col,
        cx.t(
            "Fleet saving (Fleet tab, appendix)",
            "卡群节省（见附录卡群页）",
        ),
        &s.text,
    )?;
    live_cell(
        ws,
        row + 1,
        amount_col,
        saving_formula(cx, f).map(|sum| format!("-({sum})")),
        -f.saving,
        &s.money,
        cx,
    )?;
    text(
        ws,
        row + 2,
        label_col,
        crate::labels::layout::BUDGET_WITH_FLEET.get(cx.lang),
        &s.bold,
    )?;
    let budget = format!(
        "{}+{}",
        cell(None, row, amount_col),
        cell(None, row + 1, amount_col)
    );
    live_cell(
        ws,
        row + 2,
        amount_col,
        Ok(budget),
        f.budget,
        &s.money_bold,
        cx,
    )?;
    Ok(row + 2)
}

/// The fleet's saving as an Excel sum over the Plan tab's GPU cost column: each term a
/// workload's GPU cost times its factor (every digit, so that it recomputes to the value).
fn saving_formula(cx: &Ctx, f: &FleetPlan) -> Result<String, String> {
    let sheet = cx.sheet(Tab::Plan);
    let terms: Vec<String> = f
        .terms
        .iter()
        .map(|&(w, k)| {
            let at = absolute(sheet, plan_tab::row(w), plan_tab::GPU_COST);
            if k == 1.0 {
                at
            } else {
                format!("{at}*{k}")
            }
        })
        .collect();
    let sum = if terms.is_empty() {
        "0".to_string()
    } else {
        terms.join("+")
    };
    if sum.len() < MAX_FORMULA_CHARS - 8 {
        Ok(sum)
    } else {
        Err(format!(
            "the sum of its {} parts would pass Excel's limit of {MAX_FORMULA_CHARS} characters",
            terms.len()
        ))
    }
}
