//! The command line as the documentation shows it, with the real tools.

mod common;
use common::mongen;

#[test]
fn promela_claim_from_the_command_line() {
    let Some((spin, cc)) = common::spin() else {
        return;
    };
    let dir = common::scratch("cli-spin");
    std::fs::copy(common::model("ncrit.pml"), dir.join("model.pml")).unwrap();
    for (property, define, violated) in [
        ("G p", "p=ncrit <= 1", false),
        ("G q", "q=ncrit == 0", true),
    ] {
        let claim = dir.join("claim.pml");
        let out = mongen(&[
            "compile",
            "--target",
            "promela",
            "--define",
            define,
            "-o",
            claim.to_str().unwrap(),
            property,
        ]);
        assert!(out.status.success(), "{}", common::text(&out));
        let out = common::run(&dir, &spin, &["-a", "-N", "claim.pml", "model.pml"]);
        assert!(out.status.success(), "{}", common::text(&out));
        assert!(common::run(&dir, &cc, &["-DSAFETY", "-o", "pan", "pan.c"])
            .status
            .success());
        let report = common::text(&common::run(&dir, &dir.join("pan"), &[]));
        assert_eq!(
            report.contains("errors: 1"),
            violated,
            "{property}:\n{report}"
        );
    }
}

#[test]
fn smv_observer_appended_to_a_model() {
    let Some(nusmv) = common::nusmv() else { return };
    let dir = common::scratch("cli-smv");
    let model = std::fs::read_to_string(common::model("handshake.smv")).unwrap();
    for (property, encoding, holds) in [
        ("G(req -> (req W ack))", "dfa", true),
        ("G(req -> (req W ack))", "transducer", true),
        ("G(ack -> req)", "dfa", false),
        ("G(ack -> req)", "transducer", false),
    ] {
        let out = mongen(&[
            "compile",
            "-t",
            "smv",
            "--smv-encoding",
            encoding,
            "--name",
            "hs",
            property,
        ]);
        assert!(out.status.success(), "{}", common::text(&out));
        let text = format!("{model}{}", String::from_utf8(out.stdout).unwrap());
        std::fs::write(dir.join("model.smv"), &text).unwrap();
        let report = common::text(&common::run(&dir, &nusmv, &["-dcx", "model.smv"]));
        let expected = format!("-- invariant !mg_obs.mg_violated  is {holds}");
        assert!(
            report.contains(&expected),
            "{property} ({encoding}):\n{text}\n{report}"
        );
    }
}

#[test]
fn smv_observers_put_into_a_process_model() {
    // The documented workflow on a model whose `main` comes first and
    // whose processes run asynchronously: `--model` writes the whole model.
    let Some(nusmv) = common::nusmv() else { return };
    let dir = common::scratch("cli-smv-model");
    let model = common::model("token_ring.smv");
    for (encoding, expected) in [("dfa", [true, false]), ("transducer", [true, false])] {
        let out = dir.join("checked.smv");
        let o = mongen(&[
            "compile",
            "-t",
            "smv",
            "--smv-encoding",
            encoding,
            "--model",
            model.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--define",
            "moved=x1 != x0",
            "G(moved -> Y(priv0 | moved))",
            "G(priv0 -> X priv0)",
        ]);
        assert!(o.status.success(), "{}", common::text(&o));
        let report = common::text(&common::run(&dir, &nusmv, &["-dcx", "checked.smv"]));
        for (k, holds) in expected.iter().enumerate() {
            let line = format!("-- invariant !obs_{}.violated  is {holds}", k + 1);
            assert!(report.contains(&line), "{encoding}: {line}\n{report}");
        }
    }
}

#[test]
fn psl_comparisons_and_literals_in_nusmv_syntax() {
    // PSL comparisons with Verilog literals, bit- and part-selects reach
    // NuSMV in its own syntax (`=`, TRUE/FALSE, word constants): the
    // observers' verdicts equal NuSMV's for LTLSPECs written by hand.
    let Some(nusmv) = common::nusmv() else { return };
    let dir = common::scratch("cli-smv-vectors");
    let model = common::model("vectors.smv");
    let cases = [
        (
            "always state == 2 -> next state == 3",
            "G(state = 2 -> X state = 3)",
            true,
        ),
        (
            "always data[3] != 1'b0 -> next data[3] == 1'b0",
            "G(data[3] != FALSE -> X data[3] = FALSE)",
            true,
        ),
        (
            "always data[3] == 1'b1 -> next data[0]",
            "G(data[3] = TRUE -> X data[0])",
            true,
        ),
        (
            "always level >= 4'd12 -> next level != 4'd0",
            "G(level >= 0ud4_12 -> X level != 0ud4_0)",
            false,
        ),
        (
            "always grant[1:0] == 2'b01 -> state == 2",
            "G(grant[1:0] = 0ud2_1 -> state = 2)",
            true,
        ),
        (
            "always {grant == 2'b01} |=> {grant[1:1] == 1'b0}",
            "G(grant = 0ud2_1 -> X grant[1:1] = 0ud1_0)",
            true,
        ),
        (
            "never {state == 3; grant == 2'b11}",
            "G(state = 3 -> X grant != 0ud2_3)",
            false,
        ),
    ];
    let mut args = vec!["compile", "-t", "smv", "--psl", "--model"];
    let model_arg = model.to_str().unwrap();
    args.push(model_arg);
    for (psl, _, _) in &cases {
        args.push(psl);
    }
    for encoding in ["dfa", "transducer"] {
        let mut a = args.clone();
        a.extend(["--smv-encoding", encoding]);
        let o = mongen(&a);
        assert!(o.status.success(), "{}", common::text(&o));
        let mut text = String::from_utf8(o.stdout).unwrap();
        // The references, by hand, at the end of main (the last lines
        // mongen put there).
        let at = text.find("\n-- Observer").unwrap();
        let refs: String = cases
            .iter()
            .map(|(_, ltl, _)| format!("  LTLSPEC {ltl}\n"))
            .collect();
        text.insert_str(at, &format!("\n{refs}"));
        std::fs::write(dir.join("checked.smv"), &text).unwrap();
        let report = common::text(&common::run(&dir, &nusmv, &["checked.smv"]));
        for (k, (psl, ltl, holds)) in cases.iter().enumerate() {
            let line = format!("-- invariant !obs_{}.violated  is {holds}", k + 1);
            assert!(
                report.contains(&line),
                "{psl} ({encoding}): {line}\n{text}\n{report}"
            );
            let verdicts: Vec<&str> = report
                .lines()
                .filter(|l| l.starts_with("-- specification"))
                .collect();
            assert!(
                verdicts[k].ends_with(&format!("is {holds}")),
                "{ltl}: {}",
                verdicts[k]
            );
        }
    }
}

/// NuSMV's verdicts (in order) on `text`, run in `dir`.
fn nusmv_verdicts(nusmv: &std::path::Path, dir: &std::path::Path, text: &[u8]) -> Vec<bool> {
    std::fs::write(dir.join("m.smv"), text).unwrap();
    let report = common::text(&common::run(dir, nusmv, &["m.smv"]));
    let verdicts: Vec<bool> = report
        .lines()
        .filter(|l| l.starts_with("-- specification") || l.starts_with("-- invariant"))
        .map(|l| l.ends_with("is true"))
        .collect();
    assert!(!verdicts.is_empty(), "{report}");
    verdicts
}

#[test]
fn smv_models_as_users_write_them() {
    let Some(nusmv) = common::nusmv() else { return };
    let dir = common::scratch("cli-smv-odd");
    let compile = |model: &[u8], args: &[&str]| {
        std::fs::write(dir.join("in.smv"), model).unwrap();
        let input = dir.join("in.smv");
        let mut a = vec!["compile", "-t", "smv", "--model", input.to_str().unwrap()];
        a.extend_from_slice(args);
        let o = mongen(&a);
        assert!(o.status.success(), "{args:?}: {}", common::text(&o));
        (o.stdout, String::from_utf8_lossy(&o.stderr).to_string())
    };
    // The next module on main's last line, and a Latin-1 comment: the
    // observer goes into main, the bytes stay as they were.
    let model = b"MODULE main VAR x : boolean; c : cell; -- r\xe9sum\xe9\nASSIGN init(x) := FALSE; next(x) := !x; LTLSPEC G(x -> X !x) MODULE cell VAR y : boolean;";
    let (out, _) = compile(model, &["G(x -> X !x)", "G x"]);
    assert!(out.windows(6).any(|w| w == b"r\xe9sum\xe9"));
    assert_eq!(nusmv_verdicts(&nusmv, &dir, &out), [true, true, false]);
    // Input variables (IVAR, a process's `running`): the DFA encoding
    // reads them; `auto` keeps the DFA even where it would take the
    // transducer, and an explicit transducer is warned about.
    let model = b"MODULE main\nIVAR i : boolean;\nVAR x : array 0..9 of boolean;\nASSIGN\n  next(x[0]) := i;\n  next(x[1]) := x[0]; next(x[2]) := x[1]; next(x[3]) := x[2]; next(x[4]) := x[3];\n  next(x[5]) := x[4]; next(x[6]) := x[5]; next(x[7]) := x[6]; next(x[8]) := x[7];\n  next(x[9]) := x[8];\n";
    // A monitor of 2^10 states: `auto` would take the transducer.
    let chain = "G(i -> X X X X X X X X X X o)";
    let (out, err) = compile(model, &["--define", "o=x[9]", chain]);
    assert!(err.is_empty(), "{err}");
    assert!(String::from_utf8_lossy(&out).contains("state : {"));
    assert_eq!(nusmv_verdicts(&nusmv, &dir, &out), [true]);
    let (_, err) = compile(
        model,
        &["--smv-encoding", "transducer", "--define", "o=x[9]", chain],
    );
    assert!(err.contains("may read the input variable `i`"), "{err}");
    // A one-state three-valued observer; names NuSMV 2.5.4 allows but
    // later versions reserve.
    let model = b"MODULE main\nVAR set : boolean; clock : boolean;\nASSIGN init(clock) := FALSE; next(clock) := set;\n";
    let (out, _) = compile(
        model,
        &["--verdicts", "3", "G(set -> X clock)", "G(set | !set)"],
    );
    assert_eq!(nusmv_verdicts(&nusmv, &dir, &out), [true, true]);
    let _ = std::fs::remove_dir_all(&dir);
}
