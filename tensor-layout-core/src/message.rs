//! Messages written by `const fn`s: a fixed-capacity text buffer, and nouns that agree with their counts. Errors
//! write their messages with these, so compile-time checks can panic with the same words `Display` prints.

/// A fixed-capacity text buffer written by `const fn`s. Writes past the capacity set a flag and are dropped.
///
/// ```
/// use tensor_layout_core::print::TextBuf;
/// let mut b = TextBuf::<8>::new();
/// b.push_str("ab");
/// b.push_i64(-12);
/// assert_eq!(b.as_str(), "ab-12");
/// assert!(!b.overflowed());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TextBuf<const N: usize> {
    len: usize,
    bytes: [u8; N],
    overflow: bool,
}

impl<const N: usize> Default for TextBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> TextBuf<N> {
    /// An empty buffer.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// assert_eq!(TextBuf::<4>::new().as_str(), "");
    /// ```
    pub const fn new() -> Self {
        TextBuf { len: 0, bytes: [0; N], overflow: false }
    }

    /// Appends bytes (which must be UTF-8 as a whole once writing is done).
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// let mut b = TextBuf::<2>::new();
    /// b.push_bytes(b"abc");
    /// assert!(b.overflowed());
    /// ```
    pub const fn push_bytes(&mut self, s: &[u8]) {
        let mut i = 0;
        while i < s.len() {
            if self.len == N {
                self.overflow = true;
                return;
            }
            self.bytes[self.len] = s[i];
            self.len += 1;
            i += 1;
        }
    }

    /// Appends a string.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// let mut b = TextBuf::<8>::new();
    /// b.push_str("f32");
    /// assert_eq!(b.as_str(), "f32");
    /// ```
    pub const fn push_str(&mut self, s: &str) {
        self.push_bytes(s.as_bytes());
    }

    /// Appends an unsigned decimal number.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// let mut b = TextBuf::<32>::new();
    /// b.push_u64(u64::MAX);
    /// assert_eq!(b.as_str(), "18446744073709551615");
    /// ```
    pub const fn push_u64(&mut self, v: u64) {
        self.push_u128(v as u128);
    }

    /// Appends a `usize` in decimal.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// let mut b = TextBuf::<32>::new();
    /// b.push_usize(4096);
    /// assert_eq!(b.as_str(), "4096");
    /// ```
    pub const fn push_usize(&mut self, v: usize) {
        self.push_u128(v as u128);
    }

    /// Appends an unsigned 128-bit decimal number.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// let mut b = TextBuf::<64>::new();
    /// b.push_u128(57_069_614_478_038_925_312);
    /// assert_eq!(b.as_str(), "57069614478038925312");
    /// ```
    pub const fn push_u128(&mut self, mut v: u128) {
        let mut digits = [0u8; 39];
        let mut n = 0;
        loop {
            digits[38 - n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        self.push_bytes(digits.split_at(39 - n).1);
    }

    /// Appends a signed decimal number.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// let mut b = TextBuf::<32>::new();
    /// b.push_i64(i64::MIN);
    /// assert_eq!(b.as_str(), "-9223372036854775808");
    /// ```
    pub const fn push_i64(&mut self, v: i64) {
        if v < 0 {
            self.push_str("-");
        }
        self.push_u64(v.unsigned_abs());
    }

    /// The text written so far.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// let mut b = TextBuf::<8>::new();
    /// b.push_str("x");
    /// assert_eq!(b.as_str(), "x");
    /// ```
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// Empties the buffer (keeping its storage), so one buffer serves many writes.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// let mut b = TextBuf::<8>::new();
    /// b.push_str("abc");
    /// b.clear();
    /// assert_eq!(b.as_str(), "");
    /// ```
    pub const fn clear(&mut self) {
        self.len = 0;
        self.overflow = false;
    }

    /// Whether a write was dropped for lack of room.
    ///
    /// ```
    /// use tensor_layout_core::print::TextBuf;
    /// assert!(!TextBuf::<1>::new().overflowed());
    /// ```
    pub const fn overflowed(&self) -> bool {
        self.overflow
    }
}

/// Writes `n` and the noun that agrees with it: `1 entry`, `2 entries`.
pub(crate) const fn count<const N: usize>(b: &mut TextBuf<N>, n: usize, one: &str, many: &str) {
    b.push_usize(n);
    b.push_str(" ");
    b.push_str(plural(n, one, many));
}

/// The noun that agrees with `n`: `one` for 1, else `many`.
pub(crate) const fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}
