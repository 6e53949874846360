//! A state's edges as an `if`/`else` chain, shared by the hardware
//! emitters (Verilog `case` items, SystemC `switch` cases).

use monitor_core::automaton::{BadPrefixDfa, Guard, LabelError, Labeler, StateId, Target};

/// One link of a chain: taken when `guard` holds (`None`: the final,
/// unconditional link).
pub(crate) struct Branch {
    pub guard: Option<Guard>,
    pub target: Target,
}

/// How big a guard is to print (literals plus operators, roughly).
fn weight(g: &Guard) -> usize {
    match g.cubes() {
        Some(cubes) => cubes.iter().map(|c| c.len() + 1).sum(),
        None => g.literals(),
    }
}

/// The edges of `s` as a chain in which the largest guard is the final
/// `else` (the guards are disjoint and cover every letter, so it needs no
/// test). An edge to `implicit` (the caller's default, such as the
/// self-loop of a binary-encoded state) may instead be left out, which the
/// chain does when that prints no more. `labels` labels the edges of the
/// monitor.
pub(crate) fn chain(
    labels: &mut Labeler<'_>,
    s: StateId,
    implicit: Option<Target>,
) -> Result<Vec<Branch>, LabelError> {
    let mut edges = labels.edges(s)?;
    let Some(largest) = (0..edges.len()).max_by_key(|&i| (weight(&edges[i].guard), i)) else {
        return Ok(Vec::new());
    };
    let total: usize = edges.iter().map(|e| weight(&e.guard)).sum();
    let with_else = total - weight(&edges[largest].guard);
    let omitted = edges
        .iter()
        .position(|e| Some(e.target) == implicit)
        .filter(|&i| total - weight(&edges[i].guard) <= with_else);
    let last = match omitted {
        Some(i) => {
            edges.remove(i);
            None
        }
        None => Some(edges.remove(largest)),
    };
    let mut out: Vec<Branch> = edges
        .into_iter()
        .map(|e| Branch {
            guard: Some(e.guard),
            target: e.target,
        })
        .collect();
    if let Some(last) = last {
        out.push(Branch {
            guard: None,
            target: last.target,
        });
    }
    Ok(out)
}

/// The shortest word reaching `s`, for a comment (`start` for the start
/// state; long words are cut).
pub(crate) fn access_note(dfa: &BadPrefixDfa, s: StateId) -> String {
    if s == dfa.start() {
        return "start".into();
    }
    let word: Vec<String> = dfa
        .access_word(s)
        .iter()
        .map(|g| g.display(dfa.alphabet()).to_string())
        .collect();
    let text = format!("after {}", word.join("; "));
    let text = crate::emit::names::comment_safe(&text);
    if text.chars().count() > 64 {
        let head: String = text.chars().take(60).collect();
        format!("{head} ...")
    } else {
        text
    }
}
