"""The shape of a package's code: module and function lengths, and the distinct string literals
that hold CJK characters (docstrings left out) — the figures the answering code is held to.

Usage: python scripts/code_shape.py [package_dir] [--literals]
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True)
class Shape:
    module_lines: dict[str, int]
    function_lines: dict[str, int]
    literals: dict[str, str]
    """Each distinct CJK literal → the first module holding it."""


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        if isinstance(node, ast.Module | ast.ClassDef):  # attribute docstrings after assignments
            for before, after in zip(node.body, node.body[1:], strict=False):
                if isinstance(before, ast.Assign | ast.AnnAssign) and isinstance(after, ast.Expr) \
                        and isinstance(after.value, ast.Constant):
                    ids.add(id(after.value))
    return ids


def shape(package: Path) -> Shape:
    modules: dict[str, int] = {}
    functions: dict[str, int] = {}
    literals: dict[str, str] = {}
    for path in sorted(package.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        name = str(path.relative_to(package.parent))
        modules[name] = len(source.splitlines())
        tree = ast.parse(source)
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                end = node.end_lineno or node.lineno
                functions[f"{name}:{node.name}"] = end - node.lineno + 1
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docs and CJK.search(node.value):
                literals.setdefault(node.value, name)
            elif isinstance(node, ast.JoinedStr):
                for part in node.values:
                    if isinstance(part, ast.Constant) and isinstance(part.value, str) \
                            and CJK.search(part.value):
                        literals.setdefault(part.value, name)
    return Shape(modules, functions, literals)


def main(argv: list[str]) -> int:
    package = Path(argv[0]) if argv and not argv[0].startswith("-") else Path("kb/answering")
    s = shape(package)
    print(f"modules: {len(s.module_lines)}, longest {max(s.module_lines.values())} lines "
          f"({max(s.module_lines, key=s.module_lines.__getitem__)})")
    longest = sorted(s.function_lines.items(), key=lambda kv: -kv[1])[:8]
    print("longest functions: " + ", ".join(f"{k} {v}" for k, v in longest))
    print(f"distinct CJK string literals: {len(s.literals)}")
    if "--literals" in argv:
        for text, module in sorted(s.literals.items(), key=lambda kv: kv[1]):
            print(f"  {module}: {text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
