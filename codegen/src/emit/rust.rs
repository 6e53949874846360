//! `mongen compile --target rust`: the monitor type of the `#[monitor]`
//! attribute ([`monitor_expand::rust::monitor_type`]), formatted as a file
//! users paste into their crate.

use monitor_core::automaton::BadPrefixDfa;
use monitor_core::MonitorTable;
use std::collections::HashSet;

use monitor_expand::rust::{camel_case, code_span, is_rust_identifier, monitor_type, MonitorType};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use super::names::RUST_KEYWORDS;
use super::{Backend, Common, EmitError};

/// The parameters of `observe` for the propositions `names`: identifiers
/// that rustc takes without a warning under `#![deny(warnings)]`, all
/// different.
///
/// A name is written in ASCII snake case (`Req` → `req`, `reqValid` →
/// `req_valid`, any other character a `_`, runs of `_` as one, none at
/// either end), so that prelude variants (`None`, `Some`, `Ok`, `Err`),
/// which a parameter pattern would read as a refutable pattern, become
/// plain bindings; an empty result is `p`; a result starting with a digit
/// or equal to a keyword gets `p_` in front; a name taken by an earlier
/// proposition gets `_2`, `_3`, … (so `a.b` and `a_b` are `a_b` and
/// `a_b_2`, in the monitor's order of propositions).
///
/// ```
/// use mongen::emit::rust::parameter_names;
///
/// let names = ["None", "Some", "Req", "req", "type", "x > 3", "", "9lives", "é"];
/// let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
/// assert_eq!(
///     parameter_names(&names),
///     ["none", "some", "req", "req_2", "p_type", "x_3", "p", "p_9lives", "p_2"],
/// );
/// ```
pub fn parameter_names(names: &[String]) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let mut snake = String::with_capacity(name.len());
        let mut last: Option<char> = None;
        for c in name.chars() {
            if c.is_ascii_uppercase() {
                // `reqValid` → `req_valid`; `REQ` → `req`.
                if last.is_some_and(|l| l.is_ascii_lowercase() || l.is_ascii_digit()) {
                    snake.push('_');
                }
                snake.push(c.to_ascii_lowercase());
            } else if c.is_ascii_lowercase() || c.is_ascii_digit() {
                snake.push(c);
            } else if !snake.ends_with('_') {
                // rustc's snake case has no `__` inside a name.
                snake.push('_');
            }
            last = Some(c);
        }
        let snake = snake.trim_matches('_');
        let base = if snake.is_empty() {
            "p".to_string()
        } else if snake.starts_with(|c: char| c.is_ascii_digit()) || RUST_KEYWORDS.contains(&snake)
        {
            format!("p_{snake}")
        } else {
            snake.to_string()
        };
        let mut ident = base.clone();
        let mut k = 2;
        while taken.contains(&ident) {
            ident = format!("{base}_{k}");
            k += 1;
        }
        taken.insert(ident.clone());
        out.push(ident);
    }
    out
}

/// Options of [`emit_rust`].
#[derive(Clone, Debug, Default)]
pub struct RustOptions {
    /// The type is `NameMonitor` (`--name bus` gives `BusMonitor`, the
    /// default `monitor` gives `Monitor`). Propositions are the
    /// arguments of `observe` (`defines` and `informative` are not read);
    /// `three_valued` is said in the type's documentation.
    pub common: Common,
}

impl Backend for RustOptions {
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError> {
        emit_rust(dfa, self)
    }
}

/// Writes `dfa` as a Rust module item: the monitor type `NameMonitor`,
/// formatted, with an `observe` method taking one `bool` per proposition
/// (up to 64), named by [`parameter_names`].
///
/// ```
/// use mongen::emit::rust::{emit_rust, RustOptions};
/// use mongen::emit::Common;
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let code = emit_rust(&dfa, &RustOptions { common: Common::named("bus") })?;
/// assert!(code.contains("pub struct BusMonitor {"));
/// assert!(code.contains("pub fn observe(&mut self, req: bool, ack: bool) -> ::monitor_core::Verdict {"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_rust(dfa: &BadPrefixDfa, opts: &RustOptions) -> Result<String, EmitError> {
    // `bus` and `bus_monitor` give `BusMonitor`; `monitor` gives `Monitor`.
    let camel = camel_case(&opts.common.name);
    let type_name = if camel.ends_with("Monitor") {
        camel
    } else {
        format!("{camel}Monitor")
    };
    if !is_rust_identifier(&type_name) {
        return Err(EmitError::Name(opts.common.name.clone()));
    }
    let name = Ident::new(&type_name, Span::call_site());
    let owned = MonitorTable::from_dfa(dfa);
    let table = owned.table();
    let names = dfa.alphabet().names();
    let param_names = parameter_names(names);
    let methods = if names.len() <= 64 {
        let params: Vec<Ident> = param_names.iter().map(|n| format_ident!("{}", n)).collect();
        // Bit i is proposition i; no `<< 0` or `0 |` (clippy's identity_op
        // would flag the code users paste).
        let bits: Vec<TokenStream> = params
            .iter()
            .zip(0u32..)
            .map(|(p, i)| match i {
                // No parentheses: `step(a as u64)` alone would get
                // unused_parens.
                0 => quote!(#p as u64),
                _ => quote!(((#p as u64) << #i)),
            })
            .collect();
        let letter = if bits.is_empty() {
            quote!(0u64)
        } else {
            quote!(#(#bits)|*)
        };
        quote! {
            /// Reads one letter, given as the value of each proposition.
            #[inline]
            #[allow(clippy::too_many_arguments)]
            pub fn observe(&mut self, #(#params: bool),*) -> ::monitor_core::Verdict {
                self.step(#letter)
            }
        }
    } else {
        TokenStream::new()
    };
    // Doc lines hold user text: one line each, without control characters
    // (a lone CR in a doc comment is a rustc error), in a code span it
    // cannot leave (a backtick would make `[x]` a broken link for rustdoc).
    let span = |s: &str| code_span(&super::names::comment_safe(s));
    let mut doc = vec![
        format!("Monitor of {}:", span(dfa.name())),
        format!(
            "the minimal deterministic automaton of its bad prefixes ({}){},",
            super::names::states(dfa.num_states()),
            if opts.common.three_valued {
                ", with three-valued verdicts"
            } else {
                ""
            }
        ),
        format!("generated by mongen {}.", env!("CARGO_PKG_VERSION")),
        String::new(),
        "Propositions (bit of a letter, parameter of `observe`):".to_string(),
    ];
    for (i, (n, p)) in names.iter().zip(&param_names).enumerate() {
        doc.push(format!("* bit {i}: {} (`{p}`)", span(n)));
    }
    let tokens = monitor_type(&MonitorType {
        name,
        vis: quote!(pub),
        table: &table,
        doc,
        methods,
    });
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| EmitError::Template(format!("generated Rust: {e}")))?;
    let header = format!(
        "// Monitor for the property\n//     {}\n// generated by mongen {}. It needs the crate `monitor-core` (its `no_std`\n// runtime suffices: `default-features = false`).\n\n",
        super::names::comment_safe(dfa.name()),
        env!("CARGO_PKG_VERSION")
    );
    Ok(header + &prettyplease::unparse(&file))
}
