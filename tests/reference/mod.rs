//! A deliberately naive reference implementation of the layout arithmetic of `spec/xla-layouts.md` §4, written
//! from the spec text alone (independently of `tensor-layout-core`), for the differential tests.
//!
//! Everything is plain `Vec`s and obvious loops. It models:
//! 1. physical order: logical dimensions listed from most major (`m[n-1]`) to most minor (`m[0]`);
//! 2. one tile at a time on the most-minor suffix of the current shape: extend with leading size-1 dimensions
//!    when the tile is longer than the shape, merge every `*` dimension into its next more-minor neighbour, then
//!    split each tiled dimension `d` by `t` into a grid dimension `ceil(d/t)` and a within-tile dimension `t`,
//!    with all grid dimensions first and all within-tile dimensions moved to the minor end;
//! 3. the offset is the row-major index in the final shape; storage is its product rounded up to `L`;
//! 4. the older `padded_dimensions` (our `pad(..)` extension): each logical dimension is padded to the given size
//!    before anything else, so strides, tiles and sizes all use the padded sizes.
#![allow(dead_code)]

/// A layout as plain data. `tiles[level][entry]` is `None` for the combine marker `*`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefLayout {
    /// Logical dimension sizes, dimension 0 first.
    pub dims: Vec<usize>,
    /// `minor_to_major`: `minor_to_major[0]` is the most minor logical dimension.
    pub minor_to_major: Vec<usize>,
    /// Tile levels, outermost (first applied) first.
    pub tiles: Vec<Vec<Option<usize>>>,
    /// `L(n)`: storage rounded up to a multiple of this (1 = none).
    pub tail_alignment: usize,
    /// The older padded dimensions, one per logical dimension, if any.
    pub padded: Option<Vec<usize>>,
}

impl RefLayout {
    /// An untiled layout with the given order.
    pub fn new(dims: &[usize], minor_to_major: &[usize]) -> RefLayout {
        RefLayout {
            dims: dims.to_vec(),
            minor_to_major: minor_to_major.to_vec(),
            tiles: Vec::new(),
            tail_alignment: 1,
            padded: None,
        }
    }

    /// The same layout with tiles, written as in the text form (`None` = `*`).
    pub fn with_tiles(mut self, tiles: &[&[Option<usize>]]) -> RefLayout {
        self.tiles = tiles.iter().map(|t| t.to_vec()).collect();
        self
    }

    /// The same layout with `L(n)`.
    pub fn with_tail_alignment(mut self, l: usize) -> RefLayout {
        self.tail_alignment = l;
        self
    }

    /// The same layout with padded dimensions.
    pub fn with_padding(mut self, padded: &[usize]) -> RefLayout {
        self.padded = Some(padded.to_vec());
        self
    }

    /// The sizes the arithmetic uses: the padded sizes if any, else the logical ones.
    fn arithmetic_dims(&self) -> Vec<usize> {
        match &self.padded {
            Some(p) => p.clone(),
            None => self.dims.clone(),
        }
    }

    /// Runs the spec's algorithm on a shape and (optionally) an index; returns the final shape and index.
    fn expand(&self, index: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let dims = self.arithmetic_dims();
        let n = dims.len();
        assert_eq!(self.minor_to_major.len(), n, "minor_to_major has one entry per dimension");
        assert_eq!(index.len(), n, "index has one entry per dimension");

        // Step 1: physical order, most major first.
        let mut shape: Vec<usize> = Vec::new();
        let mut idx: Vec<usize> = Vec::new();
        for k in (0..n).rev() {
            let d = self.minor_to_major[k];
            shape.push(dims[d]);
            idx.push(index[d]);
        }

        // Step 2: every tile in turn, on the shape produced by the previous one.
        for tile in &self.tiles {
            // Tile longer than the shape: leading dimensions of size 1, index 0.
            while shape.len() < tile.len() {
                shape.insert(0, 1);
                idx.insert(0, 0);
            }
            let split = shape.len() - tile.len();
            let prefix_shape = shape[..split].to_vec();
            let prefix_idx = idx[..split].to_vec();

            // Merge `*` dimensions into their next more-minor neighbour (walking from major to minor, a running
            // product carries every `*` dimension into the next tiled one).
            let mut merged: Vec<(usize, usize, usize)> = Vec::new(); // (size, index, tile size)
            let mut carry_size: usize = 1;
            let mut carry_idx: usize = 0;
            for (i, entry) in tile.iter().enumerate() {
                let size = shape[split + i];
                let e = idx[split + i];
                let new_size = carry_size * size;
                let new_idx = carry_idx * size + e;
                match entry {
                    None => {
                        carry_size = new_size;
                        carry_idx = new_idx;
                    }
                    Some(t) => {
                        merged.push((new_size, new_idx, *t));
                        carry_size = 1;
                        carry_idx = 0;
                    }
                }
            }
            assert!(carry_size == 1 && carry_idx == 0, "a `*` on the most minor tile entry has nothing to merge into");

            // Split: grid dimensions, then within-tile dimensions.
            let mut new_shape = prefix_shape;
            let mut new_idx = prefix_idx;
            for &(size, e, t) in &merged {
                new_shape.push(size.div_ceil(t));
                new_idx.push(e / t);
            }
            for &(_, e, t) in &merged {
                new_shape.push(t);
                new_idx.push(e % t);
            }
            shape = new_shape;
            idx = new_idx;
        }
        (shape, idx)
    }

    /// The final (physical) shape, most major first.
    pub fn physical_shape(&self) -> Vec<usize> {
        let zeros = vec![0; self.dims.len()];
        self.expand(&zeros).0
    }

    /// Storage slots: the product of the physical shape rounded up to a multiple of `L`.
    pub fn storage_elements(&self) -> usize {
        let product: usize = self.physical_shape().iter().product();
        product.div_ceil(self.tail_alignment) * self.tail_alignment
    }

    /// Bytes for the storage: `ceil(storage * E / 8)` when `E(n)` is set (`element_size_bits > 0`), else
    /// `storage * byte_width`.
    pub fn byte_size(&self, element_size_bits: usize, byte_width: usize) -> usize {
        let s = self.storage_elements();
        if element_size_bits > 0 {
            (s * element_size_bits).div_ceil(8)
        } else {
            s * byte_width
        }
    }

    /// The offset of a logical index: the row-major index of the final index in the final shape.
    pub fn offset(&self, index: &[usize]) -> usize {
        for (i, (&e, &d)) in index.iter().zip(&self.dims).enumerate() {
            assert!(e < d, "index entry {i} = {e} is out of range for size {d}");
        }
        let (shape, idx) = self.expand(index);
        let mut offset = 0;
        for (&s, &e) in shape.iter().zip(&idx) {
            offset = offset * s + e;
        }
        offset
    }

    /// Every logical index, in row-major logical order (last dimension fastest).
    pub fn indices(&self) -> Vec<Vec<usize>> {
        let mut all = vec![Vec::new()];
        for &d in &self.dims {
            let mut next = Vec::new();
            for prefix in &all {
                for e in 0..d {
                    let mut v = prefix.clone();
                    v.push(e);
                    next.push(v);
                }
            }
            all = next;
        }
        all
    }

    /// The offset of every logical index, in row-major logical order.
    pub fn offsets(&self) -> Vec<usize> {
        self.indices().iter().map(|i| self.offset(i)).collect()
    }

    /// What every storage slot holds: `Some(index)` for an element, `None` for padding.
    pub fn memory_image(&self) -> Vec<Option<Vec<usize>>> {
        let mut image = vec![None; self.storage_elements()];
        for index in self.indices() {
            let o = self.offset(&index);
            assert!(image[o].is_none(), "two elements at offset {o}");
            image[o] = Some(index);
        }
        image
    }
}

#[cfg(test)]
mod tests {
    use super::RefLayout;

    const S: Option<usize> = None;

    fn t(v: usize) -> Option<usize> {
        Some(v)
    }

    #[test]
    fn untiled_orders_of_seed_000() {
        // [2x3]: m2m [0,1] stores a d b e c f; [1,0] stores a b c d e f.
        let col = RefLayout::new(&[2, 3], &[0, 1]);
        let image: Vec<_> = col.memory_image().into_iter().map(|s| s.unwrap()).collect();
        assert_eq!(image, [vec![0, 0], vec![1, 0], vec![0, 1], vec![1, 1], vec![0, 2], vec![1, 2]]);
        let row = RefLayout::new(&[2, 3], &[1, 0]);
        assert_eq!(row.offsets(), [0, 1, 2, 3, 4, 5]);
        // Seed 002 (typo fixed by the seeds README): (1,2) of a row-major [2,3] is 5.
        assert_eq!(row.offset(&[1, 2]), 5);
    }

    #[test]
    fn index_util_vectors() {
        assert_eq!(RefLayout::new(&[10, 20], &[0, 1]).offset(&[3, 5]), 53);
        assert_eq!(RefLayout::new(&[10, 20], &[1, 0]).offset(&[3, 5]), 65);
        assert_eq!(RefLayout::new(&[10, 20, 30], &[2, 1, 0]).offset(&[8, 15, 27]), 5277);
        assert_eq!(RefLayout::new(&[10, 20, 30], &[1, 2, 0]).offset(&[3, 5, 7]), 1945);
        assert_eq!(RefLayout::new(&[10, 20, 30, 40], &[3, 2, 1, 0]).offset(&[8, 15, 27, 33]), 211113);
    }

    #[test]
    fn spec_f32_3_5_t22() {
        let l = RefLayout::new(&[3, 5], &[1, 0]).with_tiles(&[&[t(2), t(2)]]);
        assert_eq!(l.offset(&[2, 3]), 17);
        assert_eq!(l.offsets(), [0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20]);
        assert_eq!(l.storage_elements(), 24);
        assert_eq!(l.physical_shape(), [2, 3, 2, 2]);
    }

    #[test]
    fn spec_repeated_tiling_4x8() {
        let l = RefLayout::new(&[4, 8], &[1, 0]).with_tiles(&[&[t(2), t(4)], &[t(2), t(1)]]);
        let o = l.offsets();
        assert_eq!(o[0..8], [0, 2, 4, 6, 8, 10, 12, 14]);
        assert_eq!(o[8..16], [1, 3, 5, 7, 9, 11, 13, 15]);
        assert_eq!(o[16..24], [16, 18, 20, 22, 24, 26, 28, 30]);
        assert_eq!(o[24..32], [17, 19, 21, 23, 25, 27, 29, 31]);
        assert_eq!(l.physical_shape(), [2, 2, 1, 4, 2, 1]);
    }

    #[test]
    fn spec_combine() {
        let l = RefLayout::new(&[2, 7, 8, 11, 10], &[4, 3, 2, 1, 0]).with_tiles(&[&[S, S, t(2), S, t(3)]]);
        let flat = RefLayout::new(&[112, 110], &[1, 0]).with_tiles(&[&[t(2), t(3)]]);
        assert_eq!(l.physical_shape(), [56, 37, 2, 3]);
        assert_eq!(l.storage_elements(), 12_432);
        for e in [[0, 0, 0, 0, 0], [1, 6, 7, 10, 9], [1, 3, 5, 2, 7], [0, 6, 1, 9, 4]] {
            let row = (e[0] * 7 + e[1]) * 8 + e[2];
            let col = e[3] * 10 + e[4];
            assert_eq!(l.offset(&e), flat.offset(&[row, col]));
        }
    }

    #[test]
    fn spec_bf16_hlo_example() {
        let l = RefLayout::new(&[8, 1, 1280, 16384], &[3, 2, 0, 1]).with_tiles(&[&[t(8), t(128)], &[t(2), t(1)]]);
        assert_eq!(l.physical_shape(), [1, 8, 160, 128, 4, 128, 2, 1]);
        assert_eq!(l.storage_elements() * 2, 335_544_320);
        assert_eq!(l.offset(&[0, 0, 0, 0]), 0);
        assert_eq!(l.offset(&[3, 0, 16, 300]), 63_178_840);
        assert_eq!(l.offset(&[3, 0, 17, 300]), 63_178_841);
        assert_eq!(l.offset(&[3, 0, 17, 301]), 63_178_843);
        assert_eq!(l.offset(&[3, 0, 18, 300]), 63_179_096);
        assert_eq!(l.offset(&[3, 0, 24, 300]), 63_309_912);
        assert_eq!(l.offset(&[3, 0, 25, 300]), 63_309_913);
        assert_eq!(l.offset(&[4, 0, 17, 300]), 84_150_361);
        assert_eq!(l.offset(&[7, 0, 1279, 16383]), 167_772_159);
    }

    #[test]
    fn spec_scalar_and_long_tiles() {
        let scalar = RefLayout::new(&[], &[]).with_tiles(&[&[t(256)]]);
        assert_eq!(scalar.physical_shape(), [1, 256]);
        assert_eq!(scalar.storage_elements(), 256);
        assert_eq!(scalar.offset(&[]), 0);
        let v = RefLayout::new(&[3], &[0]).with_tiles(&[&[t(8), t(128)]]);
        assert_eq!(v.physical_shape(), [1, 1, 8, 128]);
        assert_eq!(v.offset(&[2]), 2);
        let w = RefLayout::new(&[8], &[0]).with_tiles(&[&[t(2), t(2)]]);
        assert_eq!(w.physical_shape(), [1, 4, 2, 2]);
        assert_eq!(w.offset(&[5]), 9);
        let d = RefLayout::new(&[8, 8], &[1, 0]).with_tiles(&[&[t(2), t(4)], &[t(2), t(1), t(1), t(1)]]);
        assert_eq!(d.physical_shape(), [2, 2, 2, 4, 2, 1, 1, 1]);
        assert_eq!(d.offset(&[6, 5]), 51);
        let bf = RefLayout::new(&[2048], &[0]).with_tiles(&[&[t(1024)], &[t(128)], &[t(2), t(1)]]);
        assert_eq!(bf.offset(&[128]), 1);
        assert_eq!(bf.offset(&[1]), 2);
        let bf3 = RefLayout::new(&[2, 8, 128], &[2, 1, 0]).with_tiles(&[&[t(8), t(128)], &[t(2), t(1)]]);
        assert_eq!(bf3.offset(&[0, 2, 0]), 256);
        assert_eq!(RefLayout::new(&[8, 4], &[1, 0]).with_tiles(&[&[t(2), t(2)]]).offset(&[3, 1]), 11);
        assert_eq!(
            RefLayout::new(&[2, 3, 5], &[2, 1, 0]).with_tiles(&[&[t(2), t(2)]]).physical_shape(),
            [2, 2, 3, 2, 2]
        );
    }

    #[test]
    fn spec_sizes() {
        let l = RefLayout::new(&[200_001, 128], &[1, 0]).with_tiles(&[&[t(8)]]).with_tail_alignment(1024);
        assert_eq!(l.storage_elements(), 25_601_024);
        assert_eq!(l.byte_size(0, 4), 102_404_096);
        let s4 = RefLayout::new(&[9216, 6144], &[1, 0]).with_tiles(&[&[t(64), t(128)], &[t(8), t(1)]]);
        assert_eq!(s4.byte_size(4, 1), 28_311_552);
        assert_eq!(RefLayout::new(&[16], &[0]).byte_size(4, 1), 8);
        let pred = RefLayout::new(&[8, 8, 8], &[0, 2, 1]).with_tiles(&[&[t(8), t(128)]]);
        assert_eq!(pred.storage_elements(), 8192);
        assert_eq!(pred.byte_size(32, 1), 32_768);
        let non_dividing = RefLayout::new(&[8, 128], &[1, 0]).with_tiles(&[&[t(8), t(128)], &[t(3), t(1)]]);
        assert_eq!(non_dividing.storage_elements(), 1152);
    }

    #[test]
    fn spec_padded_dimensions() {
        // [2x3] column-major padded to [3,5]: a d 0 b e 0 c f 0 0 0 0 0 0 0.
        let p = RefLayout::new(&[2, 3], &[0, 1]).with_padding(&[3, 5]);
        let image = p.memory_image();
        assert_eq!(image.len(), 15);
        let expect: [Option<[usize; 2]>; 15] = [
            Some([0, 0]),
            Some([1, 0]),
            None,
            Some([0, 1]),
            Some([1, 1]),
            None,
            Some([0, 2]),
            Some([1, 2]),
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        ];
        for (slot, want) in image.iter().zip(expect) {
            assert_eq!(slot.as_deref(), want.as_ref().map(|a| &a[..]));
        }
        // Same memory image as {0,1:T(5,3)}.
        let tiled = RefLayout::new(&[2, 3], &[0, 1]).with_tiles(&[&[t(5), t(3)]]);
        assert_eq!(tiled.memory_image(), image);
        // f32[10,20] padded to [15,21]: 1260 bytes.
        assert_eq!(RefLayout::new(&[10, 20], &[1, 0]).with_padding(&[15, 21]).byte_size(0, 4), 1260);
    }
}
