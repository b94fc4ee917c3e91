//! Running a relayout whose layouts are checked: [`run`] for views of any layout types, one function for each
//! element type below it ([`untyped`]).
//!
//! Below the layouts' types the relayout is the same work for a static pair (`layout!` types), a runtime one
//! (`&Geometry`) and a [`Prepared`](super::Prepared) one: a block copy, the loop nests with their kernels, or
//! tables of offsets ([`body`], asking the layouts through [`Layouts`]). On x86-64, for arrays of
//! [`ONE_FRAME_BYTES`] or more, [`untyped`] runs it for all of them, so that from one caller the kernels' frames
//! lie at one place whatever the layouts' types. A process runs a kernel 5-25% slower or faster by where its
//! frames fall (different places in different processes: the pages' places in physical memory, it seems), and
//! with each pair's own frames in between (a runtime plan's room in one path, none in the other), the static and
//! the runtime path called the kernels 2.6 to 18 KiB apart: the `rt/st` dips of `relayout_sweep` (0.86-0.94, a
//! pair or two in half the runs, Intel Xeon). Smaller arrays, and every array elsewhere, go through [`typed`],
//! [`body`] for the pair's types: a static pair's nests, padding and dimensions are then constants (through
//! [`untyped`] a static relayout of 256 bytes to 4 KiB took 8-16% longer). Both are calls of their own, so that
//! [`run`], inlined into the caller, adds nothing to its frame.

use super::{execute, kernels, plan, staging, tables, Axes, Io, Region};
use crate::view::{fill_padding_before_writing, Scalar, View, ViewLayout, ViewMut};
use crate::Offsets;

/// Copies every element of `src` into `dst` and writes `dst`'s padding value into its padding slots, the layouts
/// checked against each other; `known`: the loop nests when the caller has them (a [`Prepared`](super::Prepared)
/// relayout: `Some(None)` when the digits do not nest), else worked out here; `grain`: the nests'
/// [`grain`](super::nest::grain) over the whole array when known.
pub(super) fn run<Src: ViewLayout, Dst: ViewLayout, E: Scalar>(
    src: &View<'_, Src, E>,
    dst: &mut ViewMut<'_, Dst, E>,
    known: Option<Option<&Axes>>,
    grain: Option<usize>,
) {
    let layouts = Typed { src: src.layout, dst: dst.layout, known };
    // Both branches are calls, so that this frame (the caller's, where this is inlined) holds neither's locals.
    if cfg!(target_arch = "x86_64") && core::mem::size_of_val(dst.data) >= ONE_FRAME_BYTES {
        untyped(src.data, dst.data, &layouts, grain);
    } else {
        typed(src.data, dst.data, &layouts, grain);
    }
}

/// Destinations of at least this many bytes go through [`untyped`] on x86-64: past every first-level cache, and
/// at least 10 us of work, of which the calls through `dyn` and the nests not known at compile time take
/// about 30 ns.
const ONE_FRAME_BYTES: usize = 128 << 10;

/// What [`untyped`] asks of the two layouts of a relayout.
trait Layouts<E> {
    /// Whether both have the same shape and the destination no padding: the relayout is one block copy.
    fn one_copy(&self) -> bool;
    /// The destination's padding value, where it has padding slots.
    fn pad(&self) -> Option<E>;
    /// Every index of the dimensions.
    fn whole(&self) -> Region;
    /// The loop nests of the relayout, built in `room` where the caller did not have them; `None` when the
    /// digits of the two layouts do not nest.
    fn nests<'a>(&'a self, room: &'a mut Option<Axes>) -> Option<&'a Axes>;
    /// Writes the padding value into every padding slot of `dst`, a view of the destination layout.
    fn fill_padding(&self, dst: &mut [E]);
    /// Without loop nests: tile by tile through tables of offsets, else element by element (the padding
    /// already written).
    fn without_nests(&self, src: &[E], dst: &mut [E]);
}

/// Two layouts of types `Src` and `Dst`, and the loop nests if the caller has them.
struct Typed<'p, Src, Dst> {
    src: Src,
    dst: Dst,
    known: Option<Option<&'p Axes>>,
}

impl<Src: ViewLayout, Dst: ViewLayout, E: Scalar> Layouts<E> for Typed<'_, Src, Dst> {
    fn one_copy(&self) -> bool {
        self.src.shape() == self.dst.shape() && self.dst.storage_elements() == self.dst.element_count()
    }

    fn pad(&self) -> Option<E> {
        let ld = self.dst;
        (ld.storage_elements() != ld.element_count()).then(|| E::from_scalar_bits(ld.padding_pattern()))
    }

    fn whole(&self) -> Region {
        Region::whole(self.dst.dims())
    }

    fn nests<'a>(&'a self, room: &'a mut Option<Axes>) -> Option<&'a Axes> {
        match self.known {
            Some(known) => known,
            None => plan(&self.src, &self.dst, room),
        }
    }

    fn fill_padding(&self, dst: &mut [E]) {
        fill_padding_before_writing(&mut ViewMut { layout: self.dst, data: dst });
    }

    fn without_nests(&self, src: &[E], dst: &mut [E]) {
        let (src, mut dst) = (View { layout: self.src, data: src }, ViewMut { layout: self.dst, data: dst });
        if !tables::relayout(&src, &mut dst) {
            general(&src, &mut dst);
        }
    }
}

/// [`body`] for the layouts' types.
#[inline(never)]
fn typed<E: Scalar, L: Layouts<E>>(src: &[E], dst: &mut [E], layouts: &L, grain: Option<usize>) {
    body(src, dst, layouts, grain, &mut None);
}

/// [`body`] below the layouts' types: one function for each element type, whatever the layouts, whose frame
/// holds the room of a runtime plan for every pair (the module's note).
#[inline(never)]
fn untyped<E: Scalar>(src: &[E], dst: &mut [E], layouts: &dyn Layouts<E>, grain: Option<usize>) {
    body(src, dst, layouts, grain, &mut None);
}

/// The relayout of `src` into `dst` of the two `layouts`: one block copy, the loop nests (`grain` as in [`run`];
/// a runtime plan's built in `room`), or without them.
#[inline(always)]
fn body<E: Scalar, L: Layouts<E> + ?Sized>(
    src: &[E],
    dst: &mut [E],
    layouts: &L,
    grain: Option<usize>,
    room: &mut Option<Axes>,
) {
    let stream = kernels::stream_worthwhile(core::mem::size_of_val(dst));
    if layouts.one_copy() {
        kernels::copy(dst, src, stream);
    } else {
        match layouts.nests(room) {
            Some(axes) => {
                // The whole array: every slot not an index's is padding, which the staged bands write with the
                // rest (those before `end`); the padding is filled first where they do not.
                let pad = layouts.pad();
                let region = layouts.whole();
                let io = Io { src, src_base: 0, dst: &mut *dst, dst_base: 0, stream, pad };
                let end = staging::stages_padding(axes, &region, &io, grain);
                match (end, pad) {
                    (Some(end), Some(pad)) => {
                        if let Some(rest) = dst.get_mut(end..) {
                            crate::view::fill(rest, pad);
                        }
                    }
                    _ => layouts.fill_padding(dst),
                }
                let mut io = Io { src, src_base: 0, dst, dst_base: 0, stream, pad };
                execute(axes, &region, &mut io, grain);
            }
            None => {
                layouts.fill_padding(dst);
                layouts.without_nests(src, dst);
            }
        }
    }
    kernels::finish(stream);
}

/// Element by element, both offsets advancing incrementally in logical order.
fn general<Src: ViewLayout, Dst: ViewLayout, E: Scalar>(src: &View<'_, Src, E>, dst: &mut ViewMut<'_, Dst, E>) {
    if let (Ok(from), Ok(to)) = (Offsets::new(src.layout.shape()), Offsets::new(dst.layout.shape())) {
        for (a, b) in from.zip(to) {
            if let (Some(&x), Some(y)) = (src.data.get(a), dst.data.get_mut(b)) {
                *y = x;
            }
        }
    }
}
