//! The readers and the checker on random and damaged traces: errors, never
//! a panic or a hang.

use proptest::prelude::*;

use super::check::{Checker, Options, Property};
use super::expr::Expr;
use super::reader::{CsvReader, Edge, JsonlReader, Reader, VcdReader};
use crate::MonitorTable;

const CSV: &str = "a,b,n\n1,0,3\n0,1,250\ntrue,false,-2\n0,0,1e3\n1,1,7\n";
const JSONL: &str = "{\"a\": true, \"b\": 0, \"n\": 3}\n{\"a\": 0, \"b\": true, \"n\": {\"x\": 1}}\n{\"a\": false, \"b\": \"1\", \"n\": 2.5}\n";
const VCD: &str = "$scope module t $end\n$var reg 1 ! clk $end\n$var reg 1 \" a $end\n$var wire 2 # b [1:0] $end\n$var wire 8 $ n [7:0] $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n1\"\nb01 #\nb101 $\n#5\n1!\n#10\n0!\n0\"\nbx1 #\n#15\n1!\nb11111111 $\n#20\n0!\n";

fn checker() -> Checker {
    let props = ["G(a -> X b)", "G(\"n > 100\" -> !a)", "G(\"b[1]\" | !a)"];
    let properties = props
        .iter()
        .map(|f| {
            let table = MonitorTable::from_ltl(f).unwrap();
            let t = table.table();
            let bindings = (0..t.props as usize)
                .map(|i| Expr::parse(t.proposition(i)).unwrap())
                .collect();
            Property::new(f, table, bindings)
        })
        .collect();
    Checker::new(
        properties,
        Options {
            all: true,
            ..Options::default()
        },
    )
}

/// Runs the checker; any outcome but a panic is fine.
fn run(reader: Result<Box<dyn Reader + '_>, String>) {
    if let Ok(mut r) = reader {
        let _ = checker().run(r.as_mut());
    }
}

fn damaged(base: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let len = base.len();
    (0..=len, prop::collection::vec((0..len, any::<u8>()), 0..4)).prop_map(move |(cut, flips)| {
        let mut bytes = base.as_bytes()[..cut].to_vec();
        for (i, b) in flips {
            if i < bytes.len() {
                bytes[i] = b;
            }
        }
        bytes
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn damaged_traces_never_panic(
        csv in damaged(CSV),
        jsonl in damaged(JSONL),
        vcd in damaged(VCD),
        noise in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        for bytes in [&csv, &noise] {
            run(CsvReader::new("t.csv", bytes.as_slice())
                .map(|r| Box::new(r) as Box<dyn Reader>)
                .map_err(|e| e.to_string()));
        }
        for bytes in [&jsonl, &noise] {
            run(Ok(Box::new(JsonlReader::new("t.jsonl", bytes.as_slice()))));
        }
        for bytes in [&vcd, &noise] {
            for clock in [None, Some(("clk", Edge::Posedge))] {
                run(VcdReader::new("t.vcd", bytes.as_slice(), clock)
                    .map(|r| Box::new(r) as Box<dyn Reader>)
                    .map_err(|e| e.to_string()));
            }
        }
    }

    /// The words of `in`, the text operators, `has` and `null`, in any
    /// order, evaluated on missing, text and vector fields.
    #[test]
    fn random_text_expressions_never_panic(
        tokens in prop::collection::vec(prop::sample::select(&[
            "x", "y", " in ", " not in ", " not ", "[", "]", ",", " contains ",
            " starts_with ", " ends_with ", " matches ", "/", "/a(/", "/t.*o/", "\\/",
            "has(", "has", "null", " == ", " != ", " < ", "'a'", "\"b", "1", "-3", "2.5",
            "(", ")", " && ", " || ", "!", "4'b01", "\\", " + ", "x[1]", "$isunknown(",
        ][..]), 0..14),
    ) {
        let text: String = tokens.concat();
        if let Ok(mut e) = Expr::parse(&text) {
            let _ = e.resolve(&mut |n: &str| Ok::<usize, ()>(usize::from(n == "y")));
            let null = serde_json::Value::Null;
            let word = serde_json::json!("timeout");
            for cell in [
                None,
                Some(super::expr::Cell::Text("")),
                Some(super::expr::Cell::Text("a")),
                Some(super::expr::Cell::Json(&null)),
                Some(super::expr::Cell::Json(&word)),
                Some(super::expr::Cell::Bits(b"1x0")),
                Some(super::expr::Cell::Int(-3)),
            ] {
                let _ = e.eval(&|id| if id == 0 { cell } else { Some(super::expr::Cell::Text("1")) });
                let _ = e.eval_strict(&|_| cell);
            }
        }
    }

    #[test]
    fn random_expressions_never_panic(text in "[a-z0-9!&|()<>=\\[\\]:'\" .bdh_x-]{0,40}") {
        if let Ok(e) = Expr::parse(&text) {
            let mut e = e;
            let _ = e.resolve(&mut |_: &str| Ok::<usize, ()>(0));
            for cell in [
                super::expr::Cell::Text("12"),
                super::expr::Cell::Bits(b"1x0"),
                super::expr::Cell::Real(1.5),
            ] {
                let _ = e.eval(&|_| Some(cell));
            }
        }
    }
}
