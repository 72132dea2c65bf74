//! Any text as a formula over two numbers and a flag: compiling and evaluating must never panic
//! or overflow the stack, and a compiled formula must agree with evalexpr where both succeed.
#![no_main]

use gpuplan::formula::{reference_eval, InputVar, Program};
use gpuplan::model::{FormulaDef, Origin, Scope};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let def = FormulaDef {
        name: "f".into(),
        expression: text.to_string(),
        scope: Scope::Candidate,
        unit: String::new(),
        description: String::new(),
        origin: Origin::User,
        cell: None,
    };
    let inputs = [InputVar::num("x"), InputVar::num("y"), InputVar::bool("flag")];
    let Ok(p) = Program::compile(&inputs, &[&def], &[]) else { return };
    for (x, y, flag) in [(0.0, 0.0, 0.0), (1.5, -2.0, 1.0), (1e300, 3.0, 0.0)] {
        let mut values = vec![x, y, flag, 0.0];
        let mut scratch = p.scratch();
        let ours = p.eval(&mut values, &mut scratch).map(|_| values[3]);
        if let (Ok(v), Ok(r)) = (ours, reference_eval(&p, &[&def], &[x, y, flag, 0.0])) {
            let theirs = r[3];
            assert!(v == theirs || (v - theirs).abs() <= 1e-9 * v.abs().max(theirs.abs()), "{text}: {v} vs {theirs}");
        }
    }
});
