//! Coordinates of tensors: a `usize` (a 1-D index, colexicographic over the modes it indexes) or a tuple of
//! coordinates, one per mode (`(row, col)`, `(i, (j, k))`), CuTe's `crd2idx` convention. The nesting of a
//! coordinate type is a constant, so a static layout turns each coordinate type into its own straight-line
//! offset arithmetic ([`Terms`](tensor_layout_core::cute::Terms)) at compile time.
//!
//! ```
//! use tensor_layout::cute::{ConstLayout, Coordinate, TensorLayout};
//! tensor_layout::cute_layout!(A = "(2,(4,8)):(32,(1,4))");
//! // CuTe's documented crd2idx example, three ways of writing the coordinate.
//! assert_eq!(A::default().offset_of((1, (2, 3))), Some(46));
//! assert_eq!(A::default().offset_of((1, 5)), Some(37));
//! assert_eq!(A::default().offset_of(5), Some(34));
//! assert_eq!(A::default().offset_of((2, 0)), None); // outside the shape
//! assert_eq!(<(usize, (usize, usize))>::SLOTS, 3);
//! ```

use tensor_layout_core::cute::{IntTuple, Layout};

/// The most integers one coordinate holds.
///
/// ```
/// assert_eq!(tensor_layout::cute::MAX_COORDINATE, 8);
/// ```
pub const MAX_COORDINATE: usize = 8;

/// The integers of a coordinate, in order.
pub type Values = [usize; MAX_COORDINATE];

/// A tensor coordinate: `usize` or a tuple (up to 6 entries) of coordinates, nested at most as deep as the
/// layout it indexes; at most [`MAX_COORDINATE`] integers in all. Sealed: these are all the coordinates.
///
/// ```
/// use tensor_layout::cute::Coordinate;
/// assert_eq!(<usize as Coordinate>::PROFILE.to_string(), "0");
/// assert_eq!(<(usize, (usize, usize))>::PROFILE.to_string(), "(0,(0,0))");
/// let mut v = [0; 8];
/// (4, (5, 6)).write(&mut v, 0);
/// assert_eq!(&v[..3], &[4, 5, 6]);
/// ```
pub trait Coordinate: Copy + sealed::Sealed {
    /// How the coordinate nests, as a layout of `1:0` modes.
    #[doc(hidden)]
    const NESTING: Layout;
    /// How the coordinate nests (every integer 0).
    const PROFILE: IntTuple = Self::NESTING.stride();
    /// How many integers it holds.
    const SLOTS: usize;
    /// Writes its integers into `out` from position `at` (at most [`MAX_COORDINATE`] in all).
    fn write(self, out: &mut Values, at: usize);

    /// Its integers, in order.
    ///
    /// ```
    /// use tensor_layout::cute::Coordinate;
    /// assert_eq!((1, 2).values()[..2], [1, 2]);
    /// ```
    #[inline(always)]
    fn values(self) -> Values {
        let mut v = [0; MAX_COORDINATE];
        self.write(&mut v, 0);
        v
    }
}

impl sealed::Sealed for usize {}
impl Coordinate for usize {
    const NESTING: Layout = Layout::TRIVIAL;
    const SLOTS: usize = 1;
    #[inline(always)]
    fn write(self, out: &mut Values, at: usize) {
        if at < MAX_COORDINATE {
            out[at] = self;
        }
    }
}

/// The nesting of a tuple of coordinates with these nestings: a layout of extent-1, stride-0 modes.
const fn tuple_nesting(parts: &[Layout]) -> Layout {
    match Layout::tuple(parts) {
        Ok(t) => t,
        Err(_) => panic!("a coordinate nests deeper than a layout can"),
    }
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! tuple_coordinate {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Coordinate),+> sealed::Sealed for ($($t,)+) {}
        impl<$($t: Coordinate),+> Coordinate for ($($t,)+) {
            const NESTING: Layout = tuple_nesting(&[$($t::NESTING),+]);
            const SLOTS: usize = {
                let n = 0 $(+ $t::SLOTS)+;
                assert!(n <= MAX_COORDINATE, "a coordinate holds at most 8 integers");
                n
            };
            #[inline(always)]
            fn write(self, out: &mut Values, at: usize) {
                let mut at = at;
                $(
                    self.$i.write(out, at);
                    at += $t::SLOTS;
                )+
                let _ = at;
            }
        }
    };
}

tuple_coordinate!(A 0);
tuple_coordinate!(A 0, B 1);
tuple_coordinate!(A 0, B 1, C 2);
tuple_coordinate!(A 0, B 1, C 2, D 3);
tuple_coordinate!(A 0, B 1, C 2, D 3, E 4);
tuple_coordinate!(A 0, B 1, C 2, D 3, E 4, F 5);
