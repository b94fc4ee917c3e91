//! CuTe tensors (`tensor_layout::cute::Tensor`) against a deliberately naive reference written here: a layout is
//! `Σ c_k d_k` over its flat modes, a coordinate of a mode is split colexicographically, a tile `(g0, g1)` of a
//! by-mode tiler `<T0:1,T1:1>` holds the elements `(g0 T0 + r, g1 T1 + c)`, and thread `(t0, t1)` of a
//! row-major thread layout `(P,Q):(Q,1)` holds `(t0 + P i, t1 + Q j)`. Static layout types and runtime layouts
//! must agree with it on every coordinate, partitions must cover every element exactly once, identity tensors
//! must name the coordinates the data tensors hold.

use proptest::prelude::*;
use tensor_layout::cute::{
    self, ByMode, ConstLayout, Extent, Identity, IndexOf, Layout, Tensor, TensorError, TensorLayout, TensorMut,
};
use tensor_layout::layout;

// -------------------------------------------------------------------------------------------------------------
// The naive reference

fn leaves(l: &Layout) -> Vec<(usize, usize)> {
    (0..l.leaf_count()).map(|k| l.leaf(k).map(|m| (m.extent, m.stride)).unwrap()).collect()
}

/// The offset of 1-D index `i` of a (sub)layout: colexicographic digits.
fn eval(l: &Layout, mut i: usize) -> usize {
    let mut off = 0;
    for (s, d) in leaves(l) {
        off += (i % s) * d;
        i /= s;
    }
    off
}

/// The offset of a per-mode coordinate `(c0, c1, ..)`.
fn eval_modes(l: &Layout, c: &[usize]) -> usize {
    c.iter().enumerate().map(|(m, &x)| eval(&l.mode(m).unwrap(), x)).sum()
}

/// Row-major 2-D layouts `(m, n)` with extents split or not, strides of several kinds, as text.
fn layout_2d() -> impl Strategy<Value = (usize, usize, String)> {
    (1usize..=4, 1usize..=4, 1usize..=3, 1usize..=3, 0usize..3).prop_map(|(tm, tn, gm, gn, kind)| {
        // m = tm * gm rows in tiles of tm, n = tn * gn columns.
        let (m, n) = (tm * gm, tn * gn);
        let text = match kind {
            0 => format!("({m},{n}):({n},1)"),
            1 => format!("({m},{n}):(1,{m})"),
            // Tiled: (tm, gm) rows, (tn, gn) columns, tiles contiguous.
            _ => format!("(({tm},{gm}),({tn},{gn})):(({tn},{}),(1,{}))", tm * tn * gn, tm * tn),
        };
        (tm, tn, text)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Offsets of every coordinate, three ways of writing it, against the naive reference.
    #[test]
    fn offsets_agree_with_the_reference((_, _, text) in layout_2d()) {
        let l = cute::layout(&text);
        let data: Vec<usize> = (0..l.cosize()).collect();
        let t = Tensor::new(l, &data).unwrap();
        let (m, n) = (l.mode(0).unwrap().size(), l.mode(1).unwrap().size());
        for i in 0..m {
            for j in 0..n {
                let want = eval_modes(&l, &[i, j]);
                prop_assert_eq!(t.offset((i, j)), Some(want));
                prop_assert_eq!(t[(i, j)], want);
                prop_assert_eq!(t.offset(i + m * j), Some(want)); // 1-D, the first mode fastest
            }
        }
        prop_assert_eq!(t.offset((m, 0)), None);
        prop_assert_eq!(t.offset((0, n)), None);
        prop_assert_eq!(t.offset(m * n), None);
    }

    /// `local_tile` with a by-mode tiler: tile `(g0, g1)` holds `(g0 T0 + r, g1 T1 + c)`.
    #[test]
    fn local_tile_holds_its_box((tm, tn, text) in layout_2d()) {
        let l = cute::layout(&text);
        let data: Vec<usize> = (0..l.cosize()).collect();
        let t = Tensor::new(l, &data).unwrap();
        let tiler = cute::tiler(&format!("<{tm}:1,{tn}:1>"));
        let (m, n) = (l.mode(0).unwrap().size(), l.mode(1).unwrap().size());
        for g0 in 0..m / tm {
            for g1 in 0..n / tn {
                let tile = t.local_tile(&tiler, (g0, g1)).unwrap();
                for r in 0..tm {
                    for c in 0..tn {
                        prop_assert_eq!(tile[(r, c)], eval_modes(&l, &[g0 * tm + r, g1 * tn + c]));
                    }
                }
            }
        }
        prop_assert!(t.local_tile(&tiler, (m / tm, 0)).is_err());
    }
}

// -------------------------------------------------------------------------------------------------------------
// Static layouts: the same answers as the runtime ones, and as the reference.

tensor_layout::cute_layout!(RowMajor = "(16,32):(32,1)");
tensor_layout::cute_layout!(ColMajor = "(16,32):(1,16)");
tensor_layout::cute_layout!(Nested = "((4,4),(8,4)):((8,128),(1,32))");
tensor_layout::cute_layout!(Threads = "(4,8):(8,1)");
tensor_layout::cute_layout!(ColThreads = "(4,8):(1,4)");
type Tile = ByMode<(Extent<4>, Extent<8>)>;

fn static_agrees<L: ConstLayout>() {
    let l = L::LAYOUT;
    let data: Vec<usize> = (0..l.cosize()).collect();
    let s = Tensor::new(L::default(), &data).unwrap();
    let r = Tensor::new(l, &data).unwrap();
    for i in 0..16 {
        for j in 0..32 {
            let want = eval_modes(&l, &[i, j]);
            assert_eq!((s.offset((i, j)), r.offset((i, j))), (Some(want), Some(want)), "{l} at ({i}, {j})");
            assert_eq!(s.offset(i + 16 * j), Some(want));
        }
    }
    assert_eq!(s.offset((16, 0)), None);
    // Tiles: static and runtime, against the reference.
    let tiler = cute::tiler("<4:1,8:1>");
    for g0 in 0..4 {
        for g1 in 0..4 {
            let st = s.local_tile::<Tile, _>((g0, g1)).unwrap();
            let rt = r.local_tile(&tiler, (g0, g1)).unwrap();
            for a in 0..4 {
                for b in 0..8 {
                    let want = eval_modes(&l, &[g0 * 4 + a, g1 * 8 + b]);
                    assert_eq!((st[(a, b)], rt[(a, b)]), (want, want));
                }
            }
        }
    }
    assert!(matches!(s.local_tile::<Tile, _>((4, 0)), Err(TensorError::OutOfShape { .. })));
    // Thread shares: thread (t0, t1) of the row-major (4,8) threads holds (t0 + 4 i, t1 + 8 j).
    for t in 0..32 {
        let (t0, t1) = (t / 8, t % 8);
        let mine = s.local_partition::<Threads>(t).unwrap();
        assert_eq!(mine.size(), 16);
        for i in 0..4 {
            for j in 0..4 {
                assert_eq!(mine[(i, j)], eval_modes(&l, &[t0 + 4 * i, t1 + 8 * j]));
            }
        }
        // Column-major threads: thread t is (t % 4, t / 4).
        let theirs = s.local_partition::<ColThreads>(t).unwrap();
        assert_eq!(theirs[(1, 2)], eval_modes(&l, &[t % 4 + 4, t / 4 + 16]));
    }
    assert!(matches!(s.local_partition::<Threads>(32), Err(TensorError::Thread { thread: 32, threads: 32 })));
}

#[test]
fn static_layouts_agree_with_runtime_ones_and_the_reference() {
    static_agrees::<RowMajor>();
    static_agrees::<ColMajor>();
    static_agrees::<Nested>();
}

fn partition_covers_once<L: ConstLayout>() {
    let l = L::LAYOUT;
    let mut hits = vec![0u32; l.cosize()];
    let mut t = TensorMut::new(L::default(), &mut hits).unwrap();
    let shards = t.partition::<Threads>().unwrap();
    assert_eq!(shards.len(), 32);
    std::thread::scope(|s| {
        for (thread, mut shard) in shards.enumerate() {
            s.spawn(move || {
                let (t0, t1) = (thread / 8, thread % 8);
                for i in 0..4 {
                    for j in 0..4 {
                        assert_eq!(shard.offset((i, j)), Some(eval_modes(&L::LAYOUT, &[t0 + 4 * i, t1 + 8 * j])));
                        shard[(i, j)] += 1;
                    }
                }
            });
        }
    });
    let mut reached = vec![0u32; l.cosize()];
    for i in 0..16 {
        for j in 0..32 {
            reached[eval_modes(&l, &[i, j])] += 1;
        }
    }
    assert_eq!(hits, reached, "every element of {l} once, nothing else");
}

#[test]
fn partitions_cover_every_element_exactly_once() {
    partition_covers_once::<RowMajor>();
    partition_covers_once::<ColMajor>();
    partition_covers_once::<Nested>();
}

#[test]
fn identity_tensors_name_the_coordinates_data_tensors_hold() {
    let id = Identity::<IndexOf<Nested>, 2>::new();
    for g0 in 0..4 {
        for g1 in 0..4 {
            let tile = id.local_tile::<Tile, _>((g0, g1)).unwrap();
            for a in 0..4 {
                for b in 0..8 {
                    assert_eq!(tile.coord((a, b)), Some([g0 * 4 + a, g1 * 8 + b]));
                    assert_eq!(tile.contains((a, b), [13, 30]), g0 * 4 + a < 13 && g1 * 8 + b < 30);
                }
            }
        }
    }
    for t in 0..32 {
        let mine = id.local_partition::<Threads>(t).unwrap();
        for i in 0..4 {
            for j in 0..4 {
                assert_eq!(mine.coord((i, j)), Some([t / 8 + 4 * i, t % 8 + 8 * j]));
                assert_eq!(mine.coord(i + 4 * j), Some([t / 8 + 4 * i, t % 8 + 8 * j]));
            }
        }
    }
    assert_eq!(id.coord((16, 0)), None);
}

/// The kernel, written once for full and partial tiles: each XLA tile of `f32[?,256]{1,0:T(8,128)}` as a static
/// CuTe tensor, its elements predicated by the identity tensor of the tile (`coordinate < [rows, 256]`).
fn scale_rows(rows: usize, storage: &mut [f32]) {
    type A = layout!(f32[?,256]{1,0:T(8,128)});
    let a = A::bind(&[rows]).unwrap();
    let mut v = tensor_layout::view::ViewMut::new(&a, storage).unwrap();
    for tile in v.tiles_mut().unwrap() {
        let id = tile.identity::<2>();
        let mut t = tile.into_tensor().unwrap();
        for i in 0..t.size() {
            if id.contains(i, [rows, 256]) {
                t[i] = 2.0 * t[i] + 1.0;
            }
        }
    }
}

#[test]
fn a_partial_tile_kernel_written_once_with_predicates() {
    type A = layout!(f32[?,256]{1,0:T(8,128)});
    for rows in [0, 1, 37, 4099] {
        let a = A::bind(&[rows]).unwrap();
        let n = a.storage_elements().unwrap();
        let before: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
        let mut after = before.clone();
        scale_rows(rows, &mut after);
        // The naive reference: slot `r * 128 + c % 128` of tile `(r / 8) * 2 + c / 128` holds (r, c); every other
        // slot is padding and keeps its value.
        let mut want = before.clone();
        for r in 0..rows {
            for c in 0..256 {
                let slot = ((r / 8) * 2 + c / 128) * 1024 + (r % 8) * 128 + c % 128;
                want[slot] = 2.0 * before[slot] + 1.0;
            }
        }
        assert_eq!(after, want, "rows {rows}");
    }
}

#[test]
fn tensors_refuse_storage_they_do_not_have() {
    let e = Tensor::new(RowMajor, &[0u8; 511]).unwrap_err();
    assert_eq!(e, TensorError::StorageTooSmall { needed: 512, storage: 511 });
    assert_eq!(RowMajor.reach(), 512);
    let mut small = [0u8; 100];
    assert!(TensorMut::new(cute::layout("(4,8):(8,1)"), &mut small[..31]).is_err());
}
