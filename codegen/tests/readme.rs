//! The README cannot drift from the binary: its `console` blocks are run
//! by trycmd (command, exit status, output), and its links inside the page
//! lead to headings that exist.

use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen/ is in the workspace")
        .to_path_buf()
}

/// Runs every ```console block of README.md from the workspace root, with
/// `mongen` this package's binary. Output that depends on the machine
/// (times, memory) is written `[..]`, and elided lines `...`. Blocks that
/// need other tools (Spin, NuSMV, a simulation) or write files are `text`
/// blocks instead, and are not run.
#[test]
fn readme_console_blocks_run_as_shown() {
    let root = workspace_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    // trycmd drops the last line break of each output shown in Markdown
    // but compares it with the whole output: the copy it reads gets an
    // empty line after each output (the line numbers it reports are a few
    // lines after README.md's).
    let copy = Path::new(env!("CARGO_TARGET_TMPDIR")).join("README.md");
    std::fs::write(&copy, with_final_line_breaks(&readme)).unwrap();
    // The commands name files relative to the repository root. This test
    // is alone in its binary, so changing the directory races with nothing.
    std::env::set_current_dir(&root).expect("enter the workspace root");
    trycmd::TestCases::new()
        .register_bin("mongen", Path::new(env!("CARGO_BIN_EXE_mongen")))
        .case(copy);
}

/// `text` with an empty line at the end of each command's output in
/// `console` blocks: before the next command and the closing fence.
fn with_final_line_breaks(text: &str) -> String {
    let mut out = String::new();
    let mut console = false;
    let mut first = false;
    for line in text.lines() {
        if console && line.starts_with("```") {
            out.push('\n');
            console = false;
        } else if console && line.starts_with("$ ") {
            if !first {
                out.push('\n');
            }
            first = false;
        } else if line.starts_with("```console") {
            console = true;
            first = true;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-`
/// and `_` dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The headings and the `](#anchor)` links of a Markdown text, code blocks
/// left out.
fn headings_and_links(text: &str) -> (Vec<String>, Vec<String>) {
    let mut fence = false;
    let mut heads = Vec::new();
    let mut links = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        if let Some(h) = line.strip_prefix('#') {
            let h = h.trim_start_matches('#');
            if h.starts_with(' ') {
                let s = slug(h);
                let n = heads.iter().filter(|x: &&String| **x == s).count();
                heads.push(if n == 0 { s } else { format!("{s}-{n}") });
                continue;
            }
        }
        let mut rest = line;
        while let Some(at) = rest.find("](#") {
            let tail = &rest[at + 3..];
            let end = tail.find(')').unwrap_or(tail.len());
            links.push(tail[..end].to_string());
            rest = &tail[end..];
        }
    }
    (heads, links)
}

#[test]
fn readme_links_lead_to_headings() {
    for file in [
        "README.md",
        "monitor-core/README.md",
        "monitor-macros/README.md",
        "codegen/README.md",
    ] {
        let text = std::fs::read_to_string(workspace_root().join(file)).unwrap();
        let (heads, links) = headings_and_links(&text);
        for link in &links {
            assert!(
                heads.contains(link),
                "{file}: the link #{link} leads to no heading; headings: {heads:?}"
            );
        }
        if file == "README.md" {
            assert!(links.len() > 20, "the table of contents is missing");
        }
    }
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug(" JSON output (`--target json`)"),
        "json-output---target-json"
    );
    assert_eq!(
        slug(" Rust monitors: `#[monitor]` and `--target rust`"),
        "rust-monitors-monitor-and---target-rust"
    );
    let (heads, links) = headings_and_links("# A b\n```\n# not\n```\n## A b\nsee [x](#a-b-1)\n");
    assert_eq!(heads, ["a-b", "a-b-1"]);
    assert_eq!(links, ["a-b-1"]);
}
