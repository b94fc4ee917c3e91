//! Answers judged against the operations' definitions: C++ CuTe's layout where it is right, and
//! [`CuteError::CppWrong`] (C++'s layout and a counterexample) where it is not.

use super::breach::{Breach, CppLayout};
use super::compose::{compose_cpp, Flaw};
use super::error::CuteError;
use super::layout::Layout;

/// An answer on its way to the user: C++ CuTe's layout, and how it breaks the definition, if it does.
#[derive(Clone, Copy)]
pub(crate) struct Answer {
    pub(crate) layout: Layout,
    /// The breach and, for a by-mode tiler, the mode it is in.
    pub(crate) breach: Option<(Breach, Option<u8>)>,
}

impl Answer {
    pub(crate) const fn right(layout: Layout) -> Answer {
        Answer { layout, breach: None }
    }

    /// The layout, or [`CuteError::CppWrong`] naming it.
    pub(crate) const fn finish(self) -> Result<Layout, CuteError> {
        match self.breach {
            None => Ok(self.layout),
            Some((breach, mode)) => Err(CuteError::CppWrong { cpp: CppLayout::of(&self.layout.0), mode, breach }),
        }
    }
}

/// `a ∘ b`, refused when C++'s answer breaks the definition.
pub(crate) const fn compose(a: &Layout, b: &Layout) -> Result<Answer, CuteError> {
    let c = match compose_cpp(a, b) {
        Ok(c) => c,
        Err(e) => return Err(e),
    };
    let Some(flaw) = c.flaw else {
        return Ok(Answer::right(c.layout));
    };
    let breach = match super::witness::composition(a, b, &c.layout) {
        Some([index, expected, got]) => Breach::Composition { index, expected, got },
        None => unverified(flaw),
    };
    Ok(Answer { layout: c.layout, breach: Some((breach, None)) })
}

/// The breach of a flaw no counterexample was found for.
pub(crate) const fn unverified(flaw: Flaw) -> Breach {
    match flaw {
        Flaw::Inexact { mode, left_mode, left_extent, step } => {
            Breach::Unverified { extent: mode.extent, stride: mode.stride, left_mode, left_extent, step }
        }
        Flaw::Carry { left_mode, left_extent, reach } => Breach::UnverifiedCarry { left_mode, left_extent, reach },
    }
}
