//! Tests of the kernels of narrow blocks on every instruction set the CPU runs, as [`super::levels`]'s: the
//! interleaves and deinterleaves of row pairs, quads and eights (`zip`), the row pairs carried on AMD's CPUs with a
//! 48 KiB first level, and the stages of transposes with few rows or columns.
extern crate std;

use std::format;
use std::string::String;

use tensor_layout_core::ArrayShape;

use super::cache::{OVERRIDE, XEON, ZEN5};
use super::levels::{both, both_at, moved, reference, scoped};
use super::zip::CARRIED;

/// Interleaves and deinterleaves of pairs, quads and eights: the repetitions that continue a destination run
/// (the other row pairs and quads of a tile), taller tiles, partial tiles (their last columns unit by unit),
/// short rows unpacked a row of tiles at a time, gathered in the scratch tile and written out as one run (with
/// gaps between them, a partial tile's columns apart, stored straight), and those of more destination rows than a
/// chunk goes through together.
#[test]
fn interleaves_at_every_level() {
    both("bf16[16,64]", "bf16[16,64]{1,0:T(8,32)(2,1)}");
    both("bf16[24,384]", "bf16[24,384]{1,0:T(8,128)(2,1)}");
    both("u8[64,512]", "u8[64,512]{1,0:T(32,128)(4,1)}");
    both("u8[64,1024]", "u8[64,1024]{1,0:T(32,128)(4,1)}"); // 32 KiB a row of tiles
    both("bf16[24,300]", "bf16[24,300]{1,0:T(8,128)(2,1)}"); // short rows with gaps: stored straight
    both("u8[64,300]", "u8[64,300]{1,0:T(32,128)(4,1)}");
    both("u8[16,256]", "u8[16,256]{1,0:T(8,128)(4,1)}");
    // Deinterleaves whose source rows are a partial tile's columns, one group (120 and 44, not a multiple of a
    // step: loaded whole), and tiles of such widths side by side (groups that a step would cross: gathered).
    both("u8[64,120]", "u8[64,120]{1,0:T(32,128)(4,1)}");
    both("bf16[24,44]", "bf16[24,44]{1,0:T(8,128)(2,1)}");
    both("u8[64,300]", "u8[64,300]{1,0:T(32,100)(4,1)}");
    both("bf16[16,180]", "bf16[16,180]{1,0:T(8,36)(2,1)}");
    both("bf16[40,300]", "bf16[40,300]{1,0:T(8,128)(2,1)}");
    both("bf16[19,260]", "bf16[19,260]{1,0:T(16,128)(2,1)}");
    both("u8[40,300]", "u8[40,300]{1,0:T(8,128)(4,1)}");
    both("u8[70,270]", "u8[70,270]{1,0:T(32,128)(4,1)}");
    both("u8[40,300]", "u8[40,300]{1,0:T(8,128)(8,1)}");
    both("f32[24,100]", "f32[24,100]{1,0:T(8,64)(2,1)}");
    both("bf16[3,20,300]{2,1,0}", "bf16[3,20,300]{2,1,0:T(8,128)(2,1)}");
    // The row pairs of a whole array of tiles (74 destination rows a chunk): repetition by repetition.
    both("bf16[3,75,128]{2,1,0:T(16,128)(2,1)}", "bf16[3,75,128]{2,0,1}");
}

/// Untiling row pairs on the CPUs that carry them (Zen 5's caches: `zip::deinterleave_carried`), streaming, at
/// skews 0, 1 and 3 (destination rows off lines): bf16 and f32 `(2,1)` tiles whose rows hold several chunks (the
/// lines carried from chunk to chunk), a partial tile's last columns, a batch of arrays; the path runs where the
/// destination streams, and not with the Xeon's caches nor for the quads of `(4,1)` tiles.
#[test]
fn row_pairs_untile_through_carried_lines() {
    let runs = [(true, 0), (true, 1), (true, 3), (false, 0)];
    let cases = [
        ("bf16[24,1000]{1,0:T(8,128)(2,1)}", "bf16[24,1000]"),
        ("bf16[16,700]{1,0:T(16,128)(2,1)}", "bf16[16,700]"),
        ("f32[16,600]{1,0:T(8,128)(2,1)}", "f32[16,600]"),
        ("bf16[2,16,1100]{2,1,0:T(8,128)(2,1)}", "bf16[2,16,1100]"),
    ];
    scoped(&OVERRIDE, Some(ZEN5), || {
        for (a, b) in cases {
            both_at(a, b, &runs);
            let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
            let w = ArrayShape::parse(a).unwrap().element_bits() as usize / 8;
            assert!(moved(&CARRIED, a, b, &pairs, w, 1), "{a} -> {b}: not carried");
        }
        let (a, b) = ("u8[16,2000]{1,0:T(8,128)(4,1)}", "u8[16,2000]");
        let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
        assert!(!moved(&CARRIED, a, b, &pairs, 1, 1), "quads carried");
    });
    scoped(&OVERRIDE, Some(XEON), || {
        let (a, b) = cases[0];
        let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
        assert!(!moved(&CARRIED, a, b, &pairs, 2, 1), "carried with the Xeon's caches");
    });
}

/// Transposes with few rows or columns, which no SIMD kernel takes (channels-last images with 3, 5, 6 or 7
/// channels and back, units of one and two elements, every element size), written through the stage and
/// streamed where the call moves 64 KiB or more: runs that start and end inside lines, carried from step to step.
#[test]
fn narrow_transposes_through_the_stage() {
    both("f32[2,3,50,70]{3,2,1,0}", "f32[2,3,50,70]{1,3,2,0}");
    both("u8[4,5,99,101]{3,2,1,0}", "u8[4,5,99,101]{1,3,2,0}");
    both("bf16[3,7,64,65]{3,2,1,0}", "bf16[3,7,64,65]{1,3,2,0}");
    both("f64[2,6,33,41]{3,2,1,0}", "f64[2,6,33,41]{1,3,2,0}");
    both("f32[2,3,61,70,2]{4,3,2,1,0}", "f32[2,3,61,70,2]{4,1,3,2,0}");
    both("u8[4,3000,7]{2,1,0}", "u8[4,3000,7]{1,2,0}");
    both("u8[1,3,25000]{2,1,0}", "u8[1,3,25000]{1,2,0}");
}

/// The stages at shapes drawn at random (a fixed seed): channels-last images of 1 to 8 channels, and short rows
/// with partial tiles of every pairing, padded dimensions included, both ways, streamed and not.
#[test]
fn stages_at_random_shapes() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut draw = |lo: usize, hi: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        lo + (seed % (hi - lo + 1) as u64) as usize
    };
    let runs = [(true, 0), (true, 1), (false, 0)];
    for _ in 0..6 {
        let ty = ["u8", "bf16", "f32", "f64"][draw(0, 3)];
        let (c, h, w) = (draw(1, 8), draw(10, 60), draw(30, 400));
        let a = format!("{ty}[2,{c},{h},{w}]{{3,2,1,0}}");
        both_at(&a, &format!("{ty}[2,{c},{h},{w}]{{1,3,2,0}}"), &runs);
    }
    for _ in 0..6 {
        let (ty, tile) =
            [("bf16", "(8,128)(2,1)"), ("u8", "(32,128)(4,1)"), ("f32", "(8,128)"), ("u8", "(8,128)(4,1)")][draw(0, 3)];
        let (rows, cols) = (draw(150, 400), draw(60, 700));
        let pad = if draw(0, 1) == 1 {
            format!("pad({},{}:one)", rows + draw(0, 20), cols + draw(0, 140))
        } else {
            String::new()
        };
        both_at(&format!("{ty}[{rows},{cols}]"), &format!("{ty}[{rows},{cols}]{{1,0:T{tile}{pad}}}"), &runs);
    }
}
