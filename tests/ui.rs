//! Compiler output of `layout!`, by phase: grammar errors (`parse`), rule violations and the limits of static
//! layouts (`validate`), expansion limits (`expand`), compile-time index and size checks in `const` items
//! (`const`), and literals that must build and run (`pass`); CuTe's layout algebra in `const` items (`cute`,
//! `cute/pass`). Each `.stderr` was reviewed by hand.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/parse/*.rs");
    t.compile_fail("tests/ui/validate/*.rs");
    t.compile_fail("tests/ui/expand/*.rs");
    t.compile_fail("tests/ui/const/*.rs");
    t.compile_fail("tests/ui/broadcast/*.rs");
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/cute/*.rs");
    t.pass("tests/ui/cute/pass/*.rs");
}
