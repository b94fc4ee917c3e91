#!/usr/bin/env python3
"""Converts the answers of the project's tools/cutecpp (`cutecpp.py --out answers.jsonl ...`) into the columns of
cpp-cute.tsv: the request line, C++'s answer (`OK <CuTe print, _N written N>` or `ERR <the compile error>`), its
offsets, and whether it meets the operation's definition (tools/cutecpp/reference.py: `yes`, `no`, `-` not checked).

  python3 to_tsv.py answers.jsonl out.tsv      (with tools/cutecpp on PYTHONPATH, for reference.py)
"""
import json
import re
import sys

import reference


def strip(text):
    return re.sub(r'_(\d+)', r'\1', text)


def main(src, dst):
    out = open(dst, 'w')
    out.write('line\tcpp\toffsets\tmeets_definition\n')
    for raw in open(src):
        r = json.loads(raw)
        op, args, c = r['op'], r['args'], r['cpp']
        line = f"swizzle {' '.join(args)} {r['expect']['n']}" if op == 'swizzle' else op + ' ' + ' '.join(args)
        if c['kind'] == 'compile_error':
            out.write(f"{line}\tERR {c['text'].replace('error: ', '', 1)}\t-\t-\n")
            continue
        if c['kind'] not in ('layout', 'value', 'swizzle'):
            out.write(f"{line}\tERR {c['kind']}: {c['text']}\t-\t-\n")
            continue
        text = strip(c['text'])
        if c['kind'] != 'layout':
            out.write(f"{line}\tOK {text}\t-\t-\n")
            continue
        offsets = None if c['offsets'] == '-' else [int(x) for x in c['offsets'].split(',')]
        verdict = reference.check(op, args, text, offsets) if offsets is not None or op == 'complement' else None
        meets = '-' if verdict is None else ('yes' if verdict else 'no')
        out.write(f"{line}\tOK {text}\t{c['offsets']}\t{meets}\n")


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
