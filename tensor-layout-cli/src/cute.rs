//! `tlayout cute`: CuTe layout-algebra requests on stdin, one per line, to `OK <answer>` or `ERR <message>`
//! (a public contract, see the layout-algebra issue and the README); `--from-xla SHAPE` prints the CuTe layout of
//! an XLA layout. Every answer comes from `tensor_layout::cute`; this file only reads requests and prints.

use crate::caret::parse_shape;
use crate::lines;
use crate::outcome::{Failure, Outcome};
use std::fmt::Write as _;
use std::io::{self, Write};
use tensor_layout::cute::{IntTuple, Layout, Swizzle, Tiler};

/// The most offsets printed after a layout with `--offsets`.
pub const MAX_OFFSETS: usize = 4096;

/// The examples `tlayout cute --help` shows.
pub const EXAMPLES: &str = "\
Examples:
  $ printf 'composition (6,2):(8,2) (4,3):(3,1)\\ncomplement (5,4):(2,4) 42\\n' | tlayout cute --offsets
  OK ((2,2),3):((24,2),8)\t0,24,2,26,8,32,10,34,16,40,18,42
  ERR complement is not admissible (C++ CuTe's static_assert: non-injective layout): sorted by stride, mode `4:4`
  starts at 4, inside the 10 offsets spanned by the modes before it (the layout is not injective there)
  $ echo 'composition (6,2):(0,6) (2,4):(4,1)' | tlayout cute
  ERR C++ CuTe returns `(2,4):(0,0)` here, which breaks R(i) = A(B(i)): A(B(5)) = 6 but R(5) = 0
  $ echo 'zipped_divide (9,(4,8)):(59,(13,1)) <3:3,(2,4):(1,8)>' | tlayout cute
  OK ((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))
  $ tlayout cute --from-xla 'bf16[16,256]{1,0:T(8,128)(2,1)}'
  ((2,4,2),(128,2)):((1,256,2048),(2,1024))

Requests (tokens separated by spaces; layouts in CuTe's notation without spaces, `((2,2),3):((24,2),8)`):
  coalesce L | left_inverse L | right_inverse L
  composition A B | logical_divide A B | zipped_divide A B | tiled_divide A B
  logical_product A B | blocked_product A B | raked_product A B     (B a layout or a by-mode tiler <L0,L1,..>)
  complement L COTARGET
  crd2idx SHAPE STRIDE COORD   -> OK <index>
  idx2crd SHAPE INDEX          -> OK <coordinate>
  swizzle B M S N              -> OK <images of 0..N-1, comma separated>
Answers are C++ CuTe's (CUTLASS 4.2, static integers), printed as C++ prints them without the `_` of static
integers; an ERR where C++ refuses, or where its answer breaks the operation's definition (naming that answer).
With --offsets, a layout answer is followed by a tab and its offsets R(0),..,R(size-1), comma separated, when its
size is at most 4096. Blank lines and lines starting with `#` are echoed unchanged. A line longer than 1 MiB, or
an answer longer than 4 MiB, is an ERR.
Exit code 1 when any line was an error; with --from-xla, 2 when the layout has no CuTe form (the reason on
stderr).";

/// Arguments of `tlayout cute`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// After each layout answer, a tab and its offsets R(0),..,R(size-1) (layouts of size <= 4096)
    #[arg(long)]
    offsets: bool,
    /// Print the CuTe layout with the offsets of this XLA layout (e.g. `bf16[16,256]{1,0:T(8,128)(2,1)}`) and exit
    #[arg(long, value_name = "SHAPE")]
    from_xla: Option<String>,
}

/// Runs `tlayout cute`.
pub fn run(args: &Args) -> Result<Outcome, Failure> {
    if let Some(text) = &args.from_xla {
        let shape = parse_shape(text)?;
        let cute = Layout::from_xla(shape.shape()).map_err(|e| Failure::new(format_args!("`{}`: {e}", text.trim())))?;
        let mut line = cute.to_string();
        if args.offsets {
            push_offsets(&mut line, &cute);
        }
        let mut out = io::stdout().lock();
        writeln!(out, "{line}").map_err(Failure::write)?;
        return Ok(Outcome::Success);
    }
    let offsets = args.offsets;
    lines::run(move |line, out| answer(line, offsets, out))
}

/// Answers one request into `out`.
fn answer(line: &[u8], offsets: bool, out: &mut String) -> Result<(), String> {
    let line = std::str::from_utf8(line).map_err(|_| "the request is not UTF-8 text".to_string())?;
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let (&op, args) = tokens.split_first().ok_or("empty request")?;
    let layout_answer = |r: Result<Layout, _>, out: &mut String| -> Result<(), String> {
        let l = r.map_err(|e: tensor_layout::cute::CuteError| e.to_string())?;
        write!(out, "{l}").map_err(|e| e.to_string())?;
        if offsets {
            push_offsets(out, &l);
        }
        Ok(())
    };
    match op {
        "coalesce" | "left_inverse" | "right_inverse" => {
            let [a] = arity(op, args, "L")?;
            let a = layout(a)?;
            let r = match op {
                "coalesce" => Ok(a.coalesce()),
                "left_inverse" => a.left_inverse(),
                _ => Ok(a.right_inverse()),
            };
            layout_answer(r, out)
        }
        "composition" | "logical_divide" | "zipped_divide" | "tiled_divide" | "logical_product" | "blocked_product"
        | "raked_product" => {
            let [a, b] = arity(op, args, "A B")?;
            let (a, b) = (layout(a)?, tiler(b)?);
            let r = match op {
                "composition" => a.composition(&b),
                "logical_divide" => a.logical_divide(&b),
                "zipped_divide" => a.zipped_divide(&b),
                "tiled_divide" => a.tiled_divide(&b),
                "logical_product" => a.logical_product(&b),
                "blocked_product" => a.blocked_product(&b),
                _ => a.raked_product(&b),
            };
            layout_answer(r, out)
        }
        "complement" => {
            let [a, c] = arity(op, args, "L COTARGET")?;
            let (a, c) = (layout(a)?, integer("cotarget", c)?);
            layout_answer(a.complement(c), out)
        }
        "crd2idx" => {
            let [shape, stride, coord] = arity(op, args, "SHAPE STRIDE COORD")?;
            let l = Layout::from_shape_stride(&tuple("shape", shape, true)?, &tuple("stride", stride, false)?)
                .map_err(|e| format!("shape `{shape}` and stride `{stride}`: {e}"))?;
            let index = l.crd2idx(&tuple("coordinate", coord, false)?).map_err(|e| e.to_string())?;
            write!(out, "{index}").map_err(|e| e.to_string())
        }
        "idx2crd" => {
            let [shape, index] = arity(op, args, "SHAPE INDEX")?;
            let l = Layout::column_major(&tuple("shape", shape, true)?).map_err(|e| e.to_string())?;
            let coord = l.idx2crd(integer("index", index)?).map_err(|e| e.to_string())?;
            write!(out, "{coord}").map_err(|e| e.to_string())
        }
        "swizzle" => {
            let [b, m, s, n] = arity(op, args, "B M S N")?;
            let sw = Swizzle::new(integer("B", b)?, integer("M", m)?, integer("S", s)?).map_err(|e| e.to_string())?;
            let n: usize = integer("N", n)?;
            for i in 0..n {
                if out.len() > lines::MAX_ANSWER {
                    return Err(format!(
                        "the images of 0..{n} are longer than the {} bytes an answer may have (the first {i} take {} \
                         bytes)",
                        lines::MAX_ANSWER,
                        out.len()
                    ));
                }
                if i > 0 {
                    out.push(',');
                }
                write!(out, "{}", sw.apply(i)).map_err(|e| e.to_string())?;
            }
            Ok(())
        }
        _ => Err(format!(
            "unknown request `{op}`: expected one of coalesce, composition, complement, logical_divide, \
             zipped_divide, tiled_divide, logical_product, blocked_product, raked_product, left_inverse, \
             right_inverse, crd2idx, idx2crd, swizzle"
        )),
    }
}

/// Appends a tab and the offsets of `l` when its size is at most [`MAX_OFFSETS`].
fn push_offsets(out: &mut String, l: &Layout) {
    if l.size() > MAX_OFFSETS {
        return;
    }
    out.push('\t');
    for (i, o) in l.offsets().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // Writing to a String cannot fail.
        let _ = write!(out, "{o}");
    }
}

/// The arguments of a request, checked to be `N`.
fn arity<'a, const N: usize>(op: &str, args: &[&'a str], names: &str) -> Result<[&'a str; N], String> {
    args.try_into().map_err(|_| {
        format!("`{op}` takes {N} {} ({names}), found {}", if N == 1 { "argument" } else { "arguments" }, args.len())
    })
}

fn layout(text: &str) -> Result<Layout, String> {
    Layout::parse(text).map_err(|e| format!("invalid layout `{text}`: {e}"))
}

fn tiler(text: &str) -> Result<Tiler, String> {
    Tiler::parse(text).map_err(|e| format!("invalid layout or tiler `{text}`: {e}"))
}

fn tuple(what: &str, text: &str, shape: bool) -> Result<IntTuple, String> {
    let r = if shape { IntTuple::parse_shape(text) } else { IntTuple::parse(text) };
    r.map_err(|e| format!("invalid {what} `{text}`: {e}"))
}

fn integer<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e| format!("invalid {what} `{text}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer_of(line: &str, offsets: bool) -> Result<String, String> {
        let mut out = String::new();
        answer(line.as_bytes(), offsets, &mut out).map(|()| out)
    }

    #[test]
    fn requests_and_errors() {
        // CuTe's documented examples.
        assert_eq!(answer_of("composition (6,2):(8,2) (4,3):(3,1)", false).as_deref(), Ok("((2,2),3):((24,2),8)"));
        assert_eq!(answer_of("complement 4:2 24", true).as_deref(), Ok("(2,3):(1,8)\t0,1,8,9,16,17"));
        assert_eq!(answer_of("crd2idx (2,(4,8)) (32,(1,4)) (1,5)", false).as_deref(), Ok("37"));
        assert_eq!(answer_of("idx2crd ((2,3),4) 17", false).as_deref(), Ok("((1,2),2)"));
        assert_eq!(answer_of("swizzle 2 0 -3 8", false).as_deref(), Ok("0,9,18,27,4,13,22,31"));
        assert_eq!(answer_of("coalesce", false).unwrap_err(), "`coalesce` takes 1 argument (L), found 0");
        assert_eq!(
            answer_of("composition (2,3 4:1", false).unwrap_err(),
            "invalid layout `(2,3`: expected `,` or `)`, found the end of the text (at byte 4)"
        );
        assert!(answer_of("transpose 4:1", false).unwrap_err().starts_with("unknown request `transpose`"));
        assert!(answer_of("swizzle 3 4 2 8", false).unwrap_err().contains("needs |S| >= B"));
        let e = answer_of("swizzle 3 4 3 16777216", false).unwrap_err();
        assert!(e.starts_with("the images of 0..16777216 are longer than the 4194304 bytes an answer may have"), "{e}");
        assert!(answer_of("idx2crd (2,0) 1", false).unwrap_err().starts_with("invalid shape `(2,0)`"));
    }

    #[test]
    fn offsets_only_for_small_layouts() {
        assert_eq!(answer_of("coalesce 4097:1", true).as_deref(), Ok("4097:1"));
        assert!(answer_of("coalesce 4096:1", true).unwrap().starts_with("4096:1\t0,1,2,"));
    }
}
