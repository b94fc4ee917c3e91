//! Packing: bf16 under the TPU tiling `(8,128)(2,1)` read as 32-bit words, and 4-bit integers packed two per byte.
//!
//! In `bf16[16,256]{1,0:T(8,128)(2,1)}` the second tile level `(2,1)` pairs rows inside each 8x128 tile, so the
//! 32-bit word `w` of the storage holds row `2i` (low half) and row `2i + 1` (high half) of one column: what a TPU
//! loads into one 32-bit lane. With `E(4)`, element `k` of an `s4` array occupies bits `4k..4k+4`, low nibble
//! first (spec §4: 0..15 packs to `10 32 54 76 98 ba dc fe`).
//!
//! Run with `cargo run --example bf16_packing`.

use half::bf16;
use tensor_layout::view::{PackedView, PackedViewMut, View, ViewMut};
use tensor_layout::{layout, relayout, relayout_packed};

type Rows = layout!(bf16[16,256]);
type Paired = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Element (r, c) = 8 r + c mod 8: small integers, exact in bf16.
    let rows: Vec<bf16> =
        (0..16 * 256).map(|x| bf16::from_f32((x / 256) as f32 * 8.0 + (x % 256 % 8) as f32)).collect();
    let mut paired = vec![bf16::ZERO; Paired::STORAGE_ELEMENTS];
    relayout(&View::new(Rows::default(), &rows[..])?, &mut ViewMut::new(Paired::default(), &mut paired[..])?)?;

    let view = View::new(Paired::default(), &paired[..])?;
    let words = view.words()?;
    println!("{}: {} bf16 slots, {} 32-bit words", Paired::TEXT, Paired::STORAGE_ELEMENTS, words.len());
    for w in 0..4 {
        let word = words.get(w).unwrap();
        let (lo, hi) = (bf16::from_bits(word as u16), bf16::from_bits((word >> 16) as u16));
        println!("  word {w}: {word:#010x} = (low {lo}, high {hi})");
    }
    // Every word pairs rows 2i and 2i + 1 of one column.
    for (w, word) in words.iter().enumerate() {
        let (lo, hi) = (word as u16, (word >> 16) as u16);
        let tile = w / 512; // 1024 slots per tile
        let (pair, column) = (w % 512 / 128, w % 128);
        let (r, c) = (tile / 2 * 8 + 2 * pair, tile % 2 * 128 + column);
        assert_eq!(lo, view.get(&[r, c])?.to_bits(), "word {w}: row {r}");
        assert_eq!(hi, view.get(&[r + 1, c])?.to_bits(), "word {w}: row {}", r + 1);
    }
    println!("  every word holds rows 2i and 2i+1 of one column");

    // 4-bit integers: two per byte, low nibble first.
    type S4 = layout!(s4[16]{0:E(4)});
    let mut bytes = [0u8; S4::BYTE_SIZE];
    let mut packed = PackedViewMut::new(S4::default(), &mut bytes)?;
    for i in 0..16 {
        packed.set(&[i], i as u64)?;
    }
    assert_eq!(bytes, [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe]);
    println!("{}: 0..15 packs to {:02x?}", S4::TEXT, bytes);
    let packed = PackedView::new(S4::default(), &bytes)?;
    assert_eq!(packed.get_signed(&[15])?, -1);
    println!("  element 15 reads back as {} (s4), raw {:#x}", packed.get_signed(&[15])?, packed.get(&[15])?);

    // Packed relayout: transpose a 4x4 block of nibbles.
    type Block = layout!(s4[4,4]{1,0:E(4)});
    type BlockT = layout!(s4[4,4]{0,1:E(4)});
    let mut t = [0u8; 8];
    relayout_packed(&PackedView::new(Block::default(), &bytes)?, &mut PackedViewMut::new(BlockT::default(), &mut t)?)?;
    assert_eq!(t, [0x40, 0xc8, 0x51, 0xd9, 0x62, 0xea, 0x73, 0xfb]);
    println!("{} -> {}: {:02x?}", Block::TEXT, BlockT::TEXT, t);
    Ok(())
}
