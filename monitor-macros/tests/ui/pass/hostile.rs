#![deny(warnings)]
// Issue 36, item 13 and its siblings: raw identifiers (`fn r#match`, the
// field `r#type`, `ap(r#dyn = ...)`), `unsafe fn`, `extern "C" fn`, generic
// fns, `impl Trait` arguments, lifetimes, generic and trait impl blocks,
// non-ASCII names and every receiver that reaches the monitor. Each is an
// event that steps at the call.
use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use monitor_core::Verdict;
use monitor_macros::monitor;

#[monitor(ltl = "G(type -> X !match) & G !dyn", ap(r#dyn = self.n > 9))]
struct Raw {
    r#type: bool,
    r#match: bool,
    n: u8,
}

struct Keywords {
    monitor: KeywordsMonitor,
}

#[monitor(ltl = "G(match -> X loop)", on_violation = ignore)]
impl Keywords {
    fn r#match(&mut self) {}
    fn r#loop(&mut self) {}
}

struct Shapes<T> {
    monitor: ShapesMonitor,
    items: Vec<T>,
}

#[monitor(ltl = "G(raw -> X(push | get)) & G(ffi -> X !ffi)", on_violation = ignore)]
impl<T: Copy + Into<u64>> Shapes<T> {
    unsafe fn raw(&mut self, p: *const T) -> T {
        // SAFETY: the caller passes a valid pointer.
        unsafe { *p }
    }
    extern "C" fn ffi(&mut self) -> u32 {
        7
    }
    fn push<U: Into<T>>(&mut self, u: U) -> usize
    where
        T: Clone,
    {
        self.items.push(u.into());
        self.items.len()
    }
    fn get<'a>(&'a mut self, f: impl Fn(T) -> u64, _tag: &'a str) -> u64 {
        self.items.iter().map(|&t| f(t)).sum()
    }
}

trait Door {
    fn open(&mut self) -> bool;
    fn close(&mut self);
}

struct Front {
    monitor: FrontMonitor,
}

#[monitor(ltl = "G(open -> X(!open U close))", on_violation = ignore)]
impl Door for Front {
    fn open(&mut self) -> bool {
        true
    }
    fn close(&mut self) {}
}

struct Receivers {
    monitor: Cell<ReceiversMonitor>,
}

#[monitor(ltl = "G(by_rc -> X(by_arc | by_pin | by_ref | by_typed))", on_violation = ignore)]
impl Receivers {
    fn by_rc(self: Rc<Self>) {}
    fn by_pin(self: Pin<&mut Self>) {}
    fn by_ref<'a>(&'a self) {}
    fn by_typed(self: &Self) {}
    fn by_arc(self: Arc<Self>) {}
}

struct Typed {
    monitor: Mutex<TypedMonitor>,
    plain: TypedMutMonitor,
}

#[monitor(ltl = "G(a -> X b)", on_violation = ignore)]
impl Typed {
    fn a(self: Arc<Self>) {}
    fn b(self: &Self) {}
}

#[monitor(ltl = "G(c -> X d)", name = TypedMutMonitor, field = plain, on_violation = ignore)]
impl Typed {
    fn c(self: &mut Self) {}
    #[allow(unused_mut)]
    fn d(mut self: &mut Self) {}
}

struct Accents {
    monitor: AccentsMonitor,
}

#[monitor(ltl = "G(\"ouvrir_é\" -> X \"fermer_é\")", on_violation = ignore)]
impl Accents {
    fn ouvrir_é(&mut self) {}
    fn fermer_é(&mut self) {}
}

fn main() {
    let mut r = RawMonitor::new();
    let snap = |t: bool, m: bool, n: u8| Raw { r#type: t, r#match: m, n };
    assert_eq!(r.observe(&snap(true, false, 0)), Verdict::Undecided);
    assert_eq!(r.observe(&snap(false, true, 0)), Verdict::Violated);
    let mut r = RawMonitor::new();
    assert_eq!(r.observe(&snap(false, false, 10)), Verdict::Violated);

    let mut k = Keywords { monitor: KeywordsMonitor::new() };
    k.r#match();
    k.r#loop();
    assert_eq!(k.monitor.verdict(), Verdict::Undecided);
    k.r#match();
    k.r#match();
    let v = k.monitor.violation().unwrap();
    assert_eq!((v.event, v.position), (Some("match"), Some(3)));
    assert_ne!(KeywordsMonitor::EVENT_MATCH, KeywordsMonitor::EVENT_LOOP);

    let mut s = Shapes::<u8> { monitor: ShapesMonitor::new(), items: Vec::new() };
    let x = 3u8;
    assert_eq!(unsafe { s.raw(&x) }, 3);
    assert_eq!(s.push(4u8), 1);
    assert_eq!(s.ffi(), 7);
    assert_eq!(s.get(u64::from, "tag"), 4);
    assert_eq!(s.monitor.verdict(), Verdict::Undecided);
    unsafe { s.raw(&x) };
    s.ffi();
    assert_eq!(s.monitor.violation().unwrap().position, Some(5));

    let mut f = Front { monitor: FrontMonitor::new() };
    assert!(f.open());
    f.close();
    f.open();
    f.open();
    assert_eq!(f.monitor.violations(), 1);

    let rc = Rc::new(Receivers { monitor: Cell::new(ReceiversMonitor::new()) });
    rc.clone().by_rc();
    rc.by_ref();
    rc.clone().by_rc();
    rc.by_typed();
    let mut owned = Receivers { monitor: Cell::new(ReceiversMonitor::new()) };
    Pin::new(&mut owned).by_pin();
    owned.by_rc_free();
    assert_eq!(rc.monitor.get().verdict(), Verdict::Undecided);
    rc.clone().by_rc();
    rc.clone().by_rc();
    assert_eq!(rc.monitor.get().verdict(), Verdict::Violated);
    let arc = Arc::new(Receivers { monitor: Cell::new(ReceiversMonitor::new()) });
    arc.clone().by_arc();
    assert_eq!(arc.monitor.get().verdict(), Verdict::Undecided);

    let mut t = Typed { monitor: Mutex::new(TypedMonitor::new()), plain: TypedMutMonitor::new() };
    t.c();
    t.d();
    t.c();
    t.c();
    assert_eq!(t.plain.violations(), 1);
    let t = Arc::new(t);
    t.clone().a();
    t.clone().a();
    assert_eq!(t.monitor.lock().unwrap().verdict(), Verdict::Violated);
    t.b();

    let mut a = Accents { monitor: AccentsMonitor::new() };
    a.ouvrir_é();
    a.fermer_é();
    a.ouvrir_é();
    a.ouvrir_é();
    assert_eq!(a.monitor.violation().unwrap().event, Some("ouvrir_é"));
}

impl Receivers {
    fn by_rc_free(&self) {}
}
