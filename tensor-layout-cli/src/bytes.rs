//! Byte counts for people: the exact count, then binary units (`335544320 bytes (320 MiB)`), signed or not.

/// `335544320 bytes (320 MiB)`: the exact count, then binary units from 1 KiB.
pub fn bytes_text(n: u128) -> String {
    const UNITS: [&str; 8] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];
    let noun = if n == 1 { "byte" } else { "bytes" };
    let (mut value, mut unit) = (n as f64, None);
    for u in UNITS {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = Some(u);
    }
    match unit {
        None => format!("{n} {noun}"),
        Some(u) if value.fract() == 0.0 => format!("{n} {noun} ({value} {u})"),
        Some(u) => format!("{n} {noun} ({value:.2} {u})"),
    }
}

/// `-8 bytes`, `201326592 bytes (192 MiB)`: [`bytes_text`] of a signed count.
pub fn signed_bytes_text(n: i128) -> String {
    signed(n, bytes_text)
}

/// `text` of the magnitude of `n`, after a `-` when `n` is negative.
pub fn signed(n: i128, text: fn(u128) -> String) -> String {
    let sign = if n < 0 { "-" } else { "" };
    format!("{sign}{}", text(n.unsigned_abs()))
}

#[cfg(test)]
mod tests {
    use super::bytes_text;

    #[test]
    fn exact_count_then_binary_units() {
        assert_eq!(bytes_text(1), "1 byte");
        assert_eq!(bytes_text(96), "96 bytes");
        assert_eq!(bytes_text(1024), "1024 bytes (1 KiB)");
        assert_eq!(bytes_text(1536), "1536 bytes (1.50 KiB)");
        assert_eq!(bytes_text(335_544_320), "335544320 bytes (320 MiB)");
        assert_eq!(bytes_text(1536 * 1024), "1572864 bytes (1.50 MiB)");
    }

    #[test]
    fn signed_counts() {
        assert_eq!(super::signed_bytes_text(-8), "-8 bytes");
        assert_eq!(super::signed_bytes_text(201_326_592), "201326592 bytes (192 MiB)");
    }
}
