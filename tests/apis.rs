//! Renting versus calling an API (#19, part 3): the API's monthly cost from requests, tokens and
//! per-million prices, the break-even volume, and the advice, worked by hand.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use calamine::{Data, DataType};
use common::*;

/// The team book with qa-api compared with an API: 2,000 requests a day of 1,000 input and 500
/// output tokens.
fn with_api(api: &str) -> Book {
    api_book(api, Some(2000.0))
}

#[test]
fn the_api_cost_and_break_even_are_worked_by_hand() {
    let d = tempdir();
    with_api("qwen-plus").write(&d.path().join("b.xlsx"));
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    let qa = &j["workloads"][1];
    assert_eq!(qa["api"], "qwen-plus");
    // qwen-plus (built-in example): ¥0.8 input, ¥2 output per million tokens.
    // 2,000 × (1,000 × 0.8 + 500 × 2) / 1e6 = ¥3.60 a day; × 730 / 24 = 30.4167 days = ¥109.50.
    let cost = qa["api_monthly_cost"].as_f64().unwrap();
    assert!(close(cost, 109.5), "{cost}");
    // Self-hosted: 300 h on the A10 at ¥5 = ¥1,500; break-even 2,000 × 1,500 / 109.5 = 27,397.26.
    assert!(close(qa["tco"].as_f64().unwrap(), 1500.0));
    let even = qa["api_breakeven_requests_per_day"].as_f64().unwrap();
    assert!(close(even, 2000.0 * 1500.0 / 109.5), "{even}");
    assert_eq!(
        qa["api_advice"],
        "the API qwen-plus would cost ¥109.50 a month at 2,000 requests a day against ¥1,500.00 self-hosted: cheaper below 27,397 requests a day, so consider the API"
    );
    // Workloads without an API have nulls.
    assert!(j["workloads"][0]["api_monthly_cost"].is_null());
    // The Plan tab: the same figures, the cost and break-even as live formulas.
    let plan = read_sheet(&d.path().join("b.plan.xlsx"), "Plan");
    let col = |h: &str| {
        plan[0]
            .iter()
            .position(|x| x == &Data::String(h.into()))
            .unwrap()
    };
    assert!(close(
        plan[2][col("API monthly cost")].get_float().unwrap(),
        109.5
    ));
    assert!(close(
        plan[2][col("Break-even requests/day")].get_float().unwrap(),
        even
    ));
}

#[test]
fn a_cached_share_moves_input_tokens_to_the_cached_price() {
    let d = tempdir();
    with_api("m1")
        .set("Workloads", 0, 15, Some(s("cached_share")))
        .set("Workloads", 2, 15, Some(n(0.5)))
        .sheet(
            "APIs",
            &[
                "provider",
                "model",
                "input_per_m",
                "output_per_m",
                "cached_input_per_m",
            ],
            vec![vec![
                Some(s("test")),
                Some(s("m1")),
                Some(n(1.0)),
                Some(n(2.0)),
                Some(n(0.1)),
            ]],
        )
        .write(&d.path().join("b.xlsx"));
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    // 2,000 × (1,000 × (0.5 × 1 + 0.5 × 0.1) + 500 × 2) / 1e6 = 2,000 × 1,550 / 1e6 = ¥3.10 a
    // day; × 30.4167 = ¥94.29.
    let cost = j["workloads"][1]["api_monthly_cost"].as_f64().unwrap();
    assert!(close(cost, 94.29), "{cost}");
}

#[test]
fn an_unknown_api_is_refused_with_its_cell() {
    refused_book(
        with_api("qwen-pls"),
        &[
            "Workloads!O3: the API \"qwen-pls\" is not a model of the APIs sheet",
            "qwen-plus",
        ],
    );
}

/// samples/startup.xlsx compares chat-api with qwen-plus at 50,000 requests a day.
#[test]
fn the_startup_sample_compares_its_chat_api_with_an_api() {
    let d = tempdir();
    std::fs::copy(repo("samples/startup.xlsx"), d.path().join("s.xlsx")).unwrap();
    let j = calc_json(d.path(), "s.xlsx", "s.plan.xlsx", &[]);
    let w = j["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == "chat-api")
        .unwrap();
    // 50,000 × (1,500 × 0.8 + 400 × 2) / 1e6 = ¥100 a day × 730 / 24 = ¥3,041.67.
    let cost = w["api_monthly_cost"].as_f64().unwrap();
    assert!(close(cost, 3_041.67), "{cost}");
    // Self-hosted ¥6,000: break-even 50,000 × 6,000 / 3,041.67 (the API's month to the cent)
    // = 98,630.03 requests a day.
    let even = w["api_breakeven_requests_per_day"].as_f64().unwrap();
    assert!(close(even, 50_000.0 * 6000.0 / 3_041.67), "{even}");
}

/// Offline inference with a request volume and a known speed runs the hours the volume takes
/// (#19, 3): no hours_per_month needed.
#[test]
fn an_offline_volume_sets_the_hours() {
    let d = tempdir();
    with_api("qwen-plus")
        // qa-api offline, no hours, 50 tokens/s a request at 4 concurrent: 200 tokens/s a replica.
        .set("Workloads", 2, 4, None)
        .set("Workloads", 0, 15, Some(s("online")))
        .set("Workloads", 2, 15, Some(s("no")))
        .set("Workloads", 0, 16, Some(s("tokens_per_s_per_request")))
        .set("Workloads", 2, 16, Some(n(50.0)))
        .write(&d.path().join("b.xlsx"));
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    let qa = &j["workloads"][1];
    // 2,000 requests × 500 tokens × 730 / 24 days = 30,416,667 tokens at 200 tokens/s
    // = 42.245 h; over 30 runs 1.408 h each, billed by the hour: 2 h × 30 = 60 h × ¥5 = ¥300.
    let hours = qa["values"]["run_hours"].as_f64().unwrap();
    assert!(
        close(hours, 2000.0 * 500.0 * 730.0 / 24.0 / 200.0 / 3600.0),
        "{hours}"
    );
    assert!(close(qa["gpu_cost"].as_f64().unwrap(), 300.0), "{qa}");
}

#[test]
fn an_api_break_even_of_0_is_not_given_when_the_volume_or_the_price_is_0() {
    let d = tempdir();
    let free = vec![vec![
        Some(s("test")),
        Some(s("free")),
        Some(n(0.0)),
        Some(n(0.0)),
    ]];
    let apis = &["provider", "model", "input_per_m", "output_per_m"][..];
    for (book, says) in [
        (
            api_book("qwen-plus", None),
            "needs the workload's requests_per_day",
        ),
        (
            api_book("qwen-plus", Some(0.0)),
            "needs the workload's requests_per_day",
        ),
        (
            api_book("free", Some(2000.0)).sheet("APIs", apis, free.clone()),
            "costs nothing at 2,000 requests a day",
        ),
    ] {
        book.write(&d.path().join("b.xlsx"));
        let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
        let qa = &j["workloads"][1];
        assert!(qa["api_breakeven_requests_per_day"].is_null(), "{qa}");
        let advice = qa["api_advice"].as_str().unwrap();
        assert!(advice.contains(says), "{advice}");
        assert!(!advice.contains("below 0 requests"), "{advice}");
    }
}

/// #43 item 6: an APIs row quoted in USD is converted at fx_USD, as a GPU offer is. At $0.10
/// and $0.40 per million input and output tokens and fx_USD 7.2: ¥0.72 and ¥2.88; qa-api's
/// 2,000 requests a day of 1,000 + 500 tokens cost 2,000 × (1,000 × 0.72 + 500 × 2.88) / 1e6
/// = ¥4.32 a day, × 730 / 24 = ¥131.40 a month. Without fx_USD the row's currency is refused.
#[test]
fn an_api_quoted_in_usd_is_converted_at_its_rate() {
    let d = tempdir();
    let book = api_book("gpt-x", Some(2000.0)).sheet(
        "APIs",
        &[
            "provider",
            "model",
            "input_per_m",
            "output_per_m",
            "currency",
        ],
        vec![vec![
            Some(s("us-vendor")),
            Some(s("gpt-x")),
            Some(n(0.1)),
            Some(n(0.4)),
            Some(s("USD")),
        ]],
    );
    book.clone()
        .set("Assumptions", 3, 0, Some(s("fx_USD")))
        .set("Assumptions", 3, 1, Some(n(7.2)))
        .write(&d.path().join("b.xlsx"));
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    let cost = j["workloads"][1]["api_monthly_cost"].as_f64().unwrap();
    assert!(close(cost, 131.4), "{cost}");
    book.write(&d.path().join("c.xlsx"));
    gpuplan(d.path(), &["calc", "c.xlsx", "-q"]).fails_with(
        2,
        &["APIs!E2: gpt-x: quoted in USD, so the Assumptions need fx_USD"],
    );
}
