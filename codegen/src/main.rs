//! `mongen`: compile LTL and PSL safety properties into minimal
//! deterministic monitors.

use std::fmt::Write as _;
use std::io;
use std::process::ExitCode;

mod args;
mod check_cmd;
mod classify_cmd;
mod cli_input;
mod compile_cmd;
mod hardware_flow;
mod output;
mod progress;
mod stats;
mod sv_input;
mod vunit_input;

use clap::{CommandFactory, FromArgMatches};
use cli_input::ordered_items;
use mongen::emit::Target;
use monitor_core::formula::families::{generate, FAMILIES};
use monitor_core::formula::simplify::simplify;

use args::*;
use classify_cmd::*;
use compile_cmd::*;
use output::*;

fn print_cmd(args: &PrintArgs, run: &mut Run) -> Result<(), String> {
    for src in args.input.sources()? {
        let mut f = match src.parse() {
            Ok(f) => f,
            Err(e) => {
                run.error(&e);
                continue;
            }
        };
        if args.simplify {
            f = simplify(&f);
        }
        if args.nnf {
            f = f.nnf();
        }
        if args.smv && f.is_psl() {
            run.error(&format!(
                "{f}: NuSMV's LTLSPEC has no SEREs; compile the property to an observer \
                 with `mongen compile --psl --target smv`"
            ));
        } else if args.smv {
            let _ = writeln!(run.out, "{}", f.to_nusmv());
        } else if args.to_psl {
            match f.to_psl() {
                Ok(s) => {
                    let _ = writeln!(run.out, "{s}");
                }
                Err(e) => run.error(&format!("{f}: {e}")),
            }
        } else if args.spin {
            match f.to_spin() {
                Ok(s) => {
                    let _ = writeln!(run.out, "{s}");
                }
                Err(e) => run.error(&format!("{f}: {e}")),
            }
        } else {
            let _ = writeln!(run.out, "{f}");
        }
    }
    Ok(())
}

fn genltl(args: &GenArgs, run: &mut Run) -> Result<(), String> {
    if args.list {
        for (name, what) in FAMILIES {
            let _ = writeln!(run.out, "{name:<26} {what}");
        }
        return Ok(());
    }
    let family = args.family.as_deref().expect("required by clap");
    let from = args.from.expect("required by clap");
    let to = args.to.unwrap_or(from);
    for n in from..=to {
        let f = generate(family, n)?;
        let _ = writeln!(run.out, "{f}");
    }
    Ok(())
}

/// `mongen completions SHELL`.
fn completions(args: &CompletionsArgs, run: &mut Run) -> Result<(), String> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "mongen", &mut script);
    run.raw = Some(script);
    Ok(())
}

/// The exit statuses of a command's manual page.
fn exit_status_of(name: &str) -> &'static str {
    match name {
        "mongen" => EXIT_STATUS,
        "check" => EXIT_STATUS_CHECK,
        "compile" | "classify" | "print" => EXIT_STATUS_FORMULAS,
        _ => "Exit status:\n  0  success\n  2  an error (a bad argument, an unreadable file...)",
    }
}

/// Text for roff: backslashes escaped, and no line starting with a
/// control character.
fn roff_text(s: &str) -> String {
    let s = s.replace('\\', "\\e").replace('-', "\\-");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}

/// The manual page of `cmd` (built): clap_mangen's sections, with the
/// exit statuses in a section of their own (as a list, not filled into a
/// paragraph).
fn man_page(cmd: &clap::Command) -> io::Result<Vec<u8>> {
    let man =
        clap_mangen::Man::new(cmd.clone()).source(format!("mongen {}", env!("CARGO_PKG_VERSION")));
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if cmd.get_subcommands().any(|c| !c.is_hide_set()) {
        man.render_subcommands_section(&mut out)?;
    }
    // "N  what" lines (what may go on over indented lines): tagged
    // paragraphs.
    out.extend_from_slice(b".SH \"EXIT STATUS\"\n");
    for line in exit_status_of(cmd.get_name()).lines().skip(1) {
        let text = line.trim();
        let tagged = text
            .split_once("  ")
            .filter(|(code, _)| code.chars().all(|c| c.is_ascii_digit()));
        let roff = match tagged {
            Some((code, what)) => format!(".TP\n{code}\n{}\n", roff_text(what.trim())),
            None => format!("{}\n", roff_text(text)),
        };
        out.extend_from_slice(roff.as_bytes());
    }
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// `mongen man [--dir DIR]`.
fn man(args: &ManArgs, run: &mut Run) -> Result<(), String> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let failed = |e: io::Error| format!("cannot write the manual page: {e}");
    let Some(dir) = &args.dir else {
        run.raw = Some(man_page(&cmd).map_err(failed)?);
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut pages = vec![cmd.clone()];
    pages.extend(cmd.get_subcommands().cloned());
    for page in &pages {
        let file_name = format!(
            "{}.1",
            page.get_display_name().unwrap_or_else(|| page.get_name())
        );
        let path = dir.join(file_name);
        let text = man_page(page).map_err(failed)?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let _ = writeln!(run.out, "{}", path.display());
    }
    Ok(())
}

/// The command line, with the formulas and files of each command in the
/// order given (clap's derive keeps each argument's values apart).
fn parse_command_line() -> Cli {
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let Some((_, sub)) = matches.subcommand() {
        let input = match &mut cli.command {
            Command::Compile(a) => Some(&mut a.input),
            Command::Classify(a) => Some(&mut a.input),
            Command::Print(a) => Some(&mut a.input),
            Command::Check(a) => {
                a.items = ordered_items(sub, CheckArgs::FORMULA_IDS, CheckArgs::FILE_ID);
                None
            }
            _ => None,
        };
        if let Some(input) = input {
            input.items = ordered_items(sub, Input::FORMULA_IDS, Input::FILE_ID);
        }
    }
    cli
}

fn real_main() -> ExitCode {
    let cli = parse_command_line();
    let path = match &cli.command {
        Command::Compile(a) => a.output.clone(),
        _ => None,
    };
    let mut run = Run::new(path);
    let mut violated = false;
    let result = match &cli.command {
        Command::Compile(a) => compile(a, &mut run),
        Command::Classify(a) => classify_cmd(a, &mut run),
        Command::Print(a) => print_cmd(a, &mut run),
        Command::Genltl(a) => genltl(a, &mut run),
        Command::Check(a) => check_cmd::check(a, &mut run).map(|v| violated = v),
        Command::Completions(a) => completions(a, &mut run),
        Command::Man(a) => man(a, &mut run),
    };
    run.spinner = None;
    if let Err(e) = result {
        run.error(&e);
    }
    let bytes = run
        .raw
        .take()
        .unwrap_or_else(|| std::mem::take(&mut run.out).into_bytes());
    let written = if run.withhold {
        Ok(())
    } else {
        run.output.finish(&bytes)
    };
    if let Err(e) = written {
        run.error(&e);
    }
    if run.errors > 0 {
        ExitCode::from(2)
    } else if violated {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    // The translator recurses on formulas: give it room for deep ones.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(real_main)
        .expect("spawn the main thread")
        .join()
        .unwrap_or(ExitCode::from(101))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
