//! The command line as the documentation shows it, with the real tools.

mod common;

use std::process::Command;

fn mongen(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args(args)
        .output()
        .expect("run mongen")
}

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
