//! Rust monitors: a `Copy` type holding the state of a run (a
//! [`Run`](monitor_core::runtime::Run): 24 bytes, with the first violation
//! and a count of them), with the compiled [`Table`] as an associated
//! constant. No parsing, allocation or locking at run time, and only the
//! `no_std` part of `monitor-core`.
//!
//! The same generator serves the `#[monitor]` attribute ([`crate::expand`])
//! and `mongen compile --target rust`, which formats [`monitor_type`]'s
//! tokens as a file.

use monitor_core::runtime::{Table, Transitions, VIOLATION};
use monitor_core::Verdict;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The `Table` constant for `table`, as an expression.
///
/// ```
/// use monitor_core::MonitorTable;
/// use monitor_expand::rust::table_tokens;
///
/// let owned = MonitorTable::from_ltl("G(req -> X ack)")?;
/// let code = table_tokens(&owned.table()).to_string();
/// assert!(code.starts_with(":: monitor_core :: runtime :: Table { props : 2u32 ,"));
/// // Letters 0 to 3 from state 0, then from state 1 (where `!ack` violates).
/// assert!(code.contains("Dense (& [0u32 , 1u32 , 0u32 , 1u32 , :: monitor_core :: runtime ::"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn table_tokens(table: &Table<'_>) -> TokenStream {
    let props = table.props;
    let verdicts = table.verdicts.iter().map(|v| match v {
        Verdict::Undecided => quote!(::monitor_core::Verdict::Undecided),
        Verdict::Satisfied => quote!(::monitor_core::Verdict::Satisfied),
        Verdict::Violated => quote!(::monitor_core::Verdict::Violated),
    });
    // The rejecting sink by name, other targets as numbers.
    let target = |t: &u32| {
        if *t == VIOLATION {
            quote!(::monitor_core::runtime::VIOLATION)
        } else {
            quote!(#t)
        }
    };
    let transitions = match table.transitions {
        Transitions::Dense(next) => {
            let next = next.iter().map(target);
            quote!(::monitor_core::runtime::Transitions::Dense(&[#(#next),*]))
        }
        Transitions::Diagram { roots, nodes } => {
            let nodes = nodes.iter().map(|[v, lo, hi]| quote!([#v, #lo, #hi]));
            quote!(::monitor_core::runtime::Transitions::Diagram {
                roots: &[#(#roots),*],
                nodes: &[#(#nodes),*],
            })
        }
    };
    let events = table.events.iter().map(target);
    let text = table.text;
    let spans = table.spans;
    quote! {
        ::monitor_core::runtime::Table {
            props: #props,
            verdicts: &[#(#verdicts),*],
            transitions: #transitions,
            events: &[#(#events),*],
            text: #text,
            spans: &[#(#spans),*],
        }
    }
}

/// What a generated monitor type looks like.
pub struct MonitorType<'a> {
    /// Its name.
    pub name: Ident,
    /// Its visibility (`pub`, `pub(crate)`, nothing).
    pub vis: TokenStream,
    /// The table.
    pub table: &'a Table<'a>,
    /// The documentation of the type, one string per line.
    pub doc: Vec<String>,
    /// More items for the type's `impl` block.
    pub methods: TokenStream,
}

/// The monitor type: a struct holding a
/// [`Run`](monitor_core::runtime::Run), `Clone`, `Copy`, `Default`,
/// with `new`, `step`, `verdict`, `state`, `reset`, `violation`,
/// `violations` and the table as `TABLE`.
///
/// ```
/// use monitor_core::MonitorTable;
/// use monitor_expand::rust::{monitor_type, MonitorType};
/// use quote::{format_ident, quote};
///
/// let owned = MonitorTable::from_ltl("G !err")?;
/// let (name, table) = (format_ident!("NoError"), &owned.table());
/// let m = MonitorType { name, vis: quote!(pub), table, doc: vec![], methods: quote!() };
/// let code = monitor_type(&m).to_string();
/// assert!(code.contains("pub struct NoError { run : :: monitor_core :: runtime :: Run , }"));
/// assert!(code.contains("pub const STATES : u32 = 1u32 ;"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn monitor_type(m: &MonitorType<'_>) -> TokenStream {
    let MonitorType {
        name,
        vis,
        table,
        doc,
        methods,
    } = m;
    let table_expr = table_tokens(table);
    let property = table.property();
    let states = table.num_states() as u32;
    let doc = doc.iter().map(|l| format!(" {l}"));
    quote! {
        #(#[doc = #doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #name {
            run: ::monitor_core::runtime::Run,
        }

        #[allow(dead_code)]
        impl #name {
            /// The compiled monitor: verdicts, transitions and explanations.
            pub const TABLE: ::monitor_core::runtime::Table<'static> = #table_expr;
            /// The property, as compiled.
            pub const PROPERTY: &'static str = #property;
            /// The number of states of the monitor.
            pub const STATES: u32 = #states;

            /// A monitor at the start of a run.
            pub const fn new() -> Self {
                Self { run: ::monitor_core::runtime::Run::new() }
            }

            /// Reads one letter: bit `i` is proposition `i` of the table.
            #[inline]
            pub fn step(&mut self, letter: u64) -> ::monitor_core::Verdict {
                self.run.step(&Self::TABLE, letter)
            }

            /// The verdict of the run so far (`Violated` for good after a
            /// violation).
            #[inline]
            pub fn verdict(&self) -> ::monitor_core::Verdict {
                self.run.verdict(&Self::TABLE)
            }

            /// The current state (after a violation: where the first one
            /// happened).
            #[inline]
            pub fn state(&self) -> u32 {
                self.run.state()
            }

            /// Back to the start of a run: no violation, no step read.
            #[inline]
            pub fn reset(&mut self) {
                self.run.reset();
            }

            /// Why the run violated the property, if it did: the first
            /// violation, with its position (`position`, counting from 0)
            /// and, for method calls, the call (`event`).
            pub fn violation(&self) -> ::core::option::Option<::monitor_core::Violation<'static>> {
                self.run.violation(&Self::TABLE)
            }

            /// How many steps violated the property, the first included
            /// (saturating at `u32::MAX`). After the first violation, which
            /// `violation` keeps, the monitor goes on as if each violating
            /// step had not been read, and counts the steps that violate the
            /// property from there.
            #[inline]
            pub fn violations(&self) -> u32 {
                self.run.violations()
            }

            #methods
        }
    }
}

/// `text` as a Markdown code span for a generated doc comment: fenced
/// with one backtick more than its longest run of backticks (padded with
/// spaces when it starts or ends with one), so that no user text (a
/// backtick, `[link]`, `<tag>`) leaves the span. `text` is one line.
///
/// ```
/// use monitor_expand::rust::code_span;
///
/// assert_eq!(code_span("G(req -> X ack)"), "`G(req -> X ack)`");
/// assert_eq!(code_span("a`b"), "``a`b``");
/// assert_eq!(code_span("`x`"), "`` `x` ``");
/// assert_eq!(code_span(""), "` `"); // `` would be two backticks
/// ```
pub fn code_span(text: &str) -> String {
    let (mut run, mut longest) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if text.is_empty() {
        return "` `".to_string();
    }
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// `bus_checker` → `BusChecker`.
///
/// ```
/// use monitor_expand::rust::camel_case;
///
/// assert_eq!(camel_case("bus_checker"), "BusChecker");
/// assert_eq!(camel_case("my-bus monitor"), "MyBusMonitor");
/// ```
pub fn camel_case(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `BusMonitor` → `bus_monitor`.
///
/// ```
/// use monitor_expand::rust::snake_case;
///
/// assert_eq!(snake_case("BusMonitor"), "bus_monitor");
/// assert_eq!(snake_case("bus"), "bus");
/// ```
pub fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `s` can be a Rust identifier (not a keyword).
///
/// ```
/// use monitor_expand::rust::is_rust_identifier;
///
/// assert!(is_rust_identifier("req_1"));
/// assert!(!is_rust_identifier("type") && !is_rust_identifier("x > 3"));
/// assert!(!is_rust_identifier("self") && !is_rust_identifier("_"));
/// ```
pub fn is_rust_identifier(s: &str) -> bool {
    syn::parse_str::<Ident>(s).is_ok()
}
