//! [`Layout`]: a shape and a congruent stride; [`Tiler`]: a layout or one layout per mode.

use super::error::{CuteError, Mode};
use super::tree::{structure, Builder, Span, Tree};
use super::tuple::IntTuple;

/// A CuTe layout: a hierarchical shape and a congruent stride, a function from coordinates to offsets.
///
/// Always valid: extents are positive, and the size (product of the extents) and the cosize (the largest
/// offset plus one) fit in `usize`.
///
/// ```
/// use tensor_layout_core::cute::Layout;
/// let l = Layout::parse("((2,2),3):((24,2),8)")?;
/// assert_eq!((l.rank(), l.depth(), l.size(), l.cosize()), (2, 2, 12, 43));
/// assert_eq!(l.shape().to_string(), "((2,2),3)");
/// assert_eq!(l.mode(1).unwrap().to_string(), "3:8");
/// let same: Layout = "((2,2),3):((24,2),8)".parse()?; // `FromStr` too
/// assert_eq!(same, l);
/// # Ok::<(), tensor_layout_core::cute::CuteError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout(pub(crate) Tree<2>);

structure!(Layout, "4:1", "(4):(1)", "((2,2),3):((1,2),4)", "(2,2):(1,2)");

impl Layout {
    /// `1:0`, the layout of a single element (what CuTe returns for an empty result).
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// assert_eq!(Layout::TRIVIAL.to_string(), "1:0");
    /// ```
    pub const TRIVIAL: Layout = Layout(Tree::leaf([1, 0]));

    /// The rank-1 layout `extent:stride`.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// assert_eq!(Layout::new(8, 2)?.to_string(), "8:2");
    /// assert!(Layout::new(0, 1).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn new(extent: usize, stride: usize) -> Result<Layout, CuteError> {
        Layout::from_tree(Tree::leaf([extent, stride]))
    }

    /// The layout with this shape and stride; errors unless they nest the same way.
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// let l = Layout::from_shape_stride(&IntTuple::parse("(2,(4,8))")?, &IntTuple::parse("(32,(1,4))")?)?;
    /// assert_eq!(l.to_string(), "(2,(4,8)):(32,(1,4))");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn from_shape_stride(shape: &IntTuple, stride: &IntTuple) -> Result<Layout, CuteError> {
        if !shape.congruent(stride) {
            return Err(CuteError::NotCongruent);
        }
        let mut b = Builder::<2>::new();
        let s = shape.0.all();
        let mut t = s.t0;
        let mut l = 0;
        while t < s.t1 {
            match shape.0.token(t) {
                super::tree::OPEN => b.open(),
                super::tree::CLOSE => b.close(),
                _ => {
                    b.push([shape.0.leaves()[l][0], stride.0.leaves()[l][0]]);
                    l += 1;
                }
            }
            t += 1;
        }
        Layout::from_builder(b)
    }

    /// The compact column-major layout of a shape (CuTe's `make_layout(shape)`, `LayoutLeft`): the first mode
    /// has stride 1.
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// let l = Layout::column_major(&IntTuple::parse("(2,(4,8))")?)?;
    /// assert_eq!(l.to_string(), "(2,(4,8)):(1,(2,8))");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn column_major(shape: &IntTuple) -> Result<Layout, CuteError> {
        let n = shape.leaf_count();
        let mut strides = [0usize; super::limits::MAX_LEAVES];
        let mut acc: usize = 1;
        let mut i = 0;
        while i < n {
            strides[i] = acc;
            let Some(v) = acc.checked_mul(shape.0.leaves()[i][0]) else {
                return Err(CuteError::Overflow);
            };
            acc = v;
            i += 1;
        }
        let mut stride = *shape;
        let mut j = 0;
        while j < n {
            stride.0 = stride.0.with_leaf(j, [strides[j]]);
            j += 1;
        }
        Layout::from_shape_stride(shape, &stride)
    }

    /// The tuple of the given layouts (CuTe's `make_layout(a, b, ...)`): one mode per layout.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// let l = Layout::tuple(&[Layout::parse("4:1")?, Layout::parse("(2,3):(8,16)")?])?;
    /// assert_eq!(l.to_string(), "(4,(2,3)):(1,(8,16))");
    /// assert_eq!(Layout::tuple(&[Layout::parse("4:1")?])?.to_string(), "(4):(1)");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn tuple(modes: &[Layout]) -> Result<Layout, CuteError> {
        if modes.is_empty() {
            return Err(CuteError::EmptyTuple { at: 0 });
        }
        let mut b = Builder::<2>::new();
        b.open();
        let mut i = 0;
        while i < modes.len() {
            b.push_tree(&modes[i].0);
            i += 1;
        }
        b.close();
        Layout::from_builder(b)
    }

    /// Checks the invariants of a built tree.
    pub(crate) const fn from_tree(t: Tree<2>) -> Result<Layout, CuteError> {
        let leaves = t.leaves();
        let mut size: usize = 1;
        let mut span: usize = 0;
        let mut i = 0;
        while i < leaves.len() {
            let [s, d] = leaves[i];
            if s == 0 {
                return Err(CuteError::ZeroExtent { at: 0 });
            }
            size = match size.checked_mul(s) {
                Some(v) => v,
                None => return Err(CuteError::Overflow),
            };
            span = match (s - 1).checked_mul(d) {
                Some(v) => match span.checked_add(v) {
                    Some(w) => w,
                    None => return Err(CuteError::Overflow),
                },
                None => return Err(CuteError::Overflow),
            };
            i += 1;
        }
        if span == usize::MAX {
            return Err(CuteError::Overflow);
        }
        Ok(Layout(t))
    }

    /// Finishes a builder into a checked layout.
    pub(crate) const fn from_builder(b: Builder<2>) -> Result<Layout, CuteError> {
        match b.finish() {
            Ok(t) => Layout::from_tree(t),
            Err(what) => Err(CuteError::Capacity { what }),
        }
    }

    /// The shape.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// assert_eq!(Layout::parse("(4,2):(2,1)")?.shape().to_string(), "(4,2)");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn shape(&self) -> IntTuple {
        IntTuple(self.0.project(0))
    }

    /// The stride.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// assert_eq!(Layout::parse("(4,2):(2,1)")?.stride().to_string(), "(2,1)");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn stride(&self) -> IntTuple {
        IntTuple(self.0.project(1))
    }

    /// Flat mode `i` (left to right), or `None` past the last.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Mode};
    /// let l = Layout::parse("(2,(3,4)):(1,(2,6))")?;
    /// assert_eq!(l.leaf(2), Some(Mode { extent: 4, stride: 6 }));
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn leaf(&self, i: usize) -> Option<Mode> {
        let l = self.0.leaves();
        if i < l.len() {
            Some(Mode { extent: l[i][0], stride: l[i][1] })
        } else {
            None
        }
    }

    /// The size: the number of coordinates (product of the extents).
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// assert_eq!(Layout::parse("(2,(3,4)):(1,(2,6))")?.size(), 24);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn size(&self) -> usize {
        let l = self.0.leaves();
        let mut p = 1;
        let mut i = 0;
        while i < l.len() {
            // Checked when the layout was made.
            p *= l[i][0];
            i += 1;
        }
        p
    }

    /// The cosize: the largest offset plus one (CuTe's `cosize`, `L(size-1) + 1` for non-negative strides).
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// assert_eq!(Layout::parse("(4,2):(0,4)")?.cosize(), 5);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn cosize(&self) -> usize {
        let l = self.0.leaves();
        let mut span = 0;
        let mut i = 0;
        while i < l.len() {
            // Checked when the layout was made.
            span += (l[i][0] - 1) * l[i][1];
            i += 1;
        }
        span + 1
    }

    /// The flat modes, in order.
    #[inline]
    pub(crate) const fn flat(&self) -> &[[usize; 2]] {
        self.0.leaves()
    }

    /// The whole layout as a span of its tree.
    #[inline]
    pub(crate) const fn span(&self) -> Span {
        self.0.all()
    }
}

impl super::breach::CppLayout {
    /// C++'s answer as a layout, or `None` when it was too long to keep whole.
    ///
    /// ```
    /// use tensor_layout_core::cute::{CuteError, Layout, Tiler};
    /// let a = Layout::parse("(6,2):(0,6)")?;
    /// let Err(CuteError::CppWrong { cpp, .. }) = a.composition(&Tiler::parse("(2,4):(4,1)")?) else { panic!() };
    /// assert_eq!(cpp.layout(), Some(Layout::parse("(2,4):(0,0)")?));
    /// # Ok::<(), CuteError>(())
    /// ```
    pub const fn layout(&self) -> Option<Layout> {
        if !self.is_complete() {
            return None;
        }
        match Layout::parse(self.as_str()) {
            Ok(l) => Some(l),
            Err(_) => None,
        }
    }
}

/// What divides or multiplies a layout: a layout, or a by-mode tiler `<L0,L1,..>` that applies `Li` to mode `i`.
///
/// ```
/// use tensor_layout_core::cute::{Layout, Tiler};
/// let t = Tiler::parse("<3:3,(2,4):(1,8)>")?;
/// assert!(t.is_by_mode());
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.mode(1).unwrap().to_string(), "(2,4):(1,8)");
/// assert_eq!(Tiler::from(Layout::parse("4:2")?).to_string(), "4:2");
/// # Ok::<(), tensor_layout_core::cute::CuteError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tiler {
    pub(crate) layout: Layout,
    pub(crate) by_mode: bool,
}

impl Tiler {
    /// A tiler that is one layout.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// assert!(!Tiler::layout(Layout::parse("4:2")?).is_by_mode());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn layout(layout: Layout) -> Tiler {
        Tiler { layout, by_mode: false }
    }

    /// A by-mode tiler: layout `i` applies to mode `i`.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// let t = Tiler::by_mode(&[Layout::parse("3:3")?, Layout::parse("(2,4):(1,8)")?])?;
    /// assert_eq!(t.to_string(), "<3:3,(2,4):(1,8)>");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn by_mode(modes: &[Layout]) -> Result<Tiler, CuteError> {
        match Layout::tuple(modes) {
            Ok(layout) => Ok(Tiler { layout, by_mode: true }),
            Err(e) => Err(e),
        }
    }

    /// Whether this is a by-mode tiler.
    ///
    /// ```
    /// use tensor_layout_core::cute::Tiler;
    /// assert!(Tiler::parse("<2:1>")?.is_by_mode());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn is_by_mode(&self) -> bool {
        self.by_mode
    }

    /// The layout (for a by-mode tiler, the tuple of its modes' layouts).
    ///
    /// ```
    /// use tensor_layout_core::cute::Tiler;
    /// assert_eq!(Tiler::parse("<3:3,2:1>")?.as_layout().to_string(), "(3,2):(3,1)");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn as_layout(&self) -> &Layout {
        &self.layout
    }

    /// The number of modes: of the tiler for a by-mode tiler, of the layout otherwise.
    ///
    /// ```
    /// use tensor_layout_core::cute::Tiler;
    /// assert_eq!(Tiler::parse("<3:3,2:1>")?.rank(), 2);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// Mode `i`: the layout applied to mode `i` of a by-mode tiler, mode `i` of the layout otherwise.
    ///
    /// ```
    /// use tensor_layout_core::cute::Tiler;
    /// assert_eq!(Tiler::parse("<3:3,2:1>")?.mode(0).unwrap().to_string(), "3:3");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn mode(&self, i: usize) -> Option<Layout> {
        self.layout.mode(i)
    }
}

impl From<Layout> for Tiler {
    fn from(layout: Layout) -> Tiler {
        Tiler::layout(layout)
    }
}
