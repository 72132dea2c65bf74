//! Choosing among candidates: ties, and the shortcuts (best n, threads) that must not change
//! the choice.

use super::*;

#[test]
fn ties_go_to_fewer_gpus_then_sheet_order() {
    // 10 GiB needs 10 × 1.2 = 12 GiB with headroom: two 10 GiB cards, 2 × ¥2.5 × 10 h = ¥50, the same as
    // one 24 GiB card at ¥5. Listed first, the two-GPU offer loses the tie; between the two
    // one-GPU offers at ¥5 the first in the sheet wins.
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(10.0);
    w.spot_ok = false;
    let small = offer("S", 10.0, Some(2.5), None, None, None);
    let a = offer("A", 24.0, Some(5.0), None, None, None);
    let b = offer("B", 24.0, Some(5.0), None, None, None);
    let p = plan(input(
        vec![w],
        vec![small, a, b],
        &[("cold_start_min", 0.0)],
    ))
    .unwrap();
    let s = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.input.gpus[c.offer].gpu == "S")
        .unwrap();
    assert_eq!(p.value(s, "gpus_total"), Some(2.0));
    assert!(close(s.cost(Mode::OnDemand).unwrap(), 50.0, 1e-9));
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(p.input.gpus[c.offer].gpu, "A");
    assert!(close(ch.tco, 50.0, 1e-9));
}

#[test]
fn keeping_the_best_n_and_threads_do_not_change_the_plan() {
    let mut ws = Vec::new();
    for (i, m) in [
        "Qwen2.5-7B",
        "Llama-3.1-8B",
        "Llama-2-13B",
        "Qwen2.5-32B",
        "Mistral-7B",
    ]
    .iter()
    .enumerate()
    {
        let mut w = workload(&format!("w{i}"), Kind::Inference, Some(m));
        w.numbers.concurrency = Some(10.0 * (i + 1) as f64);
        ws.push(w);
    }
    let inp = input(ws, catalog::gpus(), &[]);
    let programs = Programs::compile(&inp).unwrap();
    let all = plan_with(
        inp.clone(),
        &programs,
        &Options {
            keep: None,
            threads: 1,
            ..Options::default()
        },
    )
    .unwrap();
    let cut = plan_with(
        inp,
        &programs,
        &Options {
            keep: Some(3),
            threads: 2,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(all.totals, cut.totals);
    for w in 0..5 {
        let (a, ca) = all.chosen(w).unwrap();
        let (b, cb) = cut.chosen(w).unwrap();
        assert_eq!(
            (a.offer, ca.mode, ca.tco, a.values.clone()),
            (b.offer, cb.mode, cb.tco, b.values.clone())
        );
        assert_eq!(cut.workloads[w].candidates.len(), 3);
        // Every offer is a candidate at least once (several replica sizes may be tried on one).
        let offers: std::collections::BTreeSet<usize> = all.workloads[w]
            .candidates
            .iter()
            .map(|c| c.offer)
            .collect();
        assert_eq!(offers.len(), catalog::gpus().len());
    }
    // The plan says how many it kept and how many workloads had more (the writer's note).
    assert_eq!((cut.kept, cut.cut), (3, 5));
    assert_eq!(all.cut, 0);
    let note = crate::calc::candidates::candidates_note(&cut).expect("a note");
    assert!(
        note.message.contains("keeps the best 3 candidates"),
        "{}",
        note.message
    );
    assert!(
        note.message.contains("--candidates all"),
        "{}",
        note.message
    );
}
