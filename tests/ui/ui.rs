//! Compiler output of the crate's compile-time checks, by phase: grammar errors of `layout!` (`parse`), rule
//! violations and the limits of static layouts (`validate`), mixed layouts (`mixed`), checks in `const` items and
//! const arguments written by `offset!`, `at!` and `relayout::check` (`const`), static broadcasts (`broadcast`), CuTe's layout algebra in `const` items (`cute`, `cute/pass`), the sealed source of static layouts (`sealed`),
//! and literals that must build and run (`pass`). Each `.stderr` was reviewed by hand.
//!
//! `checked` holds compile-fail cases only, so trybuild runs `cargo check` on them: each proves its error shows
//! in `cargo check` (and so in an editor). `built` adds the pass cases, so trybuild builds: that is where errors of
//! generic code, found after monomorphization, show (`build`).

#[test]
fn checked() {
    let t = trybuild::TestCases::new();
    t.compile_fail("parse/*.rs");
    t.compile_fail("validate/*.rs");
    t.compile_fail("mixed/*.rs");
    t.compile_fail("const/*.rs");
    t.compile_fail("broadcast/*.rs");
    t.compile_fail("cute/*.rs");
    t.compile_fail("sealed/*.rs");
}

#[test]
fn built() {
    let t = trybuild::TestCases::new();
    t.compile_fail("build/*.rs");
    t.pass("pass/*.rs");
    t.pass("cute/pass/*.rs");
}
