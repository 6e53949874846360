//! The SVA front end against the PSL front end, on the fragment the two
//! languages share: random properties of the oracle's generator
//! (`GenConfig::shared()`, no `first_match`), printed as SVA and as PSL
//! by the oracle's printers (`tests/sva_oracle/print.rs`, the standards'
//! correspondence: `weak(r)` is `{r}`, `s_until` is `until!`,
//! `accept_on` is `async_abort`, ...), read by `parse_sva` and
//! `parse_psl`, must give exact minimal monitors with the same language
//! (informative monitors are left out: they read the formula as written,
//! and the two texts are written differently, `x && y` being
//! `((x -> (y -> false)) -> false)` in the PSL).

mod sva_oracle;

use monitor_core::automaton::BadPrefixDfa;
use monitor_core::formula::sva::parse_sva;
use monitor_core::formula::{parse_psl, Formula};
use monitor_core::translate::{Builder, Config};
use sva_oracle::*;

fn monitor(f: &Formula, ctx: &str) -> BadPrefixDfa {
    Builder::new()
        .configure(Config::new().check_safety(false))
        .build_from_formula(f)
        .unwrap_or_else(|e| panic!("{ctx}: {e}"))
        .into_dfa()
}

/// 600 properties, of one to three levels of property operators, with
/// sampled values and aborts; the SVA also fully parenthesized.
#[test]
fn sva_and_psl_of_the_shared_fragment_compile_to_the_same_monitors() {
    let cfg = GenConfig {
        disable: false,
        ..GenConfig::shared()
    };
    let mut differ_in_text = 0;
    for seed in 0..600u64 {
        let mut g = Gen::new(seed ^ 0x5a5f, cfg.clone());
        let p = g.assertion(1 + (seed % 3) as u32);
        let text = sva(&p, Parens::Minimal);
        let ctx = format!("seed {seed}: {text}");
        let psl_text = psl(&p).unwrap_or_else(|| panic!("{ctx}: outside the shared fragment"));
        let ctx = format!("{ctx}\n  PSL: {psl_text}");
        let f = parse_sva(&text).unwrap_or_else(|e| panic!("{ctx}: SVA does not parse: {e}"));
        let full = parse_sva(&sva(&p, Parens::Full))
            .unwrap_or_else(|e| panic!("{ctx}: full SVA does not parse: {e}"));
        let g = parse_psl(&psl_text).unwrap_or_else(|e| panic!("{ctx}: PSL does not parse: {e}"));
        differ_in_text += usize::from(f != g);
        let (ms, mp) = (monitor(&f, &ctx), monitor(&g, &ctx));
        if let Some((word, vs, vp)) = ms.first_difference(&mp) {
            panic!(
                "{ctx}\n  the monitors differ after {} letters ({word:?}): SVA {vs:?}, PSL {vp:?}\n  \
                 SVA formula: {f}\n  PSL formula: {g}",
                word.len()
            );
        }
        assert!(
            ms.first_difference(&monitor(&full, &ctx)).is_none(),
            "{ctx}: the fully parenthesized SVA differs"
        );
    }
    // The two texts are not one formula under another name: most read
    // to different formulas (`##[1:2]` is not `; true[*0:1] ;`), which
    // only the automata find equal.
    assert!(
        differ_in_text >= 300,
        "{differ_in_text} of 600 read to different formulas"
    );
}

/// Whether `p` uses `first_match` (which PSL does not have).
fn has_first_match(f: &Formula) -> bool {
    f.subformulas_postorder()
        .iter()
        .any(|g| g.op() == monitor_core::formula::Op::FirstMatch)
}

/// The round trip through the crate's printer: SVA read by `parse_sva`
/// (and assertions under `disable iff` by `parse_sva_directive`), printed
/// by `Formula::to_psl`, read back by `parse_psl`: the same formula, or
/// at least the same monitor. 1,000 random properties of everything the
/// oracle generates; only `first_match` may refuse to print.
#[test]
fn sva_formulas_print_as_psl_and_read_back() {
    let mut same_formula = 0;
    let mut printed = 0;
    for seed in 0..1000u64 {
        let mut g = Gen::new(seed ^ 0x7e7, GenConfig::full());
        let p = g.assertion(1 + (seed % 2) as u32);
        let text = sva(&p, Parens::Minimal);
        let f = if matches!(p, Prop::DisableIff(..)) {
            monitor_core::formula::sva::parse_sva_directive(&format!("assert property ({text});"))
                .map(|d| d.formula)
        } else {
            parse_sva(&text)
        }
        .unwrap_or_else(|e| panic!("seed {seed}: `{text}` does not parse: {e}"));
        let ctx = format!("seed {seed}: {text}\n  formula: {f}");
        let back = match f.to_psl() {
            Ok(t) => parse_psl(&t)
                .unwrap_or_else(|e| panic!("{ctx}\n  its PSL `{t}` does not parse: {e}")),
            Err(e) => {
                assert!(has_first_match(&f), "{ctx}: not printed: {e}");
                continue;
            }
        };
        printed += 1;
        if back == f {
            same_formula += 1;
        } else {
            assert!(
                monitor(&f, &ctx)
                    .first_difference(&monitor(&back, &ctx))
                    .is_none(),
                "{ctx}\n  read back as {back}, another monitor"
            );
        }
    }
    assert!(printed >= 800, "{printed} of 1000 printed");
    // Most are the same formula; the others are rewritten by the
    // constructors on the way back (a `{r} <>-> f` printed as
    // `!({r} |-> !f)`, ...), and the monitors compare them.
    assert!(
        same_formula * 2 >= printed,
        "{same_formula} of {printed} read back as the same formula"
    );
}
