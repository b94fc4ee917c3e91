//! Offsets as sums of digits: the offset of a layout written as `sum(stride * digit)`, every digit a slice
//! `(e % high) / low` of one logical index `e`. Relayout plans use it: two layouts whose digit boundaries nest
//! (each divides the next) move data in loop nests of constant strides.
//!
//! The tiling steps of spec §4.2 split a physical coordinate by a tile size (`div` gives the grid coordinate,
//! `mod` the coordinate within the tile) and `*` merges a coordinate into the next more minor one
//! (`major * size(minor) + minor`). Followed symbolically, every final coordinate is a sum of *members*, each a
//! weighted digit of one logical index, as long as every split falls on a boundary between members (the tile
//! size is a multiple of the weight of the member it cuts, and the cut divides that member's range) and every
//! cut digit can be taken modulo the size. Layouts where a split falls inside a member (`T(*,3)` over `[11,10]`:
//! `(10a + b) % 3`) or a later tile does not divide an earlier one (`T(8,6)(3,4)` over 12 columns:
//! `(e % 6) % 4`) have no digit plan. Consecutive digits of one index that a `*` merge brings back together are
//! one member again (`e % 4` and `4 * (e / 4)` are `e`), so a later tile may cut across their old boundary
//! (`T(4)(*,6)` over 12); a dimension of size 1 has no digit (its index is always 0).
//!
//! The same walk gives the CuTe layout of an XLA layout (`cute::Layout::from_xla`): it also tells where it
//! first splits a coordinate by a tile entry that does not divide it (a partial tile: padding, which plans
//! accept) and which split falls inside a member.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let s = ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
//! let plan = s.digit_plan().unwrap();
//! assert_eq!(plan.offset(&[3, 5]), s.offset(&[3, 5])?);
//! // Row `r` contributes (r / 8) * 2048 + (r % 8 / 2) * 256 + r % 2.
//! assert_eq!(plan.dimension_offset(0, 11), 2048 + 256 + 1);
//! // Two dimensions merged by `*` and split by 2 (which divides the minor size 8): still separable.
//! let s = ArrayShape::parse("f32[7,8,10]{2,1,0:T(*,2,5)}")?;
//! assert_eq!(s.digit_plan().unwrap().offset(&[6, 5, 9]), s.offset(&[6, 5, 9])?);
//! assert!(ArrayShape::parse("f32[11,10]{1,0:T(*,3)}")?.digit_plan().is_none());
//! assert!(ArrayShape::parse("f32[8,12]{1,0:T(8,6)(3,4)}")?.digit_plan().is_none());
//! // Over 6 columns there is one tile along them: `(e % 6) % 4` is `e % 4`.
//! assert!(ArrayShape::parse("f32[8,6]{1,0:T(8,6)(3,4)}")?.digit_plan().is_some());
//! // `T(4)` splits 12 into `e / 4` and `e % 4`, `*` joins them back into `e`, which 6 divides.
//! let s = ArrayShape::parse("f32[12]{0:T(4)(*,6)}")?;
//! let plan = s.digit_plan().unwrap();
//! let digits: Vec<_> = plan.terms().iter().map(|t| (t.low, t.high, t.stride)).collect();
//! assert_eq!(digits, [(1, Some(6), 1), (6, None, 6)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::shape::ArrayShape;

mod plan;
mod walk;

use plan::BLANK;
pub(crate) use plan::{DigitFailure, DigitWalk};
pub use plan::{DigitPlan, DigitTerm, MAX_DIGIT_TERMS};

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The digit plan of this layout (see the module documentation); `None` when a tiling step is not
    /// separable into digits of single indices, for `?` dimensions and on overflow.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,5)}")?;
    /// let plan = s.digit_plan().unwrap();
    /// assert_eq!(plan.offset(&[1, 6, 5, 10, 9]), s.offset(&[1, 6, 5, 10, 9])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn digit_plan(&self) -> Option<DigitPlan> {
        let mut plan = DigitPlan::EMPTY;
        if self.digit_plan_into(&mut plan) {
            Some(plan)
        } else {
            None
        }
    }

    /// [`Self::digit_plan`] written into `plan` instead of returned: `true` when this layout has one, else `false`
    /// with `plan` left empty. A plan holds room for [`MAX_DIGIT_TERMS`] terms (4.5 KB on 64-bit targets):
    /// built where it is used, it is not copied (a runtime relayout of 256 bytes spent half its time copying
    /// plans and the loop nests made from them).
    ///
    /// ```
    /// use tensor_layout_core::digits::DigitPlan;
    /// use tensor_layout_core::ArrayShape;
    /// let mut plan = DigitPlan::EMPTY;
    /// assert!(ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?.digit_plan_into(&mut plan));
    /// assert_eq!(plan.dimension_offset(0, 11), 2048 + 256 + 1);
    /// let mut none = DigitPlan::EMPTY;
    /// assert!(!ArrayShape::parse("f32[11,10]{1,0:T(*,3)}")?.digit_plan_into(&mut none));
    /// assert_eq!(none, DigitPlan::EMPTY);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn digit_plan_into(&self, plan: &mut DigitPlan) -> bool {
        // Only the terms a plan used are cleared (an empty plan, as callers pass, has none).
        let used = plan.count as usize;
        plan.count = 0;
        plan.rank = 0;
        let ok = walk::walk(self, plan).0.is_ok();
        let written = plan.count as usize;
        if !ok {
            plan.count = 0;
            plan.rank = 0;
        }
        let mut i = plan.count as usize;
        while i < used || i < written {
            plan.terms[i] = BLANK;
            i += 1;
        }
        ok
    }

    /// The symbolic walk of the tiling steps (spec §4.2), with why it has no plan and where it first meets a
    /// partial tile.
    pub(crate) const fn digit_walk(&self) -> DigitWalk {
        let mut plan = DigitPlan::EMPTY;
        let (r, partial) = walk::walk(self, &mut plan);
        DigitWalk {
            plan: match r {
                Ok(()) => Ok(plan),
                Err(e) => Err(e),
            },
            partial,
        }
    }
}
