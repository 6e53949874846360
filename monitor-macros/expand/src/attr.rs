//! The `#[monitor(...)]` attribute: arguments, compilation, expansion.
//!
//! Two uses:
//!
//! * on a struct: the propositions are its `bool` fields or named
//!   predicates (`ap(low = self.level < 10)`); the generated
//!   `NameMonitor` has `observe(&mut self, s: &Name) -> Verdict`;
//! * on an `impl` block: each method named in the formula is an event; a
//!   call steps the monitor kept in a field of `self` (`monitor` unless
//!   `field = ...` says otherwise) before the body runs, and a violation
//!   triggers the reaction chosen with `on_violation`.
//!
//! Every user mistake is a `syn::Error` at the span of the offending
//! tokens: the formula literal (with the column and a caret in the
//! message: stable Rust cannot point inside a string literal), the field,
//! the method or the option.

use monitor_core::analysis::lasso_text;
use monitor_core::formula::{
    parse, parse_psl, parse_sva_directive, DirectiveKind, Formula, ParseError,
};
use monitor_core::translate::{BuildError, Builder, Config, Verdicts};
use monitor_core::MonitorTable;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Error, Expr, Fields, FnArg, Ident, ImplItem, Item, LitInt, LitStr, Path, Type};

use crate::rust::{code_span, monitor_type, snake_case, MonitorType};

/// What to do when a call violates the property.
#[derive(Clone)]
enum Reaction {
    /// Panic with the explanation.
    Panic,
    /// Panic in debug builds (`debug_assertions`); record only otherwise.
    DebugPanic,
    /// `log::error!` with the explanation, through the `log` that
    /// `monitor-core` re-exports (the user's crate need not depend on it).
    Log,
    /// Record only (`violation()` tells).
    Ignore,
    /// The call returns `Err(From::from(violation))` without running, and
    /// the monitor does not move.
    Result,
    /// Call the function with the violation.
    Callback(Path),
}

/// The language of the property: which key gave it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Language {
    Ltl,
    Psl,
    Sva,
}

/// The parsed arguments of `#[monitor(...)]`.
struct Args {
    /// The property's literal (`ltl = "..."`, `psl = "..."` or `sva =
    /// "..."`).
    property: LitStr,
    /// Its language.
    language: Language,
    name: Option<Ident>,
    three_valued: bool,
    closure: bool,
    aps: Vec<(Ident, Expr)>,
    on_violation: Option<(Reaction, Span)>,
    field: Option<Ident>,
    max_states: Option<usize>,
}

fn parse_args(attr: TokenStream) -> Result<Args, Error> {
    let mut given: Vec<(Language, LitStr)> = Vec::new();
    let mut args = Args {
        property: LitStr::new("", Span::call_site()),
        language: Language::Ltl,
        name: None,
        three_valued: false,
        closure: false,
        aps: Vec::new(),
        on_violation: None,
        field: None,
        max_states: None,
    };
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("ltl") {
            given.push((Language::Ltl, meta.value()?.parse()?));
        } else if meta.path.is_ident("psl") {
            given.push((Language::Psl, meta.value()?.parse()?));
        } else if meta.path.is_ident("sva") {
            given.push((Language::Sva, meta.value()?.parse()?));
        } else if meta.path.is_ident("name") {
            args.name = Some(meta.value()?.parse()?);
        } else if meta.path.is_ident("verdicts") {
            let n: LitInt = meta.value()?.parse()?;
            match n.base10_parse::<u8>()? {
                2 => args.three_valued = false,
                3 => args.three_valued = true,
                _ => return Err(Error::new(n.span(), "`verdicts` is 2 or 3")),
            }
        } else if meta.path.is_ident("closure") {
            args.closure = true;
        } else if meta.path.is_ident("field") {
            args.field = Some(meta.value()?.parse()?);
        } else if meta.path.is_ident("max_states") {
            let n: LitInt = meta.value()?.parse()?;
            args.max_states = Some(n.base10_parse()?);
        } else if meta.path.is_ident("ap") {
            meta.parse_nested_meta(|ap| {
                let name = ap.path.get_ident().cloned().ok_or_else(|| {
                    Error::new(
                        ap.path.span(),
                        "expected a proposition name: `ap(name = expr)`",
                    )
                })?;
                let value = ap.value()?;
                let expr: Expr = if value.peek(LitStr) {
                    let lit: LitStr = value.parse()?;
                    lit.parse()?
                } else {
                    value.parse()?
                };
                args.aps.push((name, expr));
                Ok(())
            })?;
        } else if meta.path.is_ident("on_violation") {
            let path: Path = meta.value()?.parse()?;
            let span = path.span();
            let reaction = match path.get_ident().map(|i| i.to_string()).as_deref() {
                Some("panic") => Reaction::Panic,
                Some("debug_panic") => Reaction::DebugPanic,
                Some("log") => Reaction::Log,
                Some("ignore") => Reaction::Ignore,
                Some("result") => Reaction::Result,
                _ => Reaction::Callback(path),
            };
            args.on_violation = Some((reaction, span));
        } else {
            return Err(meta.error(
                "unknown option; expected `ltl`, `psl`, `sva`, `ap(...)`, `name`, `verdicts`, `closure`, `on_violation`, `field` or `max_states`",
            ));
        }
        Ok(())
    });
    parser.parse2(attr)?;
    let mut given = given.into_iter();
    match (given.next(), given.next()) {
        (Some((language, lit)), None) => {
            args.language = language;
            args.property = lit;
        }
        (Some(_), Some((_, second))) => {
            return Err(Error::new(
                second.span(),
                "give the property once: `ltl = \"...\"`, `psl = \"...\"` or `sva = \"...\"`",
            ))
        }
        (None, _) => {
            return Err(Error::new(
                Span::call_site(),
                "missing property: `#[monitor(ltl = \"G(req -> X ack)\")]`, \
                 `#[monitor(psl = \"always {req} |=> {ack}\")]` or \
                 `#[monitor(sva = \"req |=> ack\")]`",
            ))
        }
    }
    Ok(args)
}

/// A syntax error in the formula, at the literal (inside it on compilers
/// that can point there).
/// An SVA assertion as `mongen --sva` reads it (`[LABEL:] assert
/// property (p);`, or `p` alone, with its declarations): `p` checked at
/// every step (§16.14), a `disable iff (rst)` in the formula (`rst` is a
/// proposition). The monitor reads one snapshot per clock tick: a clock is
/// refused, and so is a cover (its matches are not failures).
fn sva_assertion(text: &str) -> Result<Formula, ParseError> {
    let d = parse_sva_directive(text)?;
    if d.kind == DirectiveKind::Cover {
        return Err(d.error(
            text,
            "a cover reports the matches of its sequence, not failures: monitor the \
             sequence with `assert property (not ...)`",
        ));
    }
    if let Some(c) = &d.clock {
        return Err(d.error(
            text,
            format!(
                "the clock `@({c})` is not read here: a monitor reads one snapshot per clock \
                 tick, so observe the signals at the clock edge and leave out the clock"
            ),
        ));
    }
    Ok(d.formula)
}

fn formula_error(lit: &LitStr, e: &ParseError) -> Error {
    let text = lit.value();
    // Point inside the literal when the compiler allows it (nightly); the
    // message carries the caret in any case.
    let span = if text.contains(['\\', '"']) {
        None
    } else {
        let start = 1 + e.offset();
        let end = (start + 1).min(text.len() + 1);
        lit.token().subspan(start..end)
    }
    .unwrap_or_else(|| lit.span());
    let caret = format!(
        "{}\n  {}\n  {}^",
        e.message(),
        text,
        " ".repeat(e.column().saturating_sub(1))
    );
    Error::new(
        span,
        format!(
            "syntax error in the formula at column {}: {caret}",
            e.column()
        ),
    )
}

fn build_error(lit: &LitStr, f: &Formula, e: &BuildError) -> Error {
    let mut msg = format!("cannot compile `{}`: {e}", f.to_spot());
    if e.state_limit().is_some() {
        msg.push_str("; raise the limit with `max_states = N` if this blow-up is expected");
    }
    Error::new(lit.span(), msg)
}

/// Compiles the formula (conjoined with `constraint` for event monitors)
/// and refuses non-safety properties unless the user opted in.
fn compile(
    args: &Args,
    formula: &Formula,
    constraint: Option<Formula>,
) -> Result<monitor_core::translate::Translation, Error> {
    let mut cfg = Config::new().verdicts(if args.three_valued {
        Verdicts::Three
    } else {
        Verdicts::Two
    });
    if let Some(n) = args.max_states {
        cfg = cfg.max_states(Some(n));
    }
    let mut b = Builder::new();
    b.configure(cfg);
    let f = match constraint {
        Some(c) => Formula::and([formula.clone(), c]),
        None => formula.clone(),
    };
    let t = b
        .build_from_formula(&f)
        .map_err(|e| build_error(&args.property, formula, &e))?;
    if t.is_safety() == Some(false) && !args.closure && !args.three_valued {
        let witness = t
            .non_safety_witness()
            .map(|w| {
                format!(
                    " (`{}` violates it, yet no prefix of it is a bad prefix)",
                    lasso_text(w, t.dfa().alphabet())
                )
            })
            .unwrap_or_default();
        return Err(Error::new(
            args.property.span(),
            format!(
                "`{}` is not a safety property{witness}: a monitor can only check its safety closure. \
                 Add `closure` to monitor the closure, or `verdicts = 3` for satisfied/violated/undecided verdicts",
                args.property.value().trim()
            ),
        ));
    }
    Ok(t)
}

/// The tokens a violation reaction runs, with `v` a
/// `Violation<'static>` in scope (`None` for `Result`, handled apart).
/// Reactions run on the first violation only; the monitor counts the
/// later ones (`violations()`).
fn reaction_tokens(reaction: &Reaction, monitor: &Ident) -> Option<TokenStream> {
    let prefix = format!("monitor {monitor}: {{}}");
    Some(match reaction {
        Reaction::Panic => quote!(::core::panic!(#prefix, v);),
        Reaction::DebugPanic => quote! {
            if ::core::cfg!(debug_assertions) {
                ::core::panic!(#prefix, v);
            }
        },
        Reaction::Log => quote!(::monitor_core::__private::log::error!(#prefix, v);),
        Reaction::Ignore => quote!(let _ = v;),
        Reaction::Callback(path) => quote!(#path(&v);),
        Reaction::Result => return None,
    })
}

/// Expands `#[monitor(attr)] item`; errors become `compile_error!`s next to
/// the unchanged item.
///
/// ```
/// use quote::quote;
/// let out = monitor_expand::expand(
///     quote!(ltl = "G(req -> X ack)"),
///     quote!(struct Bus { req: bool, ack: bool }),
/// );
/// let text = out.to_string();
/// assert!(text.contains("struct BusMonitor"));
/// assert!(text.contains("fn observe"));
/// ```
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    match try_expand(attr, item.clone()) {
        Ok(t) => t,
        Err(e) => {
            let err = e.to_compile_error();
            quote!(#item #err)
        }
    }
}

fn try_expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    let args = parse_args(attr)?;
    let text = args.property.value();
    let parsed = match args.language {
        Language::Ltl => parse(&text),
        Language::Psl => parse_psl(&text),
        Language::Sva => sva_assertion(&text),
    };
    let formula = parsed.map_err(|e| formula_error(&args.property, &e))?;
    let item: Item = syn::parse2(item)?;
    match item {
        Item::Struct(s) => expand_struct(&args, &formula, s),
        Item::Impl(i) => expand_impl(&args, &formula, i),
        other => Err(Error::new(
            other.span(),
            "#[monitor] goes on a struct (propositions: bool fields and predicates) \
             or on an impl block (propositions: method calls)",
        )),
    }
}

fn expand_struct(args: &Args, formula: &Formula, s: syn::ItemStruct) -> Result<TokenStream, Error> {
    if let Some((Reaction::Result, span)) = &args.on_violation {
        return Err(Error::new(
            *span,
            "`on_violation = result` is for method-call monitors (on an impl block); \
             `observe` returns the verdict",
        ));
    }
    if let Some(f) = &args.field {
        return Err(Error::new(
            f.span(),
            "`field` is for method-call monitors (on an impl block)",
        ));
    }
    let ty = &s.ident;
    let monitor = monitor_name(args, ty)?;
    let fields: Vec<&syn::Field> = match &s.fields {
        Fields::Named(n) => n.named.iter().collect(),
        _ => Vec::new(),
    };
    // Predicates must be used.
    let props = formula.atomic_propositions();
    for (name, _) in &args.aps {
        if !props.iter().any(|p| name.unraw() == p) {
            return Err(Error::new(
                name.span(),
                format!("the formula has no proposition `{name}`"),
            ));
        }
    }
    if props.len() > 64 {
        return Err(Error::new(
            args.property.span(),
            format!(
                "{} propositions: a monitor reads at most 64 per step",
                props.len()
            ),
        ));
    }
    let t = compile(args, formula, None)?;
    // Explanations quote the property as written.
    let mut dfa = t.into_dfa();
    dfa.set_name(args.property.value().trim());
    let dfa = &dfa;
    // One bit per proposition, in the monitor's order.
    let mut bits = Vec::new();
    for (i, p) in dfa.alphabet().names().iter().enumerate() {
        let i = i as u32;
        let value = if let Some((name, expr)) = args.aps.iter().find(|(n, _)| n.unraw() == p) {
            let _ = name;
            quote_spanned!(expr.span()=> ::monitor_core::runtime::bit(#expr))
        } else if let Some(field) = fields
            .iter()
            .find(|f| f.ident.as_ref().is_some_and(|i| i.unraw() == p))
        {
            let is_bool = matches!(&field.ty, Type::Path(tp) if tp.path.is_ident("bool"));
            if !is_bool {
                return Err(Error::new(
                    field.ty.span(),
                    format!(
                        "proposition `{p}` is the field `{p}: {}`; a proposition needs a `bool` field \
                         or a predicate such as `ap({p} = self.{p} > 0)`",
                        field.ty.to_token_stream()
                    ),
                ));
            }
            let ident = field.ident.as_ref().expect("named field");
            quote_spanned!(ident.span()=> ::monitor_core::runtime::bit(self.#ident))
        } else {
            let known: Vec<String> = fields
                .iter()
                .filter(|f| matches!(&f.ty, Type::Path(tp) if tp.path.is_ident("bool")))
                .filter_map(|f| f.ident.as_ref().map(|i| i.unraw().to_string()))
                .chain(args.aps.iter().map(|(n, _)| n.unraw().to_string()))
                .collect();
            return Err(Error::new(
                args.property.span(),
                format!(
                    "unknown proposition `{p}`: `{ty}` has no bool field `{p}` and no predicate `ap({p} = ...)`{}",
                    if known.is_empty() {
                        String::new()
                    } else {
                        format!(" (propositions available: {})", known.join(", "))
                    }
                ),
            ));
        };
        bits.push(if i == 0 {
            value
        } else {
            quote!((#value << #i))
        });
    }
    let owned = MonitorTable::from_dfa(dfa);
    let table = owned.table();
    // A method of the user's type, one per monitor of it (two monitors of
    // one struct need two names).
    let letter_fn = syn::parse_str::<Ident>(&format!(
        "__{}_letter",
        snake_case(&monitor.unraw().to_string())
    ))
    .map_err(|_| {
        Error::new(
            monitor.span(),
            "cannot name the monitor's letter method after this name",
        )
    })?;
    let (impl_generics, ty_generics, where_clause) = s.generics.split_for_impl();
    let reaction = match &args.on_violation {
        Some((r, _)) => reaction_tokens(r, &monitor),
        None => None,
    };
    let observe_body = match reaction {
        Some(react) => quote! {
            let before = self.run.is_violated(&Self::TABLE);
            let verdict = self.step(s.#letter_fn());
            if !before && verdict == ::monitor_core::Verdict::Violated {
                if let ::core::option::Option::Some(v) = self.violation() {
                    #react
                }
            }
            verdict
        },
        None => quote!(self.step(s.#letter_fn())),
    };
    let methods = quote! {
        /// Reads one snapshot: the propositions are evaluated on it.
        #[inline]
        pub fn observe #impl_generics (&mut self, s: &#ty #ty_generics) -> ::monitor_core::Verdict #where_clause {
            #observe_body
        }
    };
    let doc = vec![
        format!(
            "Monitor of {} over [`{}`] snapshots,",
            code_span(args.property.value().trim()),
            ty.unraw()
        ),
        format!(
            "generated by `#[monitor]` ({}): `observe` reads one snapshot and",
            states(dfa.num_states())
        ),
        "returns the verdict so far.".to_string(),
    ];
    let vis = s.vis.to_token_stream();
    let mtype = monitor_type(&MonitorType {
        name: monitor.clone(),
        vis,
        table: &table,
        doc,
        methods,
    });
    let bits = if bits.is_empty() {
        vec![quote!(0u64)]
    } else {
        bits
    };
    Ok(quote! {
        #s

        impl #impl_generics #ty #ty_generics #where_clause {
            #[doc(hidden)]
            #[inline(always)]
            #[allow(clippy::identity_op)]
            fn #letter_fn(&self) -> u64 {
                #(#bits)|*
            }
        }

        #mtype
    })
}

/// The monitor type's name: `name = ...`, or the type's name followed by
/// `Monitor`; never the type's own name, which would be defined twice.
fn monitor_name(args: &Args, ty: &Ident) -> Result<Ident, Error> {
    match &args.name {
        Some(name) if name.unraw() == ty.unraw() => Err(Error::new(
            name.span(),
            format!(
                "`{}` is the name of the type the monitor watches; give the monitor another `name`",
                ty.unraw()
            ),
        )),
        Some(name) => Ok(name.clone()),
        None => Ok(format_ident!("{}Monitor", ty)),
    }
}

/// Whether an event method reaches the monitor in `self.field` through a
/// shared reference (`true`: the field is a `Cell` or `Mutex`) or a
/// mutable one, and the receiver's span; `None` when it has no receiver or
/// takes `self` by value (`self`, `Box<Self>`, `Pin<Box<Self>>`): the call
/// consumes what holds the monitor.
fn receiver_access(sig: &syn::Signature) -> Option<(bool, Span)> {
    let Some(FnArg::Receiver(r)) = sig.inputs.first() else {
        return None;
    };
    // syn spells every receiver as a type: `&mut self` is `&mut Self`.
    let shared = match &*r.ty {
        Type::Reference(t) => t.mutability.is_none(),
        // `self.field` derefs through `Rc`, `Arc` and `Pin` to a shared
        // reference (a `Pin<&mut Self>` too: its `DerefMut` needs `Unpin`
        // and a `mut self`).
        Type::Path(p) => {
            let last = p.path.segments.last()?;
            match last.ident.to_string().as_str() {
                "Rc" | "Arc" => true,
                "Pin" => {
                    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                        return None;
                    };
                    match a.args.first()? {
                        syn::GenericArgument::Type(Type::Reference(_)) => true,
                        syn::GenericArgument::Type(Type::Path(inner))
                            if matches!(
                                inner.path.segments.last()?.ident.to_string().as_str(),
                                "Rc" | "Arc"
                            ) =>
                        {
                            true
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    Some((shared, r.span()))
}

/// `1 state`, `3 states` (the type's documentation).
fn states(n: usize) -> String {
    format!("{n} state{}", if n == 1 { "" } else { "s" })
}

/// `G(one event at a time)` over the events.
fn one_event_at_a_time(events: &[String]) -> Formula {
    let one = events.iter().enumerate().map(|(i, e)| {
        Formula::and(events.iter().enumerate().map(|(j, o)| {
            if i == j {
                Formula::ap(e)
            } else {
                Formula::not(Formula::ap(o))
            }
        }))
    });
    Formula::always(Formula::or(one))
}

fn expand_impl(
    args: &Args,
    formula: &Formula,
    mut block: syn::ItemImpl,
) -> Result<TokenStream, Error> {
    if let Some((name, _)) = args.aps.first() {
        return Err(Error::new(
            name.span(),
            "`ap(...)` is for snapshot monitors (on a struct); on an impl block the propositions are method calls",
        ));
    }
    let Type::Path(self_ty) = &*block.self_ty else {
        return Err(Error::new(
            block.self_ty.span(),
            "#[monitor] needs an impl block of a named type",
        ));
    };
    let ty_ident = self_ty
        .path
        .segments
        .last()
        .map(|s| s.ident.clone())
        .ok_or_else(|| Error::new(self_ty.span(), "expected a type name"))?;
    let monitor = monitor_name(args, &ty_ident)?;
    let field = args
        .field
        .clone()
        .unwrap_or_else(|| Ident::new("monitor", Span::call_site()));
    let events = formula.atomic_propositions();
    let methods: Vec<String> = block
        .items
        .iter()
        .filter_map(|i| match i {
            // `fn r#match` is the event `match`.
            ImplItem::Fn(f) => Some(f.sig.ident.unraw().to_string()),
            _ => None,
        })
        .collect();
    for e in &events {
        if !methods.contains(e) {
            return Err(Error::new(
                args.property.span(),
                format!(
                    "unknown proposition `{e}`: `{ty_ident}` has no method `{e}` in this impl block (methods: {})",
                    methods.join(", ")
                ),
            ));
        }
    }
    if events.is_empty() {
        return Err(Error::new(
            args.property.span(),
            "the formula names no method",
        ));
    }
    let t = compile(args, formula, Some(one_event_at_a_time(&events)))?;
    // Explanations name the user's property, not its conjunction with
    // the one-event-at-a-time constraint.
    let mut dfa = t.into_dfa();
    dfa.set_name(args.property.value().trim());
    let dfa = &dfa;
    let owned = MonitorTable::from_dfa_events(dfa);
    let table = owned.table();
    let reaction = args
        .on_violation
        .as_ref()
        .map_or(Reaction::DebugPanic, |(r, _)| r.clone());
    // Each event's constant, `EVENT_` and its name in upper case, with the
    // method that gives it (in the block's order, for the error).
    let mut constants: Vec<(String, String)> = Vec::new();
    for item in &mut block.items {
        let ImplItem::Fn(f) = item else { continue };
        let name = f.sig.ident.unraw().to_string();
        let Some(e) = dfa.alphabet().index(&name) else {
            continue;
        };
        let e = e as usize;
        let constant = format!("EVENT_{}", name.to_uppercase());
        // (The same method twice, under two `cfg`s, is no clash.)
        if let Some((_, other)) = constants.iter().find(|(c, n)| *c == constant && *n != name) {
            return Err(Error::new(
                f.sig.ident.span(),
                format!(
                    "the events `{other}` and `{name}` would both be the constant `{constant}` \
                     of `{monitor}`: rename one of the two methods"
                ),
            ));
        }
        constants.push((constant, name.clone()));
        if let Some(asyncness) = &f.sig.asyncness {
            return Err(Error::new(
                asyncness.span(),
                format!(
                    "`{name}` is an `async fn`: its body, and so the monitor's step, would run \
                     when the future is first polled, and a future dropped before that would be \
                     no event. Step at the call with a plain fn returning the future, \
                     `fn {name}(&mut self, ..) -> impl Future<Output = T> + '_ {{ async move {{ .. }} }}`, \
                     or step when the body runs by calling an event method from inside it"
                ),
            ));
        }
        if let Some(constness) = &f.sig.constness {
            return Err(Error::new(
                constness.span(),
                format!(
                    "`{name}` is a `const fn`: an event steps the monitor in `self.{field}` at run \
                     time, which a `const fn` cannot do; remove `const`"
                ),
            ));
        }
        // The monitor in `self.field`, updated by `body`; type errors (a
        // plain field for a `&self` method) point at the receiver.
        let Some((shared, receiver_span)) = receiver_access(&f.sig) else {
            return Err(Error::new(
                f.sig.span(),
                format!(
                    "`{name}` is an event of the property, so it must take `&mut self` or `&self` \
                     (the monitor lives in `self.{field}`; `self: Rc<Self>`, `Arc<Self>` and \
                     `Pin<&mut Self>` reach it as `&self` does)"
                ),
            ));
        };
        let with = |body: TokenStream| {
            if shared {
                quote_spanned!(receiver_span=> <_ as ::monitor_core::runtime::SharedSlot<#monitor>>::with(&self.#field, |m: &mut #monitor| #body))
            } else {
                quote_spanned!(receiver_span=> <_ as ::monitor_core::runtime::Slot<#monitor>>::with(&mut self.#field, |m: &mut #monitor| #body))
            }
        };
        let prologue = match reaction_tokens(&reaction, &monitor) {
            Some(react) => {
                let step = with(quote!(m.__event(#e)));
                quote! {
                    if let ::core::option::Option::Some(v) = #step {
                        #react
                    }
                }
            }
            None => {
                // The method must return a Result.
                let returns_result = match &f.sig.output {
                    syn::ReturnType::Type(_, ty) => matches!(&**ty, Type::Path(p)
                        if p.path.segments.last().is_some_and(|s| s.ident == "Result")),
                    syn::ReturnType::Default => false,
                };
                if !returns_result {
                    return Err(Error::new(
                        f.sig.output.span().join(f.sig.ident.span()).unwrap_or(f.sig.ident.span()),
                        format!(
                            "with `on_violation = result`, the event `{name}` must return a `Result` \
                             whose error type implements `From<monitor_core::Violation<'static>>`"
                        ),
                    ));
                }
                let step = with(quote!(m.try_event(#e)));
                quote! {
                    if let ::core::result::Result::Err(v) = #step {
                        return ::core::result::Result::Err(::core::convert::From::from(v));
                    }
                }
            }
        };
        // The prologue goes in front of the body's statements, in the
        // body's own braces: wrapping the body in a block of its own would
        // make an expression body (`{ q.len() }`) a block in tail position
        // (`unused_braces`), and the user's tokens keep their spans.
        let mut stmts = syn::Block::parse_within.parse2(prologue)?;
        stmts.append(&mut f.block.stmts);
        f.block.stmts = stmts;
    }
    let mut event_consts = Vec::new();
    for (i, n) in dfa.alphabet().names().iter().enumerate() {
        let text = format!("EVENT_{}", n.to_uppercase());
        let c = syn::parse_str::<Ident>(&text).map_err(|_| {
            Error::new(
                args.property.span(),
                format!("the event `{n}` cannot be named by a constant (`{text}`)"),
            )
        })?;
        let doc = format!(" The event of a call to `{n}`.");
        // Letters without an upper case (`ĸ`) stay lower case.
        let allow = if text.chars().any(char::is_lowercase) {
            quote!(#[allow(non_upper_case_globals)])
        } else {
            quote!()
        };
        event_consts.push(quote!(#[doc = #doc] #allow pub const #c: usize = #i;));
    }
    let methods = quote! {
        #(#event_consts)*

        /// Reads event `e` (one of the `EVENT_` constants).
        #[inline]
        pub fn event(&mut self, e: usize) -> ::monitor_core::Verdict {
            self.run.step_event(&Self::TABLE, e)
        }

        /// Reads event `e` unless the property is violated or `e` would
        /// violate it: then the monitor does not move (nothing is read or
        /// counted) and the violation is returned.
        #[inline]
        pub fn try_event(&mut self, e: usize) -> ::core::result::Result<::monitor_core::Verdict, ::monitor_core::Violation<'static>> {
            self.run.try_event(&Self::TABLE, e)
        }

        #[doc(hidden)]
        #[inline]
        pub fn __event(&mut self, e: usize) -> ::core::option::Option<::monitor_core::Violation<'static>> {
            let before = self.run.is_violated(&Self::TABLE);
            if self.run.step_event(&Self::TABLE, e) == ::monitor_core::Verdict::Violated && !before {
                self.violation()
            } else {
                ::core::option::Option::None
            }
        }
    };
    let doc = vec![
        format!(
            "Monitor of {} over calls of `{ty_ident}`'s methods {},",
            code_span(args.property.value().trim()),
            events
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "generated by `#[monitor]` ({}). It lives in the field `{field}`",
            states(dfa.num_states())
        ),
        "(of this type, or a `Cell` or `Mutex` of it for `&self` methods).".to_string(),
    ];
    let vis = quote!(pub);
    let mtype = monitor_type(&MonitorType {
        name: monitor,
        vis,
        table: &table,
        doc,
        methods,
    });
    Ok(quote! {
        #block
        #mtype
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(attr: TokenStream, item: TokenStream) -> String {
        match try_expand(attr, item) {
            Ok(t) => panic!("expanded:\n{t}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn struct_monitors_read_bool_fields_and_predicates() {
        let out = try_expand(
            quote!(
                ltl = "G(req -> X ack) & G !(low && high)",
                ap(low = self.level < 10, high = "self.level > 90")
            ),
            quote!(
                pub struct Bus {
                    req: bool,
                    ack: bool,
                    level: u32,
                }
            ),
        )
        .unwrap();
        let file: syn::File = syn::parse2(out).unwrap();
        let text = prettyplease::unparse(&file);
        assert!(text.contains("pub struct BusMonitor {"), "{text}");
        assert!(
            text.contains("fn __bus_monitor_letter(&self) -> u64 {"),
            "{text}"
        );
        assert!(
            text.contains("(::monitor_core::runtime::bit(self.req) << 2u32)"),
            "{text}"
        );
        // Bit 0 unshifted (no `<< 0` for clippy's identity_op).
        assert!(
            text.contains("::monitor_core::runtime::bit(self.level > 90)\n")
                && !text.contains("<< 0u32"),
            "{text}"
        );
        assert!(
            text.contains("::monitor_core::runtime::bit(self.level < 10)"),
            "{text}"
        );
        assert!(
            text.contains("pub fn observe(&mut self, s: &Bus) -> ::monitor_core::Verdict {"),
            "{text}"
        );
    }

    #[test]
    fn impl_monitors_step_before_the_body() {
        let out = try_expand(
            quote!(ltl = "G(open -> X(!open U close))", field = mon, on_violation = panic),
            quote!(impl File { fn open(&mut self) { body(); } fn close(&self) {} fn other(self) {} }),
        )
        .unwrap();
        let file: syn::File = syn::parse2(out).unwrap();
        let text = prettyplease::unparse(&file);
        assert!(text.contains("pub struct FileMonitor {"), "{text}");
        assert!(
            text.contains("pub const EVENT_OPEN: usize = 0usize;"),
            "{text}"
        );
        assert!(text.contains("::monitor_core::runtime::Slot<"), "{text}");
        assert!(
            text.contains(">>::with(&mut self.mon, |m: &mut FileMonitor| m.__event(0usize))"),
            "{text}"
        );
        assert!(
            text.contains("::monitor_core::runtime::SharedSlot<"),
            "{text}"
        );
        // The prologue comes first, then the body.
        let open = text.find("fn open").unwrap();
        assert!(
            text[open..].find("m.__event(0usize)").unwrap() < text[open..].find("body()").unwrap()
        );
    }

    /// The statements of method `name` in the expansion.
    fn body_of(out: TokenStream, name: &str) -> Vec<syn::Stmt> {
        let file: syn::File = syn::parse2(out).unwrap();
        for item in file.items {
            let Item::Impl(i) = item else { continue };
            for it in i.items {
                if let ImplItem::Fn(f) = it {
                    if f.sig.ident == name {
                        return f.block.stmts;
                    }
                }
            }
        }
        panic!("no method `{name}`");
    }

    #[test]
    fn event_bodies_keep_their_statements() {
        // Whatever the body, the prologue is one more statement in front
        // of the user's, in the same block: no block in tail position
        // (`unused_braces` on `{ q.len() }`), the tail expression stays one.
        for reaction in [
            quote!(),
            quote!(, on_violation = panic),
            quote!(, on_violation = log),
            quote!(, on_violation = ignore),
        ] {
            let out = try_expand(
                quote!(ltl = "!query W connect" #reaction),
                quote!(impl Db {
                    fn connect(&mut self) {}
                    fn query(&mut self, q: &str) -> usize { q.len() }
                }),
            )
            .unwrap();
            let stmts = body_of(out.clone(), "query");
            assert_eq!(stmts.len(), 2, "{out}");
            assert!(
                matches!(&stmts[0], syn::Stmt::Expr(Expr::If(_), None)),
                "{out}"
            );
            assert!(
                matches!(&stmts[1], syn::Stmt::Expr(Expr::MethodCall(_), None)),
                "{out}"
            );
            assert_eq!(body_of(out, "connect").len(), 1);
        }
        let out = try_expand(
            quote!(ltl = "!send W connect", on_violation = result),
            quote!(impl Conn {
                fn connect(&mut self) -> Result<(), E> { Ok(()) }
                fn send(&mut self, x: &str) -> Result<u8, E> {
                    if x.is_empty() {
                        return Err(E);
                    }
                    let n = x.parse()?;
                    Ok(n)
                }
            }),
        )
        .unwrap();
        let stmts = body_of(out, "send");
        assert_eq!(stmts.len(), 4);
        assert!(matches!(&stmts[3], syn::Stmt::Expr(Expr::Call(_), None)));
    }

    #[test]
    fn reactions() {
        let expand_with = |reaction: TokenStream| {
            let out = try_expand(
                quote!(ltl = "G(open -> X !open)" #reaction),
                quote!(impl F { fn open(&mut self) {} }),
            )
            .unwrap();
            let file: syn::File = syn::parse2(out).unwrap();
            prettyplease::unparse(&file)
        };
        // `log` through `monitor-core`: the user's crate need not have it.
        let text = expand_with(quote!(, on_violation = log));
        assert!(
            text.contains("::monitor_core::__private::log::error!(\"monitor FMonitor: {}\", v);"),
            "{text}"
        );
        assert!(!text.contains(" ::log::"), "{text}");
        // The default: a panic in debug builds only.
        let text = expand_with(quote!());
        assert!(
            text.contains("if ::core::cfg!(debug_assertions) {"),
            "{text}"
        );
        // The violation names its event itself.
        assert!(!text.contains("with_event"), "{text}");
        let text = expand_with(quote!(, on_violation = panic));
        assert!(!text.contains("debug_assertions"), "{text}");
    }

    /// Issue 36, item 13: `fn r#match` panicked the macro (`EVENT_R#MATCH`
    /// is no identifier) and a raw field or `name` was not its name.
    #[test]
    fn raw_identifiers_are_their_names() {
        let out = try_expand(
            quote!(ltl = "G(match -> X !match)"),
            quote!(impl P { fn r#match(&mut self) {} fn r#type(&mut self) {} }),
        )
        .unwrap()
        .to_string();
        assert!(out.contains("EVENT_MATCH"), "{out}");
        assert!(!out.contains("EVENT_TYPE"), "{out}");
        let out = try_expand(
            quote!(ltl = "G(type -> X r)", name = r#loop),
            quote!(
                struct S {
                    r#type: bool,
                    r: bool,
                }
            ),
        )
        .unwrap()
        .to_string();
        assert!(out.contains("fn __loop_letter"), "{out}");
        assert!(out.contains("bit (self . r#type)"), "{out}");
        let out = try_expand(
            quote!(ltl = "G !dyn", ap(r#dyn = self.n > 3)),
            quote!(
                struct S {
                    n: u8,
                }
            ),
        )
        .unwrap()
        .to_string();
        assert!(out.contains("bit (self . n > 3)"), "{out}");
    }

    /// Event constants of non-ASCII names: upper case where there is one
    /// (`ĸ` has none: the constant is allowed to stay lower case).
    #[test]
    fn event_constants_of_any_name() {
        let out = try_expand(
            quote!(ltl = "G(\"ĸ\" -> X \"é\")"),
            quote!(impl K { fn ĸ(&mut self) {} fn é(&mut self) {} }),
        )
        .unwrap()
        .to_string();
        assert!(
            out.contains("# [allow (non_upper_case_globals)] pub const EVENT_ĸ"),
            "{out}"
        );
        assert!(out.contains("pub const EVENT_É"), "{out}");
        assert!(
            !out.contains("allow (non_upper_case_globals)] pub const EVENT_É"),
            "{out}"
        );
    }

    /// Issue 36, item 13: `open` and `OPEN` both made `EVENT_OPEN`, a
    /// duplicate definition reported at the attribute.
    #[test]
    fn names_equal_after_case_conversion_are_refused() {
        let e = error(
            // `OPEN` unquoted would be `O PEN` (once `PEN`).
            quote!(ltl = "G(open -> X \"OPEN\")"),
            quote!(impl F { fn open(&mut self) {} fn OPEN(&mut self) {} }),
        );
        assert!(
            e.contains("`open` and `OPEN`") && e.contains("`EVENT_OPEN`"),
            "{e}"
        );
        // Apart from the events, the methods may be anything.
        assert!(try_expand(
            quote!(ltl = "G(open -> X close)"),
            quote!(impl F { fn open(&mut self) {} fn close(&mut self) {} fn OPEN(&self) {} }),
        )
        .is_ok());
    }

    /// Issue 36, item 13: an `async fn` event stepped when its future was
    /// first polled (a dropped future was no event), a `const fn` event
    /// failed inside monitor-core.
    #[test]
    fn async_and_const_events_are_refused() {
        let e = error(
            quote!(ltl = "G(start -> X stop)"),
            quote!(impl T { async fn start(&mut self) {} fn stop(&mut self) {} }),
        );
        assert!(e.contains("`start` is an `async fn`"), "{e}");
        assert!(e.contains("-> impl Future<Output = T> + '_"), "{e}");
        let e = error(
            quote!(ltl = "G(start -> X stop)"),
            quote!(impl T { fn start(&mut self) {} const fn stop(&mut self) {} }),
        );
        assert!(e.contains("`stop` is a `const fn`"), "{e}");
        // The same as methods that are not events.
        assert!(try_expand(
            quote!(ltl = "G(start -> X stop)"),
            quote!(impl T {
                fn start(&mut self) {}
                fn stop(&mut self) {}
                async fn other(&self) {}
                const fn n() -> u8 { 1 }
            }),
        )
        .is_ok());
    }

    /// Receivers: `&self` and `&mut self` in every spelling; shared pointers
    /// reach the monitor as `&self` does; a receiver that consumes `self`
    /// is refused.
    #[test]
    fn receivers_of_every_kind() {
        let shared = |receiver: TokenStream| {
            let out = try_expand(
                quote!(ltl = "G !open"),
                quote!(impl F { fn open(#receiver) {} }),
            );
            match out {
                Ok(t) => Ok(t.to_string().contains("SharedSlot")),
                Err(e) => Err(e.to_string()),
            }
        };
        assert_eq!(shared(quote!(&mut self)), Ok(false));
        assert_eq!(shared(quote!(&'a mut self)), Ok(false));
        assert_eq!(shared(quote!(self: &mut Self)), Ok(false));
        assert_eq!(shared(quote!(mut self: &mut Self)), Ok(false));
        assert_eq!(shared(quote!(self: Pin<&mut Self>)), Ok(true));
        assert_eq!(shared(quote!(&self)), Ok(true));
        assert_eq!(shared(quote!(&'a self)), Ok(true));
        assert_eq!(shared(quote!(self: &Self)), Ok(true));
        assert_eq!(shared(quote!(self: Rc<Self>)), Ok(true));
        assert_eq!(shared(quote!(self: std::sync::Arc<Self>)), Ok(true));
        assert_eq!(shared(quote!(self: Pin<&Self>)), Ok(true));
        for by_value in [
            quote!(self),
            quote!(mut self),
            quote!(self: Self),
            quote!(self: Box<Self>),
            quote!(self: Pin<Box<Self>>),
            quote!(),
            quote!(x: u8),
        ] {
            let e = shared(by_value.clone()).unwrap_err();
            assert!(
                e.contains("must take `&mut self` or `&self`"),
                "{by_value}: {e}"
            );
        }
    }

    /// A `name` equal to the type's own is a duplicate definition: refused
    /// at the name.
    #[test]
    fn the_monitor_is_not_named_as_its_type() {
        let e = error(
            quote!(ltl = "G a", name = S),
            quote!(
                struct S {
                    a: bool,
                }
            ),
        );
        assert!(e.contains("`S` is the name of the type"), "{e}");
        let e = error(
            quote!(ltl = "G a", name = F),
            quote!(impl F { fn a(&mut self) {} }),
        );
        assert!(e.contains("`F` is the name of the type"), "{e}");
    }

    #[test]
    fn mistakes_are_explained() {
        let e = error(
            quote!(ltl = "G(req -> )"),
            quote!(
                struct Bus {
                    req: bool,
                }
            ),
        );
        assert!(
            e.starts_with("syntax error in the formula at column 10: expected"),
            "{e}"
        );
        assert!(e.contains("\n  G(req -> )\n           ^"), "{e}");
        let e = error(
            quote!(ltl = "G(req -> X acks)"),
            quote!(
                struct Bus {
                    req: bool,
                    ack: bool,
                }
            ),
        );
        assert!(
            e.contains("unknown proposition `acks`: `Bus` has no bool field `acks`")
                && e.contains("available: req, ack"),
            "{e}"
        );
        let e = error(
            quote!(ltl = "G count"),
            quote!(
                struct C {
                    count: u32,
                }
            ),
        );
        assert!(
            e.contains("proposition `count` is the field `count: u32`"),
            "{e}"
        );
        let e = error(
            quote!(ltl = "G(req -> F ack)"),
            quote!(
                struct Bus {
                    req: bool,
                    ack: bool,
                }
            ),
        );
        assert!(
            e.contains("is not a safety property") && e.contains("`closure`"),
            "{e}"
        );
        assert!(try_expand(
            quote!(ltl = "G(req -> F ack)", closure),
            quote!(
                struct Bus {
                    req: bool,
                    ack: bool,
                }
            )
        )
        .is_ok());
        assert!(try_expand(
            quote!(ltl = "G(req -> F ack)", verdicts = 3),
            quote!(
                struct Bus {
                    req: bool,
                    ack: bool,
                }
            )
        )
        .is_ok());
        let e = error(
            quote!(ltl = "G a", colour = 3),
            quote!(
                struct S {
                    a: bool,
                }
            ),
        );
        assert!(e.starts_with("unknown option"), "{e}");
        let e = error(
            quote!(psl = "always {a; b} |-> c", ltl = "G a"),
            quote!(
                struct S {
                    a: bool,
                }
            ),
        );
        assert!(e.contains("give the property once"), "{e}");
        let e = error(
            quote!(psl = "always {a; b} |-> cc"),
            quote!(
                struct S {
                    a: bool,
                    b: bool,
                    c: bool,
                }
            ),
        );
        assert!(e.contains("cc"), "{e}");
        let e = error(
            quote!(psl = "always {a; b[*3:1]} |-> c"),
            quote!(
                struct S {
                    a: bool,
                }
            ),
        );
        assert!(e.contains("empty range"), "{e}");
        let e = error(
            quote!(ltl = "G(open -> X close)"),
            quote!(impl F { fn open(&mut self) {} }),
        );
        assert!(
            e.contains("unknown proposition `close`: `F` has no method `close`"),
            "{e}"
        );
        let e = error(
            quote!(ltl = "G(open -> X !open)"),
            quote!(impl F { fn open(self) {} }),
        );
        assert!(e.contains("must take `&mut self` or `&self`"), "{e}");
        let e = error(
            quote!(ltl = "G(open -> X !open)", on_violation = result),
            quote!(impl F { fn open(&mut self) {} }),
        );
        assert!(e.contains("must return a `Result`"), "{e}");
        let e = error(
            quote!(ltl = "G a"),
            quote!(
                enum E {
                    A,
                }
            ),
        );
        assert!(e.starts_with("#[monitor] goes on a struct"), "{e}");
        let e = error(
            quote!(),
            quote!(
                struct S {
                    a: bool,
                }
            ),
        );
        assert!(e.starts_with("missing property"), "{e}");
        let e = error(
            quote!(sva = "a |=> b", ltl = "G a"),
            quote!(
                struct S {
                    a: bool,
                }
            ),
        );
        assert!(e.contains("give the property once"), "{e}");
        let e = error(
            quote!(sva = "c1: cover property (a ##1 b);"),
            quote!(
                struct S {
                    a: bool,
                    b: bool,
                }
            ),
        );
        assert!(e.contains("a cover reports the matches"), "{e}");
        let e = error(
            quote!(sva = "default clocking @(negedge clk); endclocking a |=> b"),
            quote!(
                struct S {
                    a: bool,
                    b: bool,
                }
            ),
        );
        assert!(
            e.contains("the clock `@(negedge clk)` is not read here"),
            "{e}"
        );
        // A reset is a proposition like any other.
        let e = error(
            quote!(sva = "disable iff (rst) a |=> b"),
            quote!(
                struct S {
                    a: bool,
                    b: bool,
                }
            ),
        );
        assert!(e.contains("rst"), "{e}");
        assert!(try_expand(
            quote!(sva = "disable iff (rst) a |=> b"),
            quote!(
                struct S {
                    a: bool,
                    b: bool,
                    rst: bool,
                }
            )
        )
        .is_ok());
    }
}
