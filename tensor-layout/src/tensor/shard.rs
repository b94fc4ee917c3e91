//! Safe parallel partitions: [`TensorMut::partition`] splits a mutable tensor among the threads of a thread
//! layout, each thread's share (CuTe's `local_partition`) a `Send` [`Shard`], with no atomics and no `unsafe`
//! in user code.
//!
//! The shares interleave in memory, so they cannot be cut with `split_at_mut`; instead the partition proves that
//! they are disjoint before it hands them out, and each shard holds a pointer into the storage it borrows
//! mutably. The proof, for a tensor of layout `L` split by the thread layout `T`:
//!
//! 1. `P = zipped_divide(L, shape(T))` is [injective](crate::cute::Layout::is_injective) (checked on `P`
//!    itself, so whatever the divide does at the edges is covered): distinct coordinates of `P`, distinct
//!    offsets.
//! 2. `T` is a bijection onto `0..size(T)`, so the threads' coordinates in `T` (`get_flat_coord`) are distinct:
//!    thread `t` owns the coordinates `(c_t, r)` of `P`, and no two threads share one.
//! 3. The base plus `P`'s cosize lies inside the storage, as for every tensor.
//!
//! For static layouts every check is a constant, so a partition that cannot be proven does not compile.

#![allow(unsafe_code)]

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::coordinate::Coordinate;
use super::error::TensorError;
use super::layout::TensorLayout;
use super::layouts::{ConstLayout, ConstTiler, ShapeOf, ZippedDivide};
use super::ops::{partition_base, tile_base, LocalPartition, LocalTile};
use super::TensorMut;

/// Why a partition of `L` by `Thr` cannot be proven disjoint, computed by rustc.
struct Proof<L, Thr>(PhantomData<fn() -> (L, Thr)>);

impl<L: ConstLayout, Thr: ConstLayout> Proof<L, Thr> {
    const REFUSAL: Option<TensorError> = {
        let p = <ZippedDivide<L, ShapeOf<Thr>> as ConstLayout>::LAYOUT;
        let t = Thr::LAYOUT;
        if let Some((mode, span)) = p.overlap() {
            Some(TensorError::Overlap { mode, span })
        } else if !t.is_bijective() {
            Some(TensorError::Threads { size: t.size(), cosize: t.cosize() })
        } else {
            None
        }
    };
}

/// One thread's share of a mutable tensor ([`TensorMut::partition`]): element `c` is the storage element at
/// `base + layout(c)`, which no other shard of the partition reaches. `Send` when the elements are.
///
/// ```
/// use tensor_layout::cute::TensorMut;
/// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
/// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
/// let mut data = [0u32; 32];
/// let mut t = TensorMut::new(A::default(), &mut data)?;
/// std::thread::scope(|s| {
///     for (thread, mut shard) in t.partition::<Threads>().unwrap().enumerate() {
///         s.spawn(move || {
///             for i in 0..shard.size() {
///                 shard[i] = thread as u32;
///             }
///         });
///     }
/// });
/// assert_eq!(&data[..8], &[0, 1, 2, 3, 0, 1, 2, 3]); // row 0: threads 0..4 in turn
/// assert_eq!(&data[8..12], &[4, 5, 6, 7]);            // row 1: threads 4..8
/// # Ok::<(), tensor_layout::cute::TensorError>(())
/// ```
pub struct Shard<'a, L, E> {
    layout: L,
    base: usize,
    data: NonNull<E>,
    len: usize,
    borrow: PhantomData<&'a mut [E]>,
}

// SAFETY: a shard hands out `&E` and `&mut E` to the elements of its own offsets only, which no other shard of its
// partition reaches (the module's proof), within a mutable borrow of the storage that lives as long as the shard;
// moving one to another thread is moving a `&mut` to those elements, which is `Send` when `E` is.
unsafe impl<L: Send, E: Send> Send for Shard<'_, L, E> {}
// SAFETY: `&Shard` gives shared access to its elements only (`get`, `Index`): `Sync` when `E` is.
unsafe impl<L: Sync, E: Sync> Sync for Shard<'_, L, E> {}

impl<L: core::fmt::Debug, E> core::fmt::Debug for Shard<'_, L, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Shard").field("layout", &self.layout).field("base", &self.base).finish()
    }
}

impl<L: TensorLayout, E> Shard<'_, L, E> {
    /// The number of elements.
    ///
    /// ```
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
    /// let mut data = [0u32; 32];
    /// let mut t = TensorMut::new(A::default(), &mut data)?;
    /// assert!(t.partition::<Threads>()?.all(|s| s.size() == 4));
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// The storage offset of coordinate `c`; `None` outside the shape.
    ///
    /// ```
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
    /// let mut data = [0u32; 32];
    /// let mut t = TensorMut::new(A::default(), &mut data)?;
    /// let offsets: Vec<_> = t.partition::<Threads>()?.nth(5).map(|s| (0..4).map(|i| s.offset(i).unwrap()).collect()).unwrap();
    /// assert_eq!(offsets, [9, 25, 13, 29]);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn offset<C: Coordinate>(&self, c: C) -> Option<usize> {
        Some(self.base + self.layout.offset_of(c)?)
    }

    /// The element at coordinate `c`; `None` outside the shape.
    ///
    /// ```
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
    /// let mut data: Vec<u32> = (0..32).collect();
    /// let mut t = TensorMut::new(A::default(), &mut data)?;
    /// let shard = t.partition::<Threads>()?.nth(5).unwrap();
    /// assert_eq!(shard.get((1, 1)), Some(&29));
    /// assert_eq!(shard.get((2, 0)), None);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn get<C: Coordinate>(&self, c: C) -> Option<&E> {
        let at = self.offset(c)?;
        debug_assert!(at < self.len);
        // SAFETY: `at` is below `base + reach <= len` (checked by `partition`), so it lies in the storage the
        // shard borrows; no other shard reaches it (the module's proof), so no `&mut` to it exists elsewhere.
        Some(unsafe { &*self.data.as_ptr().add(at) })
    }

    /// The element at coordinate `c`, mutable; `None` outside the shape.
    ///
    /// ```
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
    /// let mut data = [0u32; 32];
    /// let mut t = TensorMut::new(A::default(), &mut data)?;
    /// *t.partition::<Threads>()?.nth(5).unwrap().get_mut((1, 1)).unwrap() = 1;
    /// assert_eq!(data[29], 1);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn get_mut<C: Coordinate>(&mut self, c: C) -> Option<&mut E> {
        let at = self.offset(c)?;
        debug_assert!(at < self.len);
        // SAFETY: as in `get`; `&mut self` makes this the only reference the shard hands out.
        Some(unsafe { &mut *self.data.as_ptr().add(at) })
    }
}

/// Whether the tiles of `T` cover `L`'s coordinates one-to-one (`zipped_divide` of `L`'s index space by `T` is
/// a bijection onto it): then a tile's elements are elements of `L`, and a tile of a shard stays in its share.
struct Covers<L, T>(PhantomData<fn() -> (L, T)>);

impl<L: ConstLayout, T: ConstTiler> Covers<L, T> {
    const EXACTLY: bool = match tensor_layout_core::cute::Layout::column_major(&L::LAYOUT.shape()) {
        Ok(index) => match index.zipped_divide(&T::TILER) {
            Ok(z) => z.size() == index.size() && z.is_bijective(),
            Err(_) => false,
        },
        Err(_) => false,
    };
}

impl<L: ConstLayout, E> Shard<'_, L, E> {
    /// [`Tensor::local_tile`](super::Tensor::local_tile) of the shard: a tile of the thread's share, itself a
    /// shard. The tiler must divide the share's shape (so a tile reaches the share's elements only): otherwise
    /// a compile error, after monomorphization.
    ///
    /// ```
    /// use tensor_layout::cute::{ByMode, Extent, TensorMut};
    /// tensor_layout::cute_layout!(A = "(8,8):(8,1)");
    /// tensor_layout::cute_layout!(Rows = "(2,1):(1,0)"); // two threads: even rows, odd rows
    /// let mut data = [0u32; 64];
    /// let mut t = TensorMut::new(A::default(), &mut data)?;
    /// let mut odd = t.partition::<Rows>()?.nth(1).unwrap(); // rows 1, 3, 5, 7
    /// odd.local_tile_mut::<ByMode<(Extent<2>, Extent<4>)>, _>((1, 1))?[(0, 0)] = 1; // row 5, column 4
    /// assert_eq!(data[5 * 8 + 4], 1);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn local_tile_mut<T: ConstTiler, C: Coordinate>(
        &mut self,
        coord: C,
    ) -> Result<Shard<'_, LocalTile<L, T>, E>, TensorError> {
        const {
            assert!(
                Covers::<L, T>::EXACTLY,
                "the tiler does not divide the shard's shape: a tile could reach elements of another thread's share"
            )
        };
        let base = self.base + tile_base::<L, T, C>(coord)?;
        let layout = LocalTile::<L, T>::default();
        let needed =
            base.checked_add(layout.reach()).ok_or(TensorError::Cute(tensor_layout_core::cute::CuteError::Overflow))?;
        if needed > self.len {
            return Err(TensorError::StorageTooSmall { needed, storage: self.len });
        }
        // The tile's offsets are offsets of this shard's layout (a tile of it), so they stay in its share.
        Ok(Shard { layout, base, data: self.data, len: self.len, borrow: PhantomData })
    }
}

/// The shards of a partition, thread by thread ([`TensorMut::partition`]).
///
/// ```
/// use tensor_layout::cute::TensorMut;
/// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
/// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
/// let mut data = [0u32; 32];
/// assert_eq!(TensorMut::new(A::default(), &mut data)?.partition::<Threads>()?.len(), 8);
/// # Ok::<(), tensor_layout::cute::TensorError>(())
/// ```
pub struct Shards<'a, L, Thr, E> {
    base: usize,
    data: NonNull<E>,
    len: usize,
    next: usize,
    threads: usize,
    borrow: PhantomData<&'a mut [E]>,
    layouts: PhantomData<fn() -> (L, Thr)>,
}

impl<'a, L: ConstLayout, Thr: ConstLayout, E> Iterator for Shards<'a, L, Thr, E> {
    type Item = Shard<'a, LocalPartition<L, Thr>, E>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.threads {
            return None;
        }
        let thread = self.next;
        self.next += 1;
        // Each thread is visited once, so each shard is handed out once.
        let base = self.base + partition_base::<L, Thr>(thread).ok()?;
        Some(Shard {
            layout: LocalPartition::<L, Thr>::default(),
            base,
            data: self.data,
            len: self.len,
            borrow: PhantomData,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.threads - self.next;
        (n, Some(n))
    }
}

impl<L: ConstLayout, Thr: ConstLayout, E> ExactSizeIterator for Shards<'_, L, Thr, E> {}

impl<'a, L: ConstLayout, E> TensorMut<'a, L, E> {
    /// Splits the tensor among the threads of the thread layout `Thr`: thread `t`'s [`Shard`] is its
    /// [`local_partition`](super::Tensor::local_partition), and the shards are proven disjoint (module
    /// documentation), so each can move to its own thread. For static layouts the proof is computed by rustc: a
    /// partition that cannot be proven is a compile error (after monomorphization, so in `cargo build`) naming
    /// the mode that overlaps or the thread layout that is not a bijection.
    ///
    /// ```
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(Tile = "(8,128):(128,1)");
    /// tensor_layout::cute_layout!(Rows = "(4,1):(1,0)"); // four threads, a row band each (rows t, t+4)
    /// let mut data = vec![0.0f32; 1024];
    /// let mut t = TensorMut::new(Tile::default(), &mut data)?;
    /// std::thread::scope(|s| {
    ///     for (thread, mut shard) in t.partition::<Rows>().unwrap().enumerate() {
    ///         s.spawn(move || {
    ///             for r in 0..2 {
    ///                 for c in 0..128 {
    ///                     shard[(r, c)] = (4 * r + thread) as f32; // the row this element is on
    ///                 }
    ///             }
    ///         });
    ///     }
    /// });
    /// assert!((0..8).all(|r| data[128 * r..128 * (r + 1)].iter().all(|&x| x == r as f32)));
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    ///
    /// ```compile_fail
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(Broadcast = "(4,8):(0,1)"); // every row is the same storage
    /// tensor_layout::cute_layout!(Rows = "(4,1):(1,0)");
    /// let mut data = [0.0f32; 8];
    /// // error[E0080]: ... cannot prove the partition disjoint: mode `4:0` ...
    /// let _ = TensorMut::new(Broadcast::default(), &mut data).unwrap().partition::<Rows>();
    /// ```
    pub fn partition<Thr: ConstLayout>(&mut self) -> Result<Shards<'_, L, Thr, E>, TensorError> {
        const {
            if let Some(e) = Proof::<L, Thr>::REFUSAL {
                refuse(e)
            }
        };
        let p = <ZippedDivide<L, ShapeOf<Thr>> as ConstLayout>::LAYOUT;
        let needed = self
            .base
            .checked_add(p.cosize())
            .ok_or(TensorError::Cute(tensor_layout_core::cute::CuteError::Overflow))?;
        if needed > self.data.len() {
            return Err(TensorError::StorageTooSmall { needed, storage: self.data.len() });
        }
        let len = self.data.len();
        Ok(Shards {
            base: self.base,
            data: NonNull::from(&mut *self.data).cast(),
            len,
            next: 0,
            threads: Thr::LAYOUT.size(),
            borrow: PhantomData,
            layouts: PhantomData,
        })
    }
}

/// A partition refused at compile time, with the error's words.
#[track_caller]
const fn refuse(e: TensorError) -> ! {
    match e {
        TensorError::Overlap { .. } => panic!(
            "cannot prove the partition disjoint: a mode of the divided layout starts inside the span of the modes \
             before it, so two threads could write one element"
        ),
        _ => panic!("the thread layout is not a bijection onto 0..size: two threads would share elements"),
    }
}
