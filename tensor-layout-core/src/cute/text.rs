//! CuTe's text notation, without spaces: tuples `((2,2),3)`, layouts `((2,2),3):((24,2),8)`, by-mode tilers
//! `<3:3,(2,4):(1,8)>`. A rank-1 tuple is `(4)`, an integer `4`. Parsing and printing round-trip exactly.

use super::error::{CuteError, Expected, Part};
use super::layout::{Layout, Tiler};
use super::tree::{write_tree, Builder};
use super::tuple::IntTuple;
use crate::print::TextBuf;
use core::fmt;

/// Bytes enough for the text of any tuple, layout or tiler within the model's capacity.
///
/// ```
/// use tensor_layout_core::{cute::{Layout, MAX_LEAVES, MAX_TEXT}, print::TextBuf};
/// // The longest numbers in the most leaves.
/// let ones = vec!["1"; MAX_LEAVES].join(",");
/// let big = vec![u32::MAX.to_string(); MAX_LEAVES].join(",");
/// let l = Layout::parse(&format!("({ones}):({big})"))?;
/// let mut b = TextBuf::<MAX_TEXT>::new();
/// l.write(&mut b);
/// assert!(!b.overflowed());
/// # Ok::<(), tensor_layout_core::cute::CuteError>(())
/// ```
pub const MAX_TEXT: usize = 2048;

/// Reads one (nested) tuple starting at `pos` into `b`; returns the position after it.
const fn read_tuple(text: &[u8], mut pos: usize, part: Part, b: &mut Builder<1>) -> Result<usize, CuteError> {
    let mut depth = 0usize;
    loop {
        // An element: `(` or an integer.
        if pos < text.len() && text[pos] == b'(' {
            if pos + 1 < text.len() && text[pos + 1] == b')' {
                return Err(CuteError::EmptyTuple { at: pos });
            }
            b.open();
            if let Some(what) = b.error() {
                return Err(CuteError::Capacity { what });
            }
            depth += 1;
            pos += 1;
            continue;
        }
        let (v, end) = match read_int(text, pos, part) {
            Ok(r) => r,
            Err(e) => return Err(e),
        };
        if matches!(part, Part::Shape) && v == 0 {
            return Err(CuteError::ZeroExtent { at: pos });
        }
        b.push([v]);
        if let Some(what) = b.error() {
            return Err(CuteError::Capacity { what });
        }
        pos = end;
        // Close tuples until a `,` starts the next element.
        loop {
            if depth == 0 {
                return Ok(pos);
            }
            if pos < text.len() && text[pos] == b',' {
                pos += 1;
                break;
            }
            if pos < text.len() && text[pos] == b')' {
                b.close();
                depth -= 1;
                pos += 1;
                continue;
            }
            return Err(syntax(text, pos, Expected::CommaOrClose));
        }
    }
}

/// Reads a decimal integer at `pos`.
const fn read_int(text: &[u8], pos: usize, part: Part) -> Result<(usize, usize), CuteError> {
    if pos < text.len() && text[pos] == b'-' && pos + 1 < text.len() && text[pos + 1].is_ascii_digit() {
        return Err(CuteError::Negative { at: pos, part });
    }
    let mut v: usize = 0;
    let mut i = pos;
    while i < text.len() && text[i].is_ascii_digit() {
        v = match v.checked_mul(10) {
            Some(x) => match x.checked_add((text[i] - b'0') as usize) {
                Some(y) => y,
                None => return Err(CuteError::IntegerTooLarge { at: pos }),
            },
            None => return Err(CuteError::IntegerTooLarge { at: pos }),
        };
        i += 1;
    }
    if i == pos {
        return Err(syntax(text, pos, Expected::Tuple));
    }
    Ok((v, i))
}

const fn syntax(text: &[u8], at: usize, expected: Expected) -> CuteError {
    CuteError::Syntax { at, expected, found: if at < text.len() { Some(text[at]) } else { None } }
}

/// Reads `shape:stride` at `pos`; returns the layout and the position after it.
const fn read_layout(text: &[u8], pos: usize) -> Result<(Layout, usize), CuteError> {
    let mut shape = Builder::<1>::new();
    let pos = match read_tuple(text, pos, Part::Shape, &mut shape) {
        Ok(p) => p,
        Err(e) => return Err(e),
    };
    if pos >= text.len() || text[pos] != b':' {
        return Err(syntax(text, pos, Expected::Colon));
    }
    let mut stride = Builder::<1>::new();
    let end = match read_tuple(text, pos + 1, Part::Stride, &mut stride) {
        Ok(p) => p,
        Err(e) => return Err(e),
    };
    let (shape, stride) = match (shape.finish(), stride.finish()) {
        (Ok(s), Ok(d)) => (IntTuple(s), IntTuple(d)),
        (Err(what), _) | (_, Err(what)) => return Err(CuteError::Capacity { what }),
    };
    match Layout::from_shape_stride(&shape, &stride) {
        Ok(l) => Ok((l, end)),
        Err(e) => Err(e),
    }
}

const fn at_end(text: &[u8], pos: usize) -> Result<(), CuteError> {
    if pos == text.len() {
        Ok(())
    } else {
        Err(syntax(text, pos, Expected::End))
    }
}

/// Reads a whole tuple of integers of the given part.
pub(crate) const fn parse_tuple(text: &[u8], part: Part) -> Result<IntTuple, CuteError> {
    let mut b = Builder::<1>::new();
    let end = match read_tuple(text, 0, part, &mut b) {
        Ok(p) => p,
        Err(e) => return Err(e),
    };
    if let Err(e) = at_end(text, end) {
        return Err(e);
    }
    match b.finish() {
        Ok(t) => Ok(IntTuple(t)),
        Err(what) => Err(CuteError::Capacity { what }),
    }
}

impl IntTuple {
    /// Parses CuTe's notation: `4`, `(4)`, `((2,2),3)` (no spaces).
    ///
    /// ```
    /// use tensor_layout_core::cute::IntTuple;
    /// assert_eq!(IntTuple::parse("((2,2),3)")?.to_string(), "((2,2),3)");
    /// assert!(IntTuple::parse("(2, 3)").is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn parse(text: &str) -> Result<IntTuple, CuteError> {
        parse_tuple(text.as_bytes(), Part::Coordinate)
    }

    /// Parses a shape: like [`IntTuple::parse`], and every integer (extent) must be positive.
    ///
    /// ```
    /// use tensor_layout_core::cute::IntTuple;
    /// assert_eq!(IntTuple::parse_shape("(2,(4,8))")?.product(), Some(64));
    /// assert!(IntTuple::parse_shape("(2,0)").is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn parse_shape(text: &str) -> Result<IntTuple, CuteError> {
        parse_tuple(text.as_bytes(), Part::Shape)
    }

    /// Writes the text into a fixed buffer (for `const` code).
    ///
    /// ```
    /// use tensor_layout_core::{cute::IntTuple, print::TextBuf};
    /// let mut b = TextBuf::<64>::new();
    /// IntTuple::parse("(1,(2,3))")?.write(&mut b);
    /// assert_eq!(b.as_str(), "(1,(2,3))");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn write<const N: usize>(&self, b: &mut TextBuf<N>) {
        write_tree(b, &self.0, 0, 0, self.0.all().t1);
    }
}

impl Layout {
    /// Parses `shape:stride` in CuTe's notation (no spaces); the two must nest the same way.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// let l = Layout::parse("((2,2),3):((24,2),8)")?;
    /// assert_eq!(l.to_string(), "((2,2),3):((24,2),8)");
    /// assert!(Layout::parse("(2,2):(1,2,4)").is_err());
    /// assert!(Layout::parse("0:1").is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn parse(text: &str) -> Result<Layout, CuteError> {
        let t = text.as_bytes();
        match read_layout(t, 0) {
            Ok((l, end)) => match at_end(t, end) {
                Ok(()) => Ok(l),
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    /// Writes the text into a fixed buffer (for `const` code).
    ///
    /// ```
    /// use tensor_layout_core::{cute::Layout, print::TextBuf};
    /// let mut b = TextBuf::<64>::new();
    /// Layout::parse("(4):(1)")?.write(&mut b);
    /// assert_eq!(b.as_str(), "(4):(1)");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn write<const N: usize>(&self, b: &mut TextBuf<N>) {
        let s = self.0.all();
        write_tree(b, &self.0, 0, s.t0, s.t1);
        b.push_str(":");
        write_tree(b, &self.0, 1, s.t0, s.t1);
    }
}

impl Tiler {
    /// Parses a layout or a by-mode tiler `<L0,L1,..>` (no spaces).
    ///
    /// ```
    /// use tensor_layout_core::cute::Tiler;
    /// assert_eq!(Tiler::parse("<3:3,(2,4):(1,8)>")?.to_string(), "<3:3,(2,4):(1,8)>");
    /// assert_eq!(Tiler::parse("4:2")?.to_string(), "4:2");
    /// assert!(Tiler::parse("<>").is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn parse(text: &str) -> Result<Tiler, CuteError> {
        let t = text.as_bytes();
        if t.is_empty() || t[0] != b'<' {
            return match Layout::parse(text) {
                Ok(l) => Ok(Tiler::layout(l)),
                Err(e) => Err(e),
            };
        }
        let mut b = Builder::<2>::new();
        b.open();
        let mut pos = 1;
        loop {
            let (l, end) = match read_layout(t, pos) {
                Ok(r) => r,
                Err(e) => return Err(e),
            };
            b.push_tree(&l.0);
            if let Some(what) = b.error() {
                return Err(CuteError::Capacity { what });
            }
            pos = end;
            if pos < t.len() && t[pos] == b',' {
                pos += 1;
                continue;
            }
            if pos < t.len() && t[pos] == b'>' {
                pos += 1;
                break;
            }
            return Err(syntax(t, pos, Expected::CommaOrAngle));
        }
        b.close();
        if let Err(e) = at_end(t, pos) {
            return Err(e);
        }
        match Layout::from_builder(b) {
            Ok(layout) => Ok(Tiler { layout, by_mode: true }),
            Err(e) => Err(e),
        }
    }

    /// Writes the text into a fixed buffer (for `const` code).
    ///
    /// ```
    /// use tensor_layout_core::{cute::Tiler, print::TextBuf};
    /// let mut b = TextBuf::<64>::new();
    /// Tiler::parse("<2:1,3:4>")?.write(&mut b);
    /// assert_eq!(b.as_str(), "<2:1,3:4>");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn write<const N: usize>(&self, b: &mut TextBuf<N>) {
        if !self.by_mode {
            self.layout.write(b);
            return;
        }
        b.push_str("<");
        let mut i = 0;
        while let Some(m) = self.layout.mode(i) {
            if i > 0 {
                b.push_str(",");
            }
            m.write(b);
            i += 1;
        }
        b.push_str(">");
    }
}

macro_rules! display {
    ($t:ty, $name:literal) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut b = TextBuf::<MAX_TEXT>::new();
                self.write(&mut b);
                f.write_str(b.as_str())
            }
        }

        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($name, "({})"), self)
            }
        }
    };
}

display!(IntTuple, "IntTuple");
display!(Layout, "Layout");
display!(Tiler, "Tiler");

macro_rules! from_str {
    ($t:ty) => {
        impl core::str::FromStr for $t {
            type Err = CuteError;

            fn from_str(s: &str) -> Result<Self, CuteError> {
                <$t>::parse(s)
            }
        }
    };
}

from_str!(IntTuple);
from_str!(Layout);
from_str!(Tiler);
