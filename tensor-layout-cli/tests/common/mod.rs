//! Running the real `tlayout` binary, shared by the integration tests of `draw` and `scan`.
#![allow(dead_code)] // each test crate uses a part

use std::io::Write;
use std::process::{Command, Stdio};

/// What one run of `tlayout` produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `tlayout` with these arguments and this standard input.
pub fn tlayout_with_stdin(args: &[&str], input: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tlayout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tlayout starts");
    let mut pipe = child.stdin.take().expect("stdin");
    // tlayout may exit before reading (a usage error): a broken pipe here is fine.
    let _ = pipe.write_all(input);
    drop(pipe);
    let out = child.wait_with_output().expect("tlayout runs");
    Run {
        code: out.status.code().expect("tlayout exits with a code"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `tlayout` with empty standard input.
pub fn tlayout(args: &[&str]) -> Run {
    tlayout_with_stdin(args, b"")
}

/// Runs successfully (exit 0, nothing on stderr) and returns stdout.
pub fn ok(args: &[&str]) -> String {
    let run = tlayout(args);
    assert_eq!(run.code, 0, "tlayout {args:?} failed: {}", run.stderr);
    assert_eq!(run.stderr, "", "tlayout {args:?}");
    run.stdout
}

/// Fails with exit code 2, nothing on stdout and one `error: ...` message; returns the message.
pub fn fails(args: &[&str]) -> String {
    let run = tlayout(args);
    assert_eq!(run.code, 2, "tlayout {args:?} should fail with 2; stdout: {}", run.stdout);
    assert_eq!(run.stdout, "", "tlayout {args:?} printed to stdout");
    assert!(run.stderr.starts_with("error: "), "tlayout {args:?}: {}", run.stderr);
    if !run.stderr.contains("try '--help'") {
        // Our own messages (clap's usage errors have their own style): one line, then maybe a rustc-style pointer.
        let mut lines = run.stderr.lines();
        assert!(!lines.next().unwrap_or_default().ends_with('.'), "{}", run.stderr);
        assert!(lines.all(|l| l.starts_with("  |")), "{}", run.stderr);
    }
    run.stderr
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tlayout-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
