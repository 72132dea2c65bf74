//! The cuts on plain values: two offline batch jobs, each on one 8 GiB card billed ¥10 an hour
//! on demand or ¥4 on spot (no cold start, no rework, no ops): A runs 100 h (¥1,000 on demand,
//! ¥400 on spot), B 50 h (¥500, ¥200). The budget with margin is ¥1,500 × 1.1 (trial reserve)
//! × 1.2 (safety margin) = ¥1,980; each cut saves its GPU cost's difference × 1.32: spot on A
//! ¥792, on B ¥396; postponing A ¥1,320, B ¥660.

use super::*;

fn jobs(budget: f64, set: &[(&str, f64)]) -> Plan {
    let job = |name: &str, hours: f64| {
        let mut w = workload(name, Kind::Batch, None);
        w.spot_ok = false;
        w.numbers.vram_gib = Some(8.0);
        w.numbers.hours_per_month = Some(hours);
        w
    };
    let mut all = vec![
        ("cold_start_min", 0.0),
        ("spot_rework", 0.0),
        ("budget_monthly", budget),
    ];
    all.extend_from_slice(set);
    plan(input(
        vec![job("a", 100.0), job("b", 50.0)],
        vec![offer("L4", 24.0, Some(10.0), None, Some(4.0), None)],
        &all,
    ))
    .unwrap()
}

/// The chosen cuts as (workload, action), and the budget after them.
fn chosen(p: &Plan) -> (Vec<(String, &'static str)>, f64) {
    let c = p.cuts.as_ref().expect("a budget");
    let list = c.chosen().map(|x| (x.workload.clone(), x.action)).collect();
    (list, c.after())
}

#[test]
fn within_the_budget_there_are_no_cuts_but_the_months_budget() {
    let p = jobs(2000.0, &[]);
    let c = p.cuts.as_ref().unwrap();
    assert!(close(c.planned, 1980.0, 1e-9), "{}", c.planned);
    assert!(c.met && !c.over() && c.cuts.is_empty());
}

/// ¥280 over: one spot cut does it, and B's (¥396) cuts less deep than A's (¥792).
#[test]
fn one_spot_cut_the_smallest_that_meets_the_budget() {
    let p = jobs(1700.0, &[]);
    let (list, after) = chosen(&p);
    assert_eq!(list, vec![("b".to_string(), "spot")]);
    assert!(close(after, 1980.0 - 396.0, 1e-9), "{after}");
    let c = p.cuts.as_ref().unwrap();
    // Every other cut is listed, alone, mildest first: spot on A, then the postpones.
    let others: Vec<(&str, &str, f64)> = c
        .cuts
        .iter()
        .filter(|x| !x.chosen)
        .map(|x| (x.workload.as_str(), x.action, x.saving))
        .collect();
    assert_eq!(others.len(), 3, "{others:?}");
    assert_eq!((others[0].0, others[0].1), ("a", "spot"));
    assert!(close(others[0].2, 792.0, 1e-9));
    assert!(others[1..].iter().all(|o| o.1 == "postpone"));
    assert!(close(others[1].2, 1320.0, 1e-9) && close(others[2].2, 660.0, 1e-9));
}

/// ¥980 over: both spot cuts (¥1,188) are less harm than any postpone, though one postpone
/// (A's ¥1,320) would do alone.
#[test]
fn two_mild_cuts_before_one_harsh_one() {
    let (list, after) = chosen(&jobs(1000.0, &[]));
    assert_eq!(
        list,
        vec![("a".to_string(), "spot"), ("b".to_string(), "spot")]
    );
    assert!(close(after, 1980.0 - 1188.0, 1e-9), "{after}");
}

/// ¥1,280 over: both spots (¥1,188) fall short, so a postpone is needed; A's alone (¥1,320)
/// meets it, which beats B's postpone with a spot on A (the same worst harm, one more cut).
#[test]
fn the_fewest_harsh_cuts_then_the_fewest_milder_ones() {
    let (list, after) = chosen(&jobs(700.0, &[]));
    assert_eq!(list, vec![("a".to_string(), "postpone")]);
    assert!(close(after, 1980.0 - 1320.0, 1e-9), "{after}");
}

/// ¥1,880 over: only both postpones meet it (the month then has nothing to pay, ¥0; a
/// postpone and a spot save ¥1,716 at most). With postpone left out of cut_order, both spots
/// leave ¥792: the budget is not met, and every workload's largest cut is the chosen set.
#[test]
fn an_unmet_budget_takes_every_workloads_largest_cut() {
    let p = jobs(100.0, &[]);
    let (list, after) = chosen(&p);
    assert_eq!(list.len(), 2);
    assert!(close(after, 0.0, 1e-9), "{after}");
    let mut p = jobs(100.0, &[]);
    let order = p
        .input
        .assumptions
        .items
        .iter_mut()
        .find(|a| a.key == "cut_order")
        .unwrap();
    order.value = Value::Text("spot, fp8".into());
    let p = plan(p.input).unwrap();
    let c = p.cuts.as_ref().unwrap();
    assert!(!c.met);
    assert!(close(c.after(), 1980.0 - 1188.0, 1e-9), "{}", c.after());
    assert!(c.cuts.iter().all(|x| x.action == "spot" && x.chosen));
}

#[test]
fn cut_order_words_and_separators() {
    use crate::model::CutAction;
    assert_eq!(
        CutAction::parse_order("postpone < spot，fp8、no-redundancy").unwrap(),
        vec![
            CutAction::Postpone,
            CutAction::Spot,
            CutAction::Fp8,
            CutAction::NoRedundancy
        ]
    );
    assert!(CutAction::parse_order("spot, cheaper")
        .unwrap_err()
        .contains("`cheaper` is not a cut"));
    assert!(CutAction::parse_order(" , ").is_err());
    assert_eq!(
        CutAction::order_text(&CutAction::ALL),
        crate::catalog::assumptions(Lang::En)
            .get("cut_order")
            .unwrap()
            .value
            .to_string()
    );
}
