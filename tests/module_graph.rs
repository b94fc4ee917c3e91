//! The house, one way (issue 11): the modules of each crate of the workspace depend on each other without a cycle, both
//! between its top-level modules and between the files of one module, and no source file of the workspace is
//! longer than 600 lines.
//!
//! Dependencies are read from the source text, comments and string literals skipped: `crate::` paths (a root
//! re-export such as `crate::MAX_RANK` counts as its module), `super::` paths, a `mod.rs` naming its own
//! submodules, and calls of the `ArrayShape` / `ParsedArray` methods a module defines (inherent methods can live in
//! any module, so a call is a dependency no `use` line shows).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a source file may have (the guide: files of 50 to 600 lines).
const MAX_LINES: usize = 600;

/// One source file: its module path (`[]` for `lib.rs`, `["parse", "lex"]` for `parse/lex.rs`) and its code with
/// comments and the contents of string literals blanked.
struct File {
    module: Vec<String>,
    code: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Blanks comments and the contents of string and character literals, keeping line structure.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if c == b'r' && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#')) && !ident_byte(b, i) {
            // Raw string r"..", r#".."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.extend(std::iter::repeat_n(b' ', j + 1 - i));
            i = j + 1;
            while i < b.len() {
                if b[i] == b'"' && b[i + 1..].iter().take(hashes).filter(|&&h| h == b'#').count() == hashes {
                    out.extend(std::iter::repeat_n(b' ', hashes + 1));
                    i += hashes + 1;
                    break;
                }
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                let n = if b[i] == b'\\' { 2 } else { 1 };
                for k in 0..n.min(b.len() - i) {
                    blank(&mut out, b[i + k]);
                }
                i += n;
            }
            out.push(b' ');
            i += 1;
        } else if c == b'\'' && (b.get(i + 1) == Some(&b'\\') || b.get(i + 2) == Some(&b'\'')) {
            // A character literal (a lifetime has no closing quote right after one character).
            let end =
                if b[i + 1] == b'\\' { b[i + 2..].iter().position(|&x| x == b'\'').unwrap() + i + 2 } else { i + 2 };
            out.extend(std::iter::repeat_n(b' ', end + 1 - i));
            i = end + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn ident_byte(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

fn read_crate(src: &Path) -> Vec<File> {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(src).unwrap();
            let mut module: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            let last = module.pop().unwrap();
            if !["mod.rs", "lib.rs", "main.rs"].contains(&last.as_str()) {
                module.push(last.trim_end_matches(".rs").to_string());
            }
            File { module, code: code_only(&fs::read_to_string(p).unwrap()) }
        })
        .collect()
}

/// Identifier at `i`, if any, and the position after it.
fn ident_at(s: &[u8], i: usize) -> Option<(String, usize)> {
    let start = i;
    let mut j = i;
    while j < s.len() && (s[j].is_ascii_alphanumeric() || s[j] == b'_') {
        j += 1;
    }
    (j > start && !s[start].is_ascii_digit()).then(|| (String::from_utf8_lossy(&s[start..j]).into_owned(), j))
}

/// The paths (as segment lists) that follow `prefix::` in `code`, with `{..}` groups expanded.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let s = code.as_bytes();
    let needle = format!("{prefix}::");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..].find(&needle) {
        let at = from + k;
        from = at + needle.len();
        if ident_byte(s, at) || (at >= 2 && &s[at - 2..at] == b"::") {
            continue;
        }
        expand(s, from, &mut Vec::new(), &mut out);
    }
    out
}

/// Reads a path tail at `i` (`a::b::C`, `a::{b, c::D}`, `*`) into `out`, each prefixed by `head`.
fn expand(s: &[u8], mut i: usize, head: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let depth = head.len();
    loop {
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        if s.get(i) == Some(&b'{') {
            i += 1;
            loop {
                i = expand(s, i, head, out);
                while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b',') {
                    i += 1;
                }
                if s.get(i) == Some(&b'}') || i >= s.len() {
                    i += 1;
                    break;
                }
            }
            head.truncate(depth);
            return i;
        }
        match ident_at(s, i) {
            Some((name, j)) => {
                head.push(name);
                i = j;
                if s.get(i..i + 2) == Some(b"::") {
                    i += 2;
                    continue;
                }
            }
            None => {
                if s.get(i) == Some(&b'*') {
                    i += 1;
                }
            }
        }
        out.push(head.clone());
        head.truncate(depth);
        return i;
    }
}

/// Root re-exports of `lib.rs`: name -> the module path it comes from.
fn root_exports(lib: &File) -> BTreeMap<String, Vec<String>> {
    let mut map = BTreeMap::new();
    for line in lib.code.split(';') {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("pub use ") {
            for path in paths_after(&format!(" root::{rest}"), "root") {
                if let Some((name, module)) = path.split_last() {
                    map.insert(name.clone(), module.to_vec());
                }
            }
        }
    }
    map
}

/// The longest prefix of `path` that names a module of the crate.
fn module_of(path: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<String> {
    (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p)).unwrap_or_default()
}

/// File-level dependencies: module path -> the module paths it uses.
fn dependencies(files: &[File]) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let lib = files.iter().find(|f| f.module.is_empty()).unwrap();
    let exports = root_exports(lib);
    // Methods of the model types defined outside `shape`: name -> defining module.
    let mut methods: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| f.module.first().is_some_and(|m| m != "shape")) {
        let mut in_impl = false;
        for line in f.code.lines() {
            if line.starts_with("impl ArrayShape") || line.starts_with("impl ParsedArray") {
                in_impl = true;
            } else if line.starts_with('}') {
                in_impl = false;
            } else if in_impl {
                let t = line.trim_start();
                if line.len() - t.len() == 4
                    && let Some(pos) = t.find("fn ")
                    && let Some((name, _)) = ident_at(t.as_bytes(), pos + 3)
                {
                    methods.insert(name, f.module.clone());
                }
            }
        }
    }
    let mut deps: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for f in files.iter().filter(|f| !f.module.is_empty()) {
        let mut uses = BTreeSet::new();
        for path in paths_after(&f.code, "crate") {
            let path = match path.first().and_then(|n| exports.get(n)) {
                Some(m) => m.clone(),
                None => path,
            };
            uses.insert(module_of(&path, &modules));
        }
        // `super::` from `a/b.rs` (module a::b) names module `a` or a sibling `a::x`.
        let parent = &f.module[..f.module.len() - 1];
        for path in paths_after(&f.code, "super") {
            if path.is_empty() {
                continue; // `use super::*` in an inline test module: the file itself
            }
            let mut full = parent.to_vec();
            full.extend(path);
            uses.insert(module_of(&full, &modules));
        }
        // A `mod.rs` using its own submodules by path (`error::IndexError`, `pub use lex::parse_int`).
        for child in modules.iter().filter(|m| m.len() == f.module.len() + 1 && m.starts_with(&f.module)) {
            let name = child.last().unwrap();
            if !paths_after(&f.code, name).is_empty() {
                uses.insert(child.clone());
            }
        }
        for (name, module) in &methods {
            let called = [format!(".{name}("), format!("ArrayShape::{name}("), format!("ParsedArray::{name}(")];
            if called.iter().any(|c| f.code.contains(c.as_str())) {
                uses.insert(module.clone());
            }
        }
        uses.retain(|m| m != &f.module && !m.is_empty());
        deps.insert(f.module.clone(), uses);
    }
    deps
}

/// A cycle of the graph, if there is one, as the list of its nodes.
fn find_cycle<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Option<Vec<N>> {
    fn visit<N: Ord + Clone>(
        n: &N,
        graph: &BTreeMap<N, BTreeSet<N>>,
        state: &mut BTreeMap<N, u8>,
        stack: &mut Vec<N>,
    ) -> Option<Vec<N>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let at = stack.iter().position(|m| m == n).unwrap();
                let mut cycle = stack[at..].to_vec();
                cycle.push(n.clone());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(n.clone(), 1);
        stack.push(n.clone());
        for m in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, graph, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(n.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    graph.keys().find_map(|n| visit(n, graph, &mut state, &mut Vec::new()))
}

fn top_level(deps: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut top: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, uses) in deps {
        let entry = top.entry(from[0].clone()).or_default();
        entry.extend(uses.iter().map(|m| m[0].clone()).filter(|m| m != &from[0]));
    }
    top
}

fn show(graph: &BTreeMap<String, BTreeSet<String>>) -> String {
    graph.iter().map(|(k, v)| format!("{k} -> {}\n", v.iter().cloned().collect::<Vec<_>>().join(" "))).collect()
}

/// How strictly the files of one module are checked.
#[derive(Clone, Copy, PartialEq)]
enum Files {
    /// Every file, a `mod.rs` included: a `mod.rs` is only a table of contents (`tensor-layout-core`).
    All,
    /// The leaf files: a `mod.rs` may define the module's main types, which its files use (`super::View`).
    Leaves,
}

/// Panics, naming the cycle, when the modules (or the files of one module) of the crate in `dir` depend on each
/// other in a circle; returns the top-level graph.
fn assert_one_way(dir: &str, files_checked: Files) -> BTreeMap<String, BTreeSet<String>> {
    let files = read_crate(&root().join(dir));
    let deps = dependencies(&files);
    let top = top_level(&deps);
    if let Some(cycle) = find_cycle(&top) {
        panic!("module cycle in {dir}: {}\n{}", cycle.join(" -> "), show(&top));
    }
    let parent = |m: &Vec<String>| deps.keys().any(|k| k.len() > m.len() && k.starts_with(m));
    let kept = |m: &Vec<String>| files_checked == Files::All || !parent(m);
    let by_file: BTreeMap<String, BTreeSet<String>> = deps
        .iter()
        .filter(|(k, _)| kept(k))
        .map(|(k, v)| (k.join("::"), v.iter().filter(|m| kept(m)).map(|m| m.join("::")).collect()))
        .collect();
    if let Some(cycle) = find_cycle(&by_file) {
        panic!("file cycle in {dir}: {}\n{}", cycle.join(" -> "), show(&by_file));
    }
    top
}

#[test]
fn core_modules_depend_one_way() {
    let top = assert_one_way("tensor-layout-core/src", Files::All);
    // The reading works: the rules use the model, the text uses the rules.
    assert!(top["index"].contains("tiling") && top["parse"].contains("validate") && top["layout"].contains("tile"));
    assert!(top["dim"].is_empty() && top["dtype"].is_empty() && top["message"].is_empty());
}

#[test]
fn library_modules_depend_one_way() {
    let top = assert_one_way("tensor-layout/src", Files::Leaves);
    // Views know nothing of relayout; relayout, broadcasting and interop are built on views.
    assert!(!top["view"].contains("relayout") && top["relayout"].contains("view"));
    assert!(top["interop"].contains("view"));
}

#[test]
fn macro_and_tool_modules_depend_one_way() {
    assert_one_way("tensor-layout-macros/src", Files::Leaves);
    assert_one_way("tensor-layout-cli/src", Files::Leaves);
}

#[test]
fn the_checker_sees_a_cycle() {
    let file = |module: &[&str], code: &str| File {
        module: module.iter().map(|s| s.to_string()).collect(),
        code: code_only(code),
    };
    let files = [
        file(&[], "pub mod a; pub mod b; pub use a::Thing;"),
        file(&["a"], "use crate::b::{x::Y, Z};\n// use crate::c;\nfn f() { let _ = \"crate::c\"; }"),
        file(&["b"], "fn g() -> crate::Thing { todo!() }"),
        file(&["b", "x"], "use super::Z;"),
    ];
    let deps = dependencies(&files);
    let top = top_level(&deps);
    assert_eq!(top["a"], BTreeSet::from(["b".to_string()]));
    assert_eq!(find_cycle(&top), Some(vec!["a".to_string(), "b".to_string(), "a".to_string()]));
    assert!(deps[&vec!["b".to_string(), "x".to_string()]].contains(&vec!["b".to_string()]));
}

#[test]
fn no_source_file_is_longer_than_600_lines() {
    let mut long = Vec::new();
    for dir in
        ["src", "tensor-layout-core/src", "tensor-layout/src", "tensor-layout-macros/src", "tensor-layout-cli/src"]
    {
        let mut paths = Vec::new();
        rust_files(&root().join(dir), &mut paths);
        assert!(!paths.is_empty(), "no sources in {dir}");
        for p in paths {
            let n = fs::read_to_string(&p).unwrap().lines().count();
            if n > MAX_LINES {
                long.push(format!("{} ({n} lines)", p.strip_prefix(root()).unwrap().display()));
            }
        }
    }
    assert!(long.is_empty(), "files over {MAX_LINES} lines: {long:?}");
}
