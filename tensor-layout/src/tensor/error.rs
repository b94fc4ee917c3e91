//! [`TensorError`]: why a tensor, a tile or a partition cannot be made.

use core::fmt;

use tensor_layout_core::cute::{CuteError, Mode};

/// Why a tensor, a tile of it or a partition cannot be made: each variant carries the numbers, and prints
/// them.
///
/// ```
/// use tensor_layout::cute::{self, Tensor, TensorError};
/// let e = Tensor::new(cute::layout("(4,8):(8,1)"), &[0.0f32; 31]).unwrap_err();
/// assert_eq!(e, TensorError::StorageTooSmall { needed: 32, storage: 31 });
/// assert_eq!(e.to_string(), "the tensor reaches 32 elements of storage (its base plus its layout's cosize) but the storage holds 31");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TensorError {
    /// The layout reaches past the storage.
    StorageTooSmall {
        /// The base plus the layout's reach (its cosize): the elements the storage must hold.
        needed: usize,
        /// The elements it holds.
        storage: usize,
    },
    /// A coordinate (a tile's, a slice's) outside the shape it indexes, or not following its nesting.
    OutOfShape {
        /// What the coordinate indexes.
        what: &'static str,
        /// The number of coordinates there are.
        size: usize,
    },
    /// A thread index past the threads of a thread layout.
    Thread {
        /// The thread.
        thread: usize,
        /// The threads.
        threads: usize,
    },
    /// A partition of a mutable tensor whose layout cannot be proven one-to-one: a mode starts inside the span
    /// of the modes before it (in stride order), so two threads could reach the same element.
    Overlap {
        /// The mode.
        mode: Mode,
        /// The span of the modes before it.
        span: usize,
    },
    /// A thread layout that is not a bijection onto `0..size`: two threads would share a coordinate, or a
    /// thread index would have none.
    Threads {
        /// The thread layout's size.
        size: usize,
        /// Its cosize.
        cosize: usize,
    },
    /// The layout algebra refused (the operation and its numbers are in the error).
    Cute(CuteError),
}

impl From<CuteError> for TensorError {
    fn from(e: CuteError) -> Self {
        TensorError::Cute(e)
    }
}

impl fmt::Display for TensorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TensorError::StorageTooSmall { needed, storage } => write!(
                f,
                "the tensor reaches {needed} elements of storage (its base plus its layout's cosize) but the \
                 storage holds {storage}"
            ),
            TensorError::OutOfShape { what, size } => {
                write!(f, "the coordinate lies outside the {what}, which has {size} coordinates")
            }
            TensorError::Thread { thread, threads } => {
                write!(f, "thread {thread} is out of bounds for a thread layout of {threads} threads")
            }
            TensorError::Overlap { mode, span } => write!(
                f,
                "cannot prove the partition disjoint: mode `{}:{}` starts inside the span {span} of the modes \
                 before it, so two threads could write one element",
                mode.extent, mode.stride
            ),
            TensorError::Threads { size, cosize } => write!(
                f,
                "the thread layout is not a bijection onto 0..{size} (its cosize is {cosize}): two threads would \
                 share elements"
            ),
            TensorError::Cute(e) => fmt::Display::fmt(&e, f),
        }
    }
}

impl core::error::Error for TensorError {}
