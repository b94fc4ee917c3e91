//! The worked examples of CuTe's layout-algebra documentation (`media/docs/cpp/cute/02_layout_algebra.md` in
//! NVIDIA/cutlass), as tests: every expected value below is the documentation's.

use tensor_layout_core::cute::{IntTuple, Layout, Tiler};

fn l(text: &str) -> Layout {
    Layout::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn t(text: &str) -> Tiler {
    Tiler::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn offsets(layout: &Layout) -> Vec<usize> {
    layout.offsets().collect()
}

#[test]
fn coalesce() {
    // "auto result = coalesce(layout); // _12:_1"
    assert_eq!(l("(2,(1,6)):(1,(6,2))").coalesce().to_string(), "12:1");
    // "(_2,_4):(_1,_2) act identically to _8:_1"
    assert_eq!(l("(2,4):(1,2)").coalesce().to_string(), "8:1");
    // The four cases of `s0:d0 ++ s1:d1`.
    assert_eq!(l("(4,1):(3,7)").coalesce().to_string(), "4:3");
    assert_eq!(l("(1,4):(7,3)").coalesce().to_string(), "4:3");
    assert_eq!(l("(4,5):(3,12)").coalesce().to_string(), "20:3");
    assert_eq!(l("(4,5):(3,11)").coalesce().to_string(), "(4,5):(3,11)");
    // By-mode: "coalesce(a, Step<_1,_1>{}); // (_2,_6):(_1,_2)", identical to coalescing each mode.
    let a = l("(2,(1,6)):(1,(6,2))");
    let by_mode = a.coalesce_profile(&IntTuple::parse("(1,1)").unwrap()).unwrap();
    assert_eq!(by_mode.to_string(), "(2,6):(1,2)");
    let same = Layout::tuple(&[a.mode(0).unwrap().coalesce(), a.mode(1).unwrap().coalesce()]).unwrap();
    assert_eq!(by_mode, same);
}

#[test]
fn composition_first_example() {
    // R(0..11) listed in the documentation, and R = ((2,2),3):((24,2),8), compatible with B.
    let (a, b) = (l("(6,2):(8,2)"), l("(4,3):(3,1)"));
    let r = a.composition(&Tiler::layout(b)).unwrap();
    assert_eq!(offsets(&r), [0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42]);
    assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
    assert_eq!((r.rank(), r.size(), r.mode(0).unwrap().size(), r.mode(1).unwrap().size()), (2, 12, 4, 3));
    // Example 1's steps: (6,2):(8,2) o 4:3 = (2,2):(24,2), and o 3:1 = 3:8 after coalescing (3,1):(8,2).
    assert_eq!(a.composition(&t("4:3")).unwrap().to_string(), "(2,2):(24,2)");
    assert_eq!(a.composition(&t("3:1")).unwrap().coalesce().to_string(), "3:8");
}

#[test]
fn composition_divides_and_mods_the_shape() {
    // "(3,6,2,8):(w,x,y,z) o 16:9 = (1,2,2,4):(9*w,3*x,y,z)", with strides that do not coalesce.
    let (w, x, y, z) = (1, 100, 1000, 10_000);
    let a = l(&format!("(3,6,2,8):({w},{x},{y},{z})"));
    let r = a.composition(&t("16:9")).unwrap();
    // The size-1 mode is dropped: (2,2,4):(3x,y,z); 9w belongs to it.
    assert_eq!(r.to_string(), format!("(2,2,4):({},{},{})", 3 * x, y, z));
}

#[test]
fn composition_reshapes() {
    // Example 2: `20:2 o (5,4):(4,1)` = (5,4):(8,2).
    assert_eq!(l("20:2").composition(&t("(5,4):(4,1)")).unwrap().to_string(), "(5,4):(8,2)");
    // Example 3: `(10,2):(16,4) o (5,4):(1,5)` prints `(_5,(_2,_2)):(_16,(_80,_4))` with static integers.
    let r = l("(10,2):(16,4)").composition(&t("(5,4):(1,5)")).unwrap();
    assert_eq!(r.to_string(), "(5,(2,2)):(16,(80,4))");
    // Its steps: `(10,2):(16,4) o 5:1 => (5,1):(16,4)` (5:16 coalesced), `o 4:5 => (2,2):(80,4)`.
    assert_eq!(l("(10,2):(16,4)").composition(&t("5:1")).unwrap().to_string(), "5:16");
    assert_eq!(l("(10,2):(16,4)").composition(&t("4:5")).unwrap().to_string(), "(2,2):(80,4)");
}

#[test]
fn by_mode_composition() {
    // "(12,(4,8)):(59,(13,1))" with "<3:4, 8:2>" is "(_3,(2,4)):(236,(26,1))", identical to mode by mode.
    let a = l("(12,(4,8)):(59,(13,1))");
    let r = a.composition(&t("<3:4,8:2>")).unwrap();
    assert_eq!(r.to_string(), "(3,(2,4)):(236,(26,1))");
    let same = Layout::tuple(&[
        a.mode(0).unwrap().composition(&t("3:4")).unwrap(),
        a.mode(1).unwrap().composition(&t("8:2")).unwrap(),
    ])
    .unwrap();
    assert_eq!(r, same);
    // A shape as a tiler, `(3,8)` = `<3:1,8:1>`: "(_3,(4,2)):(59,(13,1))".
    assert_eq!(a.composition(&t("<3:1,8:1>")).unwrap().to_string(), "(3,(4,2)):(59,(13,1))");
}

#[test]
fn complement() {
    let cases = [
        ("4:1", "6:4"),
        ("6:4", "4:1"),
        ("(4,6):(1,4)", "1:0"),
        ("4:2", "(2,3):(1,8)"),
        ("(2,4):(1,6)", "3:2"),
        ("(2,2):(1,6)", "(3,2):(2,12)"),
    ];
    for (a, want) in cases {
        let a = l(a);
        let r = a.complement(24).unwrap();
        assert_eq!(r.to_string(), want, "complement({a}, 24)");
        // "Note that (A, R) has cosize 24 and produces unique indices."
        let both = Layout::tuple(&[a, r]).unwrap();
        assert_eq!(both.cosize(), 24, "{both}");
        let mut seen: Vec<usize> = both.offsets().collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), both.size(), "{both}");
    }
}

#[test]
fn logical_divide_1d() {
    // "Complement of B = 4:2 under size(A) = 24 is B* = (2,3):(1,8)", "(B,B*) = (4,(2,3)):(2,(1,8))", and the
    // divide is "((2,2),(2,3)):((4,1),(2,8))".
    let (a, b) = (l("(4,2,3):(2,1,8)"), l("4:2"));
    let star = b.complement(a.size()).unwrap();
    assert_eq!(star.to_string(), "(2,3):(1,8)");
    let pair = Layout::tuple(&[b, star]).unwrap();
    assert_eq!(pair.to_string(), "(4,(2,3)):(2,(1,8))");
    let r = a.logical_divide(&Tiler::layout(b)).unwrap();
    assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(r, a.composition(&Tiler::layout(pair)).unwrap());
}

#[test]
fn divides_2d() {
    let a = l("(9,(4,8)):(59,(13,1))");
    let b = t("<3:3,(2,4):(1,8)>");
    // "the first mode of each mode of the result is the sublayout (3,(2,4)):(177,(13,2))", the composition.
    let ld = a.logical_divide(&b).unwrap();
    let firsts = Layout::tuple(&[ld.mode(0).unwrap().mode(0).unwrap(), ld.mode(1).unwrap().mode(0).unwrap()]).unwrap();
    assert_eq!(firsts.to_string(), "(3,(2,4)):(177,(13,2))");
    assert_eq!(firsts, a.composition(&b).unwrap());
    // logical_divide "with shape ((3,3), (8,4))", zipped_divide "((3,8), (3,4))" (sizes of the modes).
    let sizes = |x: &Layout| -> Vec<Vec<usize>> {
        (0..x.rank()).map(|i| (0..2).map(|j| x.mode(i).unwrap().mode(j).unwrap().size()).collect()).collect()
    };
    assert_eq!(sizes(&ld), vec![vec![3, 3], vec![8, 4]]);
    let zd = a.zipped_divide(&b).unwrap();
    assert_eq!(sizes(&zd), vec![vec![3, 8], vec![3, 4]]);
    // "layout<0>(zipped_divide(a, b)) == composition(a, b)".
    assert_eq!(zd.mode(0).unwrap(), a.composition(&b).unwrap());
    // tiled_divide: ((TileM,TileN), RestM, RestN).
    let td = a.tiled_divide(&b).unwrap();
    assert_eq!((td.rank(), td.mode(1).unwrap().size(), td.mode(2).unwrap().size()), (3, 3, 4));
    assert_eq!(td.mode(0), zd.mode(0));
}

#[test]
fn logical_product_1d() {
    // "Complement of A = (2,2):(4,1) under 6*4 = 24 is A* = (2,3):(2,8)", "A* o B = (2,3):(2,8)",
    // "((2,2),(2,3)):((4,1),(2,8))", "identical to the result of the 1-D Logical Divide example".
    let a = l("(2,2):(4,1)");
    let star = a.complement(24).unwrap();
    assert_eq!(star.to_string(), "(2,3):(2,8)");
    assert_eq!(star.composition(&t("6:1")).unwrap().to_string(), "(2,3):(2,8)");
    let p = a.logical_product(&t("6:1")).unwrap();
    assert_eq!(p.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(p, l("(4,2,3):(2,1,8)").logical_divide(&t("4:2")).unwrap());
    // "with B = (4,2):(2,1), there are 8 repeated tiles instead of 6".
    let p = a.logical_product(&t("(4,2):(2,1)")).unwrap();
    assert_eq!(p.mode(1).unwrap().size(), 8);
    assert_eq!(p.mode(0).unwrap(), a);
}

#[test]
fn blocked_and_raked_products() {
    // "A 2x5 row-major layout is arranged as a tile in a 3x4 column-major arrangement", rank 2, size 120.
    let (a, b) = (l("(2,5):(5,1)"), t("(3,4):(1,3)"));
    let blocked = a.blocked_product(&b).unwrap();
    assert_eq!((blocked.rank(), blocked.size()), (2, 120));
    // "blocked_product went ahead and coalesced mode-0 for us": C++'s final by-mode coalesce.
    let coalesced = blocked.coalesce_profile(&IntTuple::parse("(1,1)").unwrap()).unwrap();
    assert_eq!(coalesced.mode(0).unwrap().to_string(), "6:5");
    // Each 2x5 block is contiguous (10 offsets), blocks follow column-major over the 3x4 arrangement.
    let at = |x: &Layout, r: usize, c: usize| x.crd2idx(&IntTuple::flat(&[r, c]).unwrap()).unwrap();
    for (br, bc) in [(0, 0), (1, 0), (2, 3)] {
        let block: Vec<(usize, usize)> = (0..2).flat_map(|r| (0..5).map(move |c| (r, c))).collect();
        let base = 10 * (br + 3 * bc);
        for (r, c) in block {
            assert_eq!(at(&blocked, 2 * br + r, 5 * bc + c), base + 5 * r + c);
        }
    }
    // Raked: the block's rows and columns are interleaved with the arrangement's.
    let raked = a.raked_product(&b).unwrap();
    assert_eq!((raked.rank(), raked.size()), (2, 120));
    for (r, c) in [(0, 0), (1, 4), (1, 2)] {
        for (br, bc) in [(0, 0), (2, 3), (1, 1)] {
            assert_eq!(at(&raked, 3 * r + br, 4 * c + bc), 10 * (br + 3 * bc) + 5 * r + c);
        }
    }
}
