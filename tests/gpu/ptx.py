"""Reads the PTX that LLVM's NVPTX back end writes: kernels (`.entry`) with their parameters and instructions, the
module's functions (`.func`), `.extern` declarations, and what each kernel reaches through calls. Used by
check_ptx.py (the checks) and run_gpu.py (parameter kinds, and a module without the kernels that cannot load)."""
import re
from dataclasses import dataclass, field

# Integer arithmetic, the address computation of a kernel (floating-point forms are excluded by their type).
INTEGER_OPS = {
    "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "shl", "shr", "shf", "and", "or", "xor", "not", "neg",
    "cvt", "bfe", "bfi", "min", "max", "selp", "lop3", "prmt", "popc", "clz", "brev", "abs", "div", "rem",
}
FLOAT_TYPE = re.compile(r"\.(b?f(16|32|64)|f16x2|bf16x2|e4m3|e5m2)\b")
CALL = re.compile(r"^(?:@%\w+\s+)?call(?:\.uni)?\s+(\([^)]*\),\s*)?(\w+)")
INTEGER_DIV = re.compile(r"^(div|rem)(\.[a-z]+)*\.[us](16|32|64)$")


@dataclass
class Function:
    name: str
    kind: str  # "entry" or "func"
    params: list  # PTX types of the parameters, in order: ".u64", ".u32", ...
    lines: list  # the body's lines, stripped
    calls: set = field(default_factory=set)

    def instructions(self):
        """Opcodes (`add.s64`, `ld.global.b16`, `bra`, ...), in order; a guard (`@%p1`) is dropped."""
        out = []
        for line in self.lines:
            if line.startswith("@"):
                parts = line.split(None, 1)
                line = parts[1] if len(parts) > 1 else ""
            if line and line[0] not in "/.{}$":
                out.append(line.split(None, 1)[0].rstrip(";"))
        return out

    def integer_ops(self):
        return [op for op in self.instructions() if op.split(".")[0] in INTEGER_OPS and not FLOAT_TYPE.search(op)]

    def divisions(self):
        return [op for op in self.instructions() if INTEGER_DIV.match(op)]

    def uses_local(self):
        return any(re.search(r"\.local\b|__local_depot", line) for line in self.lines)

    def has_loop(self):
        """A branch back to a label above it."""
        seen = set()
        for line in self.lines:
            m = re.match(r"^(\$\w+):", line)
            if m:
                seen.add(m.group(1))
            b = re.search(r"\bbra(\.uni)?\s+(\$\w+);", line)
            if b and b.group(2) in seen:
                return True
        return False


class Module:
    def __init__(self, text):
        self.text = text
        self.functions = {}
        self.externs = {}  # name -> the declaration's text
        self.spans = {}  # name -> (start, end) offsets of the definition in text
        for m in re.finditer(r"^\.extern \.func\s*(\([^)]*\)\s*)?(\w+)[^;]*;", text, re.M | re.S):
            self.externs[m.group(2)] = m.group(0)
        header = re.compile(
            r"^(?:\.visible |\.weak )?\.(entry|func)\s+(?:\([^)]*\)\s*)?(\w+)\s*\(([^)]*)\)", re.M | re.S)
        for m in header.finditer(text):
            kind, name, params = m.group(1), m.group(2), m.group(3)
            # A definition has a body; a declaration ends with `;` before any `{`.
            rest = text[m.end():]
            brace, semi = rest.find("\n{"), rest.find(";")
            if brace < 0 or (0 <= semi < brace and not rest[:semi].strip().startswith(".")):
                continue
            end = text.find("\n}\n", m.end() + brace)
            end = len(text) if end < 0 else end + 3
            body = text[m.end() + brace + 2:end - 3]
            lines = [l.strip() for l in body.splitlines()]
            types = re.findall(r"\.param\s+(\.\w+)", params)
            f = Function(name, kind, types, lines)
            f.calls = {c.group(2) for c in (CALL.match(l) for l in lines) if c}
            self.functions[name] = f
            start = text.rfind("\n", 0, m.start()) + 1
            # Include the `// .globl name` comment LLVM writes above a definition.
            prev = text.rfind("\n", 0, max(start - 1, 0)) + 1
            if text[prev:start].strip() == f"// .globl\t{name}" or text[prev:start].strip() == f"// .globl {name}":
                start = prev
            self.spans[name] = (start, end)

    def entries(self):
        return {n: f for n, f in self.functions.items() if f.kind == "entry"}

    def reached(self, name):
        """Every function name `name` reaches through calls (defined here or `.extern`), itself excluded."""
        out, todo = set(), [name]
        while todo:
            f = self.functions.get(todo.pop())
            for c in f.calls if f else ():
                if c not in out:
                    out.add(c)
                    todo.append(c)
        return out

    def extern_calls(self, name):
        return sorted(c for c in self.reached(name) if c in self.externs)

    def loadable(self):
        """The module without the kernels that reach an `.extern` function and without the declarations (a PTX
        module with an unresolved function does not load), and the dropped kernels with their externs."""
        dropped = {n: self.extern_calls(n) for n in self.entries() if self.extern_calls(n)}
        cuts = [self.spans[n] for n in dropped] + [
            (self.text.find(d), self.text.find(d) + len(d)) for d in self.externs.values()]
        out, at = [], 0
        for start, end in sorted(cuts):
            out.append(self.text[at:start])
            at = max(at, end)
        out.append(self.text[at:])
        return "".join(out), dropped


def demangle(symbol):
    """A readable path for a Rust symbol, v0 (`_R..`) or legacy (`_ZN..E`): its identifiers joined by `::`, crate
    disambiguators, back-references and hashes dropped. For messages only."""
    if symbol.startswith("_R"):
        body = re.sub(r"(?<=[CM])s[0-9A-Za-z]*_|B[0-9A-Za-z]*_", "", symbol[2:])
    elif symbol.startswith("_ZN"):
        body = symbol[3:]
    else:
        return symbol
    names, i = [], 0
    while i < len(body):
        m = re.match(r"(\d+)_?", body[i:])
        if not m:
            i += 1
            continue
        n, start = int(m.group(1)), i + len(m.group(0))
        names.append(body[start:start + n])
        i = start + n
    names = [n for n in names if n and not re.fullmatch(r"h[0-9a-f]{16}", n)]
    return "::".join(names) if names else symbol
