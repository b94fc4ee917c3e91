//! The caches of the CPU, as it reports them, and the sizes the kernels choose from them.
//!
//! CPUID describes every cache level: leaf 4 on Intel, leaf `0x8000_001D` on AMD (with the topology extensions;
//! before them, AMD's leaves `0x8000_0005` and `0x8000_0006`). Each descriptor gives ways, partitions, line size
//! and sets, whose product is the size. The caches are read once, at the first relayout, and kept in atomics (no
//! `std` needed). Under Miri, which runs no CPUID, and on a CPU that reports nothing usable, [`FALLBACK`] stands
//! in.
//!
//! What is chosen from them:
//! - the scratch tile of the transposes ([`Caches::scratch`]): a quarter of the second-level cache, so that the
//!   tile stays there with the lines in flight on both sides, at most the buffer on the stack;
//! - how far ahead the kernels prefetch ([`Caches::prefetch`]): a sixteenth of the first-level cache, so that
//!   the prefetched lines are still there when they are read;
//! - how many source rows a band of a transpose's tiles reads at once ([`Caches::band_rows`]), and whether the
//!   next band is prefetched into the second level while one is read ([`Caches::bands_ahead`]);
//! - up to which size a block of short source rows is prefetched as one stream ([`Caches::short_block`]);
//! - from which size a relayout writes with streaming stores ([`Caches::stream_from`]): a quarter of the last
//!   level, the rule of glibc's `memcpy` (2.38 on), but at most [`STREAM_MAX`]: below it source and destination
//!   stay in the cache, and ordinary stores leave the destination there for whoever reads it next.

use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// The sizes of the caches of one core, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Caches {
    /// The first-level data cache.
    pub(crate) l1: usize,
    /// Its ways: lines whose addresses are a multiple of `l1 / ways` apart share a set.
    pub(crate) l1_ways: usize,
    /// The second-level cache.
    pub(crate) l2: usize,
    /// Its ways: lines whose addresses are a multiple of `l2 / l2_ways` apart share a set.
    pub(crate) l2_ways: usize,
    /// The last level (the third, or the second where there is no third).
    pub(crate) last: usize,
    /// Whether the CPU is AMD's (CPUID's vendor `AuthenticAMD`): its prefetchers want a transpose's long rows
    /// taken a band ahead into the second level whatever its first level ([`Caches::bands_ahead`]).
    pub(crate) amd: bool,
}

/// What a CPU that reports nothing usable is taken to have: the smallest of the x86-64 server and desktop cores
/// of the last ten years.
pub(crate) const FALLBACK: Caches =
    Caches { l1: 32 << 10, l1_ways: 8, l2: 256 << 10, l2_ways: 4, last: 8 << 20, amd: false };

/// The largest scratch tile (bytes): the buffer the transposes keep on the stack.
pub(crate) const SCRATCH_MAX: usize = 256 << 10;

/// Destinations below this many bytes are never streamed, whatever the caches.
const STREAM_MIN: usize = 4 << 20;

/// Destinations of this many bytes are streamed, whatever the caches. `memcpy` need not stream below a quarter
/// of the last level: on Intel CPUs its `rep movsb` writes whole lines without reading them first. A relayout's
/// ordinary stores read every line they write, and a transpose's scattered stores wait for those reads: on an
/// Intel Xeon reporting a 300 MiB last level (a whole socket's, shared with the other tenants), transposes of
/// 64 MiB written with ordinary stores ran at 0.35-0.48 of `memcpy`, streamed at 0.57-1.15. Transposes and
/// packing into tiles ran faster streamed at every size measured, 4 to 64 MiB, on that Xeon (f32 `[512,4096]`
/// transposed: 0.27 of `memcpy` with ordinary stores, 0.62 streamed) and on an AMD EPYC Zen 4 (0.31 and 0.56).
pub(crate) const STREAM_MAX: usize = 8 << 20;

impl Caches {
    /// The caches of this CPU (read once; later calls are two loads).
    #[inline]
    pub(crate) fn get() -> Caches {
        #[cfg(all(test, feature = "std"))]
        if let Some(c) = OVERRIDE.with(|o| o.get()) {
            return c;
        }
        let c = Caches {
            l1: L1.load(Relaxed),
            l1_ways: WAYS.load(Relaxed),
            l2: L2.load(Relaxed),
            l2_ways: WAYS2.load(Relaxed),
            last: LAST.load(Relaxed),
            amd: AMD.load(Relaxed),
        };
        if c.l1 != 0 {
            return c;
        }
        let c = read().sane();
        // Racing first calls store the same values.
        WAYS.store(c.l1_ways, Relaxed);
        L2.store(c.l2, Relaxed);
        WAYS2.store(c.l2_ways, Relaxed);
        LAST.store(c.last, Relaxed);
        AMD.store(c.amd, Relaxed);
        L1.store(c.l1, Relaxed);
        c
    }

    /// Every level within reason (a hypervisor may report zeros, or nothing at all), each at least the level
    /// below it.
    fn sane(self) -> Caches {
        let pick = |x: usize, lo: usize, hi: usize, fallback: usize| if (lo..=hi).contains(&x) { x } else { fallback };
        let l1 = pick(self.l1, 8 << 10, 1 << 20, FALLBACK.l1);
        let l1_ways = pick(self.l1_ways, 2, 64, FALLBACK.l1_ways);
        let l2 = pick(self.l2, 64 << 10, 64 << 20, FALLBACK.l2).max(l1);
        let l2_ways = pick(self.l2_ways, 2, 64, FALLBACK.l2_ways);
        let last = pick(self.last, 64 << 10, 4 << 30, FALLBACK.last.max(l2)).max(l2);
        Caches { l1, l1_ways, l2, l2_ways, last, amd: self.amd }
    }

    /// Bytes of the scratch tile of a transpose: a quarter of the second-level cache, between 32 KiB and
    /// [`SCRATCH_MAX`] (8 KiB under Miri, whose cases are small: tests/miri.rs).
    pub(crate) const fn scratch(&self) -> usize {
        if cfg!(miri) {
            return 8 << 10;
        }
        let s = self.l2 / 4;
        if s < 32 << 10 {
            32 << 10
        } else if s > SCRATCH_MAX {
            SCRATCH_MAX
        } else {
            s
        }
    }

    /// How many bytes ahead of their reads the kernels prefetch: a sixteenth of the first-level cache, between
    /// 1 and 4 KiB (memory latency times bandwidth is about 2 KiB on one core; on an AMD EPYC with a 32 KiB L1,
    /// untiling ran at 0.8 of `memcpy` prefetching 2 KiB ahead, at 0.7 prefetching 4 KiB ahead).
    pub(crate) const fn prefetch(&self) -> usize {
        let p = self.l1 / 16;
        if p < 1 << 10 {
            1 << 10
        } else if p > 4 << 10 {
            4 << 10
        } else {
            p
        }
    }

    /// The most bytes of a block of source rows that follow one another (short rows read together, a group of a
    /// `(2,1)` or `(4,1)` tile's rows) that the kernels prefetch as one stream, the next block while one is read:
    /// half the first-level cache, room for both. The hardware prefetchers start a stream per row and lose it at
    /// the row's end: packing bf16 rows of 1 KiB into `(16,128)(2,1)` tiles ran at 0.47-0.51 of `memcpy` with each
    /// row prefetched ahead on its own, 0.90-0.92 so, u8 rows of 1 KiB into `(32,128)(4,1)` 0.48-0.52 and
    /// 0.79-0.84 (AMD EPYC Zen 4); with blocks of 32 KiB and more, no faster than row by row, at 64 KiB slower.
    pub(crate) const fn short_block(&self) -> usize {
        self.l1 / 2
    }

    /// The most source rows of `w`-byte units a band of a transpose's tiles reads at once (a band fills whole
    /// 64-byte lines of the scratch rows when this allows: `64 / w` rows). With a first-level cache of 48 KiB or
    /// more, whole lines whatever the units: on an Intel Xeon (48 KiB, 12 ways) byte, bf16 and f32 transposes ran
    /// 15-40% faster so. Below it, as many rows as the cache has ways (rows a multiple of 4 KiB apart share a
    /// set), but at least half a line of each scratch row (`32 / w` rows): on an AMD EPYC Zen 4 (32 KiB, 8 ways)
    /// bands of whole lines ran f32 transposes 10-15% slower within the caches than half lines, at the same speed
    /// from memory, while bands of a quarter line (8 bf16 rows, 16 byte rows) ran byte and bf16 transposes within
    /// the caches at 0.65-0.9 of the speed of half lines.
    pub(crate) const fn band_rows(&self, w: usize) -> usize {
        if self.large_first_level() {
            64
        } else if self.l1_ways < 32 / w {
            32 / w
        } else {
            self.l1_ways
        }
    }

    /// Whether the tiles of a transpose of `w`-byte units whose source rows are `row` bytes long prefetch the source
    /// a band ahead, into the second-level cache, row by row and a share at each step of the band before, rather
    /// than each row of the band being read the prefetch distance ahead, into the first level: with a first-level
    /// cache under 48 KiB, and on AMD's CPUs for units of 2 and 4 bytes and rows of a first-level way (4 KiB) or
    /// more. Rows of a band a multiple of 4 KiB apart share a set of the first level, where 8 ways hold few of
    /// their prefetched lines; the second level takes the next band whole, read in order along each row. On an AMD
    /// EPYC Zen 4 (32 KiB, 8 ways) the 27 transposes of the sweep ran 12% faster so (geometric mean, three runs
    /// alternating): f32 `{0,1:T(8,128)}` to `{1,0}` at 0.80 of `memcpy` against 0.48, bf16 `(8,128)(2,1)` tiles
    /// transposed 0.77 against 0.60, f32 `[2048,512,16]` to `{2,0,1}` 0.92 against 0.74, u8 transposes 0.62
    /// against 0.52. On an Intel Xeon (48 KiB, 12 ways) 5% slower (u8 into `{0,1:T(8,128)(4,1)}` 0.69 against
    /// 0.81): its bands keep the first level's. On an AMD EPYC Zen 5 (48 KiB, 12 ways, 1 MiB L2), rule switched in
    /// one build, three runs of the sweep alternating: f32 `[3000,5000]` transposed 0.57-0.61 -> 0.64-0.70, f32 into
    /// `{0,1:T(8,128)}` 0.65 -> 0.72 (pairs' medians); with every row a band ahead, batches of short rows ran slower
    /// (u8 `[4096,128,128]` to `{1,2,0}` 0.82 -> 0.64, f32 `[4096,64,64]` 0.90 -> 0.77), and byte units gained
    /// nothing (u8 `[7000,9000]` transposed 0.44-0.55 either way). Nor did 8-byte units, whose tiles ran faster
    /// reading each row ahead into the first level (the rule switched for them by an environment variable in one
    /// build, three rounds alternating, medians): f64 `[2000,4000]` transposed 0.67 -> 0.78, `[2800,3000]` 0.66 ->
    /// 0.74, `[3000,2898]` 0.67 -> 0.76, `[1000,8000]` 0.66 -> 0.71, `[300,27600]` 0.51 -> 0.63, back from
    /// `[27595,304]{0,1}` 0.49 -> 0.74, batches `[50,600,280]` to `{1,2,0}` 0.70 -> 0.79, into `{0,1:T(8,128)}`
    /// from `[10873,771]` 0.48 -> 0.55; within the noise `[2048,4096]` 0.70 and 0.68, `[256,256,128]` to `{0,1,2}`
    /// 0.63 and 0.60, `[4096,128,16]` 0.62 and 0.60. 16-byte units, not measured, go as 8-byte ones do.
    pub(crate) const fn bands_ahead(&self, row: usize, w: usize) -> bool {
        !self.large_first_level() || (self.amd && (w == 2 || w == 4) && row >= self.l1_way())
    }

    /// Whether the deinterleaves of row pairs (untiling `(2,1)` tiles) into a streamed destination write each
    /// destination row's piece of a chunk through a stage in the first level, streamed out in whole lines with the
    /// partial line at its end carried to the next piece, rather than straight with ordinary stores: on AMD's CPUs
    /// with a first-level cache of 48 KiB or more. On an AMD EPYC Zen 5 (48 KiB, 12 ways), the rule switched in one
    /// build, four runs alternating, medians: bf16 `[4096,8192]{1,0:T(8,128)(2,1)}` to `{1,0}` 0.61 of `memcpy` ->
    /// 0.90, `[5000,6600]` 0.59 -> 0.73; the quads of `(4,1)` tiles so ran 5% slower (u8 `[8192,8192]` 0.60 ->
    /// 0.57), and keep ordinary stores. On an Intel Xeon, gathered into long runs and streamed, bf16 `(2,1)`
    /// untiling ran at 0.61 of `memcpy` against 0.90 with ordinary stores, and on an AMD EPYC Zen 4 erratically
    /// (`zip::deinterleave`): both keep them. Under Miri too, whose caches are [`FALLBACK`]'s, so that its tests
    /// (tests/miri.rs) run the path.
    pub(crate) const fn carries_pairs(&self) -> bool {
        self.amd_large_first_level() || cfg!(miri)
    }

    /// Whether transposes larger than the scratch tile whose destination rows follow one another off lines go
    /// through it whole in groups of destination rows (`whole::groups`), rather than tile by tile, each
    /// destination row written in pieces carried from one tile to the next: on AMD's CPUs with a first-level cache
    /// of 48 KiB or more (measured on an AMD EPYC Zen 5: `whole` says what). On an Intel Xeon whole blocks of 237 KB
    /// ran slower than the tiles (`whole::WHOLE_MAX`): it keeps them, as Zen 4 does, not measured. Under Miri too,
    /// whose caches are [`FALLBACK`]'s, so that its tests (tests/miri.rs) run the path.
    pub(crate) const fn whole_groups(&self) -> bool {
        self.amd_large_first_level() || cfg!(miri)
    }

    /// Whether bands of lines (`lines`) take a transpose of `w`-byte units whose source rows lie a multiple of 64
    /// bytes apart: not 8-byte units on AMD's CPUs with a first-level cache of 48 KiB or more, which go through the
    /// tiles. On an AMD EPYC Zen 5 the bands ran f64 transposes from such rows at half the tiles' speed, and from
    /// rows off lines at up to 1.5 times it. The rule switched by an environment variable in one build, three rounds
    /// alternating, medians: f64 `[3000,2896]` and `[3000,2904]` transposed 0.48 of `memcpy` -> 0.69 and 0.53,
    /// `[4000,4200]` 0.37 -> 0.69, `[4200,4000]` 0.46 -> 0.73, `[5000,1600]` 0.44 -> 0.65, `[65536,128]` 0.52 ->
    /// 0.75, `[40000,200]` 0.68 -> 0.81, batches `[50,600,280]{2,1,0}` to `{1,2,0}` 0.34 -> 0.68, `[64,400,328]` 0.31
    /// -> 0.63, `[200,600,128]` 0.60 -> 0.74; `[2048,4096]` and `[8,1000,1000]` the same either way. Rows 8, 32 and
    /// 40 bytes off lines keep the bands, which ran them faster than the tiles (`[3000,2897]`, `[3000,2900]`,
    /// `[3000,2901]`, `[5000,1604]` at 0.86-1.06 against 0.60-0.67); so do 4-byte units, which the bands ran as fast
    /// as the tiles from rows on lines (f32 `[3000,5008]`, `[4096,4096]`). The Xeon and Zen 4 keep their bands, not
    /// measured so.
    pub(crate) const fn bands_on_lines(&self, w: usize) -> bool {
        w != 8 || !self.amd_large_first_level()
    }

    /// Whether the first level's tiles of a transpose (`l1tiles`) take source rows that lie a multiple of a way of
    /// the second level apart, which share its sets (pow2 3-D reversals, transposes of rows of 64 KiB): on AMD's
    /// CPUs with a first-level cache of 48 KiB or more. There the alternatives (bands of lines, the second level's
    /// tiles) lose more to the shared sets than these tiles: on an AMD EPYC Zen 5 (1 MiB L2 of 16 ways: 64 KiB
    /// ways), the rule switched in one build, two rounds alternating, f32 `[256,256,256]` to `{0,1,2}` 0.31-0.34 of
    /// `memcpy` -> 0.48, to `{0,2,1}` 0.32-0.38 -> 0.41-0.46, f32 `[1024,128,128]` to `{0,1,2}` 0.30-0.32 -> 0.41-0.46,
    /// u8 `[1024,65536]` transposed 0.21 -> 0.31-0.35, bf16 `[256,131072]` 0.29-0.32 -> 0.31-0.33. The Xeon and Zen
    /// 4 ran such rows faster through the second level's tiles (`l1tiles::start` says what was measured): theirs
    /// keep them.
    pub(crate) const fn l1_tiles_a_way_apart(&self) -> bool {
        self.amd_large_first_level()
    }

    /// Whether a transpose of 4-byte units whose source rows of `row` bytes lie evenly apart on lines goes in bands
    /// of lines (`lines`) where those take it, rather than through the first level's tiles (`l1tiles`): with a
    /// first-level cache of 48 KiB or more, for rows longer than 4 KiB whose bands (32 rows) fill at most a quarter
    /// of the second level (rows of up to 16 KiB with 2 MiB). On an Intel Xeon (Emerald Rapids: 48 KiB, 12 ways; 2
    /// MiB of L2), base and new alternating, two rounds: f32 `[4096,4096]` transposed at 0.98-1.04 of `memcpy` ->
    /// 1.29-1.36, `[8192,2048]` 0.99-1.03 -> 1.32-1.35, `[4000,4096]` 0.97-1.02 -> 1.25-1.34, `[6000,2800]` 1.06-1.07
    /// -> 1.25-1.26, batches `[4,2048,2048]{2,1,0}` to `{1,2,0}` 0.96-1.00 -> 1.29-1.33. Longer rows gained less or
    /// lost (`[2048,8192]`, 32 KiB: 1.01-1.04 -> 1.05-1.06; `[3000,6000]` and `[1500,12000]` the same; `[1024,16384]`
    /// 0.99-1.00 -> 0.88; `[896,18688]` 0.98-1.00 -> 0.72-0.75), and so did rows off lines (`[8192,1500]`, rows of
    /// 6,000 bytes, 0.96-0.97 -> 0.73-0.89) and rows of 2 KiB (`[16,2048,512]` to `{1,2,0}` 1.07 -> 0.99). On an AMD
    /// EPYC Zen 4 (32 KiB, 8 ways) the first level's tiles ran f32 `[4096,4096]` at 1.18 against the bands' 0.83.
    pub(crate) const fn lines_first(&self, row: usize) -> bool {
        self.large_first_level() && row > 4 << 10 && row * 32 <= self.l2 / 4
    }

    /// Whether byte transposes whose source rows lie evenly apart go through first-level tiles of 256 source rows
    /// rather than 128 (`l1tiles::tall`, which says what was measured): with a first-level cache of 48 KiB or more.
    pub(crate) const fn tall_byte_tiles(&self) -> bool {
        self.large_first_level()
    }

    /// The class of cache the rules above tell apart: a first level of 48 KiB or more (Intel's cores since Ice
    /// Lake, 12 ways) against 32 KiB (AMD's Zen 2 to 4, Intel's before, 8 ways).
    const fn large_first_level(&self) -> bool {
        self.l1 >= 48 << 10
    }

    /// AMD's CPUs with a first-level cache of 48 KiB or more (Zen 5's class): where scattered streaming stores
    /// outrun ordinary ones and rows a second-level way apart go best through the first level's tiles.
    const fn amd_large_first_level(&self) -> bool {
        self.amd && self.large_first_level()
    }

    /// Bytes of a way of the second-level cache: lines this far apart (or a multiple) share a set, and so do the
    /// rows of a tile of a transpose that lie so far apart (see `l1tiles`).
    pub(crate) const fn l2_way(&self) -> usize {
        self.l2 / self.l2_ways
    }

    /// Bytes of a way of the first-level cache (4 KiB on the x86-64 cores of the last ten years): source rows this
    /// far apart share its sets (see `l1tiles`).
    pub(crate) const fn l1_way(&self) -> usize {
        self.l1 / self.l1_ways
    }

    /// Destinations of at least this many bytes are written with streaming stores: a quarter of the last level,
    /// between 4 MiB and [`STREAM_MAX`] (1 KiB under Miri, whose tests are small: tests/miri.rs).
    pub(crate) const fn stream_from(&self) -> usize {
        if cfg!(miri) {
            return 1 << 10;
        }
        let s = self.last / 4;
        if s < STREAM_MIN {
            STREAM_MIN
        } else if s > STREAM_MAX {
            STREAM_MAX
        } else {
            s
        }
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// Caches that stand in for this CPU's in the kernels of this thread (tests of choices made for other CPUs).
    pub(crate) static OVERRIDE: core::cell::Cell<Option<Caches>> = const { core::cell::Cell::new(None) }
);

/// An Intel Xeon's caches (Emerald Rapids: 48 KiB 12-way L1, 2 MiB 16-way L2, 260 MiB L3), for tests of the
/// choices made for it.
#[cfg(test)]
pub(crate) const XEON: Caches =
    Caches { l1: 48 << 10, l1_ways: 12, l2: 2 << 20, l2_ways: 16, last: 260 << 20, amd: false };
/// An AMD EPYC Zen 4's (32 KiB 8-way L1, 1 MiB 8-way L2, 32 MiB L3).
#[cfg(test)]
pub(crate) const ZEN4: Caches = Caches { l1: 32 << 10, l1_ways: 8, l2: 1 << 20, l2_ways: 8, last: 32 << 20, amd: true };
/// An AMD EPYC Zen 5's (48 KiB 12-way L1, 1 MiB 16-way L2, 32 MiB L3).
#[cfg(test)]
pub(crate) const ZEN5: Caches =
    Caches { l1: 48 << 10, l1_ways: 12, l2: 1 << 20, l2_ways: 16, last: 32 << 20, amd: true };

static L1: AtomicUsize = AtomicUsize::new(0);
static WAYS: AtomicUsize = AtomicUsize::new(0);
static L2: AtomicUsize = AtomicUsize::new(0);
static WAYS2: AtomicUsize = AtomicUsize::new(0);
static LAST: AtomicUsize = AtomicUsize::new(0);
static AMD: AtomicBool = AtomicBool::new(false);

/// The size and the ways of the cache one CPUID descriptor (leaf 4 or `0x8000_001D`) describes: ways times
/// partitions times line size times sets, each field stored less one.
pub(crate) const fn descriptor(ebx: u32, ecx: u32) -> (usize, usize) {
    let ways = (ebx >> 22) as usize + 1;
    let partitions = ((ebx >> 12) & 0x3ff) as usize + 1;
    let line = (ebx & 0xfff) as usize + 1;
    (ways * partitions * line * (ecx as usize + 1), ways)
}

/// The caches from a list of descriptors `(eax, ebx, ecx)` in CPUID's order; zero for a level not listed.
pub(crate) fn from_descriptors(descriptors: impl IntoIterator<Item = (u32, u32, u32)>) -> Caches {
    let mut c = Caches { l1: 0, l1_ways: 0, l2: 0, l2_ways: 0, last: 0, amd: false };
    for (eax, ebx, ecx) in descriptors {
        // Type 0: no more caches; 2: instructions only.
        match eax & 0x1f {
            0 => break,
            2 => continue,
            _ => {}
        }
        let (size, ways) = descriptor(ebx, ecx);
        match (eax >> 5) & 7 {
            1 => (c.l1, c.l1_ways) = (size, ways),
            2 => (c.l2, c.l2_ways) = (size, ways),
            _ => c.last = size,
        }
    }
    if c.last == 0 {
        c.last = c.l2;
    }
    c
}

/// The caches as CPUID reports them, and the vendor (leaf 0's `EBX`, `EDX`, `ECX`: `AuthenticAMD`).
#[cfg(not(miri))]
fn read() -> Caches {
    let r = core::arch::x86_64::__cpuid_count(0, 0);
    let amd = (r.ebx, r.edx, r.ecx)
        == (u32::from_le_bytes(*b"Auth"), u32::from_le_bytes(*b"enti"), u32::from_le_bytes(*b"cAMD"));
    Caches { amd, ..levels(r.eax) }
}

/// The sizes of the levels from CPUID's descriptors (see the module's documentation), `max_basic` the highest
/// basic leaf (leaf 0's `EAX`).
#[cfg(not(miri))]
fn levels(max_basic: u32) -> Caches {
    use core::arch::x86_64::__cpuid_count;
    let descriptors = |leaf: u32| (0..16).map(move |k| __cpuid_count(leaf, k)).map(|r| (r.eax, r.ebx, r.ecx));
    let max_extended = __cpuid_count(0x8000_0000, 0).eax;
    if max_basic >= 4 && __cpuid_count(4, 0).eax & 0x1f != 0 {
        return from_descriptors(descriptors(4));
    }
    let topology = max_extended >= 0x8000_0001 && __cpuid_count(0x8000_0001, 0).ecx & (1 << 22) != 0;
    if topology && max_extended >= 0x8000_001d {
        return from_descriptors(descriptors(0x8000_001d));
    }
    if max_extended >= 0x8000_0006 {
        // AMD's older leaves: L1 data KiB in ECX[31:24] of 0x8000_0005, its ways in ECX[23:16]; L2 KiB in
        // ECX[31:16], its ways encoded in ECX[15:12], and L3 in 512 KiB units in EDX[31:18] of 0x8000_0006.
        let r = __cpuid_count(0x8000_0005, 0);
        let (l1, l1_ways) = ((r.ecx >> 24) as usize * 1024, ((r.ecx >> 16) & 0xff) as usize);
        let r = __cpuid_count(0x8000_0006, 0);
        let (l2, l3) = ((r.ecx >> 16) as usize * 1024, (r.edx >> 18) as usize * (512 << 10));
        let l2_ways = match (r.ecx >> 12) & 0xf {
            2 => 2,
            4 => 4,
            6 => 8,
            8 => 16,
            0xa => 32,
            0xb => 48,
            0xc => 64,
            _ => 0,
        };
        return Caches { l1, l1_ways, l2, l2_ways, last: if l3 > 0 { l3 } else { l2 }, amd: false };
    }
    FALLBACK
}

/// Miri runs no CPUID: no caches reported ([`Caches::sane`] then takes [`FALLBACK`]).
#[cfg(miri)]
fn read() -> Caches {
    from_descriptors([])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Descriptors as an AMD EPYC (Zen 4) reports them in leaf `0x8000_001D`: 32 KiB 8-way L1 data, the L1
    /// instructions, 1 MiB 8-way L2, 32 MiB 16-way L3, then the end of the list.
    #[test]
    fn descriptors_give_the_sizes_of_each_level() {
        let zen4 = [
            (0x121, 0x01c0_003f, 0x3f),
            (0x122, 0x01c0_003f, 0x3f),
            (0x143, 0x01c0_003f, 0x7ff),
            (0x4163, 0x03c0_003f, 0x7fff),
            (0, 0, 0),
        ];
        let c = from_descriptors(zen4);
        assert_eq!(c, Caches { amd: false, ..ZEN4 });
        assert_eq!((c.l2_way(), c.l1_way()), (128 << 10, 4 << 10));
        assert_eq!((c.scratch(), c.prefetch(), c.stream_from()), (256 << 10, 2 << 10, 8 << 20));
        // Half a line of each scratch row at least: 32 byte rows, 16 bf16 rows, the 8 ways for wider units.
        assert_eq!([1, 2, 4, 8, 16].map(|w| c.band_rows(w)), [32, 16, 8, 8, 8]);
        // A 32 KiB first level takes every transpose's bands ahead, whoever made the CPU.
        assert!(c.bands_ahead(256, 1) && c.bands_ahead(64 << 10, 1));
        // A 32 KiB first level keeps f32 transposes in its tiles.
        assert!(!c.lines_first(8 << 10));
        // Intel's leaf 4 for a 48 KiB 12-way L1, 2 MiB 16-way L2 and a 260 MiB L3 (20 ways, 212,992 sets).
        let xeon = [(0x121, 0x02c0_003f, 0x3f), (0x143, 0x03c0_003f, 0x7ff), (0x163, 0x04c0_003f, 0x3_3fff)];
        let c = from_descriptors(xeon);
        assert_eq!(c, XEON);
        assert_eq!((c.l2_way(), c.l1_way()), (128 << 10, 4 << 10));
        assert_eq!((c.scratch(), c.prefetch(), c.stream_from()), (256 << 10, 3 << 10, STREAM_MAX));
        assert_eq!([1, 2, 4, 8, 16].map(|w| c.band_rows(w)), [64; 5]);
        assert!(!c.bands_ahead(256, 4) && !c.bands_ahead(64 << 10, 4));
        // Bands of lines for source rows over 4 KiB whose bands of 32 rows fill at most 512 KiB.
        assert_eq!(
            [4 << 10, (4 << 10) + 64, 16 << 10, (16 << 10) + 64].map(|r| c.lines_first(r)),
            [false, true, true, false]
        );
        // An AMD EPYC Zen 5 (family 26 model 2) in leaf `0x8000_001D`: 48 KiB 12-way L1 data, 1 MiB 16-way L2, 32
        // MiB 16-way L3. Its first level is the Xeon's, so it takes the Xeon's rules but for the bands ahead of rows
        // of 4 KiB or more, which CPUID's vendor (`AuthenticAMD`) asks for; with a quarter of its L2 at 256 KiB,
        // bands of lines take f32 rows of 4 to 8 KiB only. (Measured on one, 2026-12-01: Zen 4's rules instead ran
        // the sweep's 63 pairs no faster, geometric means 0.75 and 0.76 of `memcpy`.)
        let zen5 = [
            (0x121, 0x02c0_003f, 0x3f),
            (0x122, 0x01c0_003f, 0x3f),
            (0x143, 0x03c0_003f, 0x3ff),
            (0x4163, 0x03c0_003f, 0x7fff),
            (0, 0, 0),
        ];
        let c = Caches { amd: true, ..from_descriptors(zen5) };
        assert_eq!(c, ZEN5);
        assert_eq!((c.l2_way(), c.l1_way()), (64 << 10, 4 << 10));
        assert_eq!((c.scratch(), c.prefetch(), c.stream_from()), (256 << 10, 3 << 10, 8 << 20));
        assert_eq!([1, 2, 4, 8, 16].map(|w| c.band_rows(w)), [64; 5]);
        assert_eq!([256, (4 << 10) - 64, 4 << 10, 64 << 10].map(|r| c.bands_ahead(r, 2)), [false, false, true, true]);
        assert!(!c.bands_ahead(8 << 10, 1) && c.bands_ahead(8 << 10, 4) && !c.bands_ahead(8 << 10, 8));
        assert_eq!([(4 << 10) + 64, 8 << 10, (8 << 10) + 64].map(|r| c.lines_first(r)), [true, true, false]);
        // Its class alone carries row pairs through a stage, takes rows a way apart in the first level's tiles and
        // large blocks whole in groups.
        let rules = |c: Caches| (c.carries_pairs(), c.l1_tiles_a_way_apart(), c.whole_groups());
        assert_eq!(
            [ZEN5, ZEN4, XEON, FALLBACK].map(rules),
            [(true, true, true), (false, false, false), (false, false, false), (false, false, false)]
        );
        // And it alone keeps 8-byte units from source rows on lines out of the bands of lines.
        let on_lines = |c: Caches| [4, 8].map(|w| c.bands_on_lines(w));
        assert_eq!([ZEN5, ZEN4, XEON, FALLBACK].map(on_lines), [[true, false], [true; 2], [true; 2], [true; 2]]);
        // No third level: the second is the last; a small L2 gives a small scratch tile.
        let small = from_descriptors([(0x121, 0x01c0_003f, 0x3f), (0x143, 0x01c0_003f, 0x1ff)]);
        assert_eq!((small.last, small.scratch()), (256 << 10, 64 << 10));
    }

    /// Zeros and nonsense from a hypervisor fall back level by level; the levels never shrink going out.
    #[test]
    fn unreported_levels_fall_back() {
        assert_eq!(Caches { l1: 0, l1_ways: 0, l2: 0, l2_ways: 0, last: 0, amd: false }.sane(), FALLBACK);
        let c = Caches { l1: 48 << 10, l1_ways: 12, l2: 0, l2_ways: 100, last: 1 << 40, amd: true }.sane();
        let want = Caches {
            l1: 48 << 10,
            l1_ways: 12,
            l2: FALLBACK.l2,
            l2_ways: FALLBACK.l2_ways,
            last: FALLBACK.last,
            amd: true,
        };
        assert_eq!(c, want);
        let c = Caches::get();
        assert!(c.l1 <= c.l2 && c.l2 <= c.last && c == Caches::get());
    }
}
