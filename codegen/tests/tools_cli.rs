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
