"""Inlining a method's tail calls of another method of its class, from their source.

A game's checked `apply` is its guard (is this action legal for this seat?) followed by a
call of the trusted `apply_legal`.  That call costs about 430 instructions: a tenth of a
random Wasserloch playout, more than the guard itself.  CPython does not inline calls, so
`inline_tail_calls` does it once, as the class is made: the rules stay written once, in
`apply_legal`, and `apply` is compiled anew with the callee's body in place of each call.

Only tail calls are replaced (`self.callee(…)` as the caller's last statement, or
followed by a bare `return`; `return self.callee(…)`): nothing of the caller runs after
one, so the callee's own `return`s end the caller as they ended the call, and the
caller's local names are dead there.  The callee's arguments are bound to its parameters
by one assignment, evaluated before any is bound.  The new function is compiled with the
file name and line numbers of the two sources, so a traceback shows the lines written.
Where the sources cannot be read (a build without them), the method stays as written:
slower, never different.
"""

from __future__ import annotations

import __future__
import ast
import dis
import inspect
from typing import Callable

__all__ = ["inline_tail_calls", "InlineError"]


class InlineError(TypeError):
    """The call cannot be inlined without changing what the method does (said why)."""


def inline_tail_calls(caller: str, callee: str) -> Callable[[type], type]:
    """Class decorator: `cls.<caller>` with every tail call `self.<callee>(…)` replaced by
    `<callee>`'s body.  The original stays as the new method's `__wrapped__`; a subclass
    that overrides `<callee>` alone gets it back (core.protocol.State.__init_subclass__),
    so it still calls the override."""

    def decorate(cls: type) -> type:
        original = cls.__dict__[caller]
        inlined = inlined_function(original, cls.__dict__[callee], callee)
        if inlined is not original:
            inlined.__wrapped__ = original
            setattr(cls, caller, inlined)
            # the caller now holds the callee's body and every body inlined into it before
            # (decorators apply from the class up): an override of any of them must get
            # the caller as written back
            held = (callee, *(c for k, c in getattr(cls, "_inlined_calls", ()) if k == callee))
            cls._inlined_calls = (*getattr(cls, "_inlined_calls", ()), *((caller, c) for c in held))
        return cls

    return decorate


def _function_ast(function: Callable) -> ast.FunctionDef | None:
    """The function's definition as written, at its own lines and columns; None without source.
    A function made by `inlined_function` gives its caller's definition with the same
    calls inlined again (a fresh tree each time), so inlining composes: a method inlined
    into another brings along what was inlined into it."""
    recipe = getattr(function, "__inlined__", None)
    if recipe is not None:
        caller, callee, name = recipe
        definition = _function_ast(caller)
        callee_def = _function_ast(callee)
        if definition is None or callee_def is None:
            return None
        _TailCalls(name, callee, callee_def, definition.args.args[0].arg).inline_into(definition)
        return definition
    try:
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return None
    source = "".join(lines)
    if source[:1].isspace():  # a method: parsed inside a block, so its columns stay as written
        tree = ast.parse("if 1:\n" + source).body[0]
        ast.increment_lineno(tree, first - 2)
    else:
        tree = ast.parse(source)
        ast.increment_lineno(tree, first - 1)
    definition = tree.body[0]
    if not isinstance(definition, ast.FunctionDef):
        raise InlineError(f"{function.__qualname__} is not a plain function")
    definition.decorator_list = []  # they were applied already; the new function is bare
    return definition


def _global_loads(function: Callable) -> set[str]:
    return {i.argval for i in dis.get_instructions(function) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}


def _check_inlinable(caller: Callable, callee: Callable) -> None:
    """Refuse what inlining would change: another module's globals, closures, `super()`,
    generators, and names a local of one function and a global of the other."""
    name = f"{callee.__qualname__} into {caller.__qualname__}"
    if callee.__globals__ is not caller.__globals__:
        raise InlineError(f"cannot inline {name}: they read different modules' globals")
    for f in (caller, callee):
        code = f.__code__
        if code.co_freevars or code.co_cellvars:
            raise InlineError(f"cannot inline {name}: {f.__qualname__} has a closure or calls super()")
        if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
            raise InlineError(f"cannot inline {name}: {f.__qualname__} is a generator or coroutine")
    clash = (_global_loads(callee) & set(caller.__code__.co_varnames)) | \
            (_global_loads(caller) & set(callee.__code__.co_varnames))
    if clash:
        raise InlineError(f"cannot inline {name}: {', '.join(sorted(clash))} is a local of one and a global of the other")


def _body(definition: ast.FunctionDef) -> list[ast.stmt]:
    """The statements of a definition without its docstring."""
    body = definition.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return body


def _own_nodes(definition: ast.FunctionDef):
    """The nodes of a definition's body, not those of scopes nested in it."""
    todo = list(definition.body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


class _TailCalls:
    """Replaces each tail call `self.<name>(…)` by the bound arguments and the callee's body."""

    def __init__(self, name: str, callee_function: Callable, callee: ast.FunctionDef, self_name: str):
        self.name, self.callee_function, self.callee, self.self_name = name, callee_function, callee, self_name
        self.count = 0
        self.returns_value = any(isinstance(n, ast.Return) and n.value is not None for n in _own_nodes(callee))

    def _is_call(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == self.name and isinstance(node.func.value, ast.Name)
                and node.func.value.id == self.self_name)

    def _binding(self, call: ast.Call) -> list[ast.stmt]:
        """`param, … = arg, …` for the arguments that are not their parameter's own name."""
        params = [a.arg for a in self.callee.args.args[1:]]
        args = self.callee.args
        if call.keywords or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs \
                or len(call.args) != len(params) or any(isinstance(a, ast.Starred) for a in call.args):
            raise InlineError(f"cannot inline self.{self.name}(…) at line {call.lineno}: "
                              f"only a call with one positional argument per parameter is inlined")
        pairs = [(p, a) for p, a in zip(params, call.args) if not (isinstance(a, ast.Name) and a.id == p)]
        if not pairs:
            return []
        at = lambda node: ast.copy_location(node, call)  # the new nodes stand at the call's place
        target = at(ast.Tuple([at(ast.Name(p, ast.Store())) for p, _ in pairs], ast.Store()))
        value = at(ast.Tuple([a for _, a in pairs], ast.Load()))
        return [at(ast.Assign([target], value))]

    def _replacement(self, call: ast.Call) -> list[ast.stmt]:
        # one node may stand in one place only: a call site after the first gets a fresh parse
        definition = self.callee if not self.count else _function_ast(self.callee_function)
        self.count += 1
        return self._binding(call) + _body(definition)

    def inline_into(self, definition: ast.FunctionDef) -> None:
        definition.body = self._block(definition.body, tail=True)

    def _block(self, statements: list[ast.stmt], tail: bool) -> list[ast.stmt]:
        """A block's statements with its tail calls replaced; `tail`: the block ends the function."""
        out: list[ast.stmt] = []
        for i, s in enumerate(statements):
            following = statements[i + 1] if i + 1 < len(statements) else None
            # nothing of the caller runs after `s`: the function's end or a bare `return` follows
            ends = following is None and tail or (isinstance(following, ast.Return) and following.value is None)
            if isinstance(s, ast.Expr) and self._is_call(s.value) and ends:
                if self.returns_value:  # the call's value was dropped; the body's `return x` would not drop it
                    raise InlineError(f"cannot inline self.{self.name}(…) at line {s.lineno}: "
                                      f"it returns a value, which the call drops")
                out += self._replacement(s.value)
                continue
            if isinstance(s, ast.Return) and s.value is not None and self._is_call(s.value):
                out += self._replacement(s.value)
                out.append(ast.copy_location(ast.Return(None), s))  # the callee's end returned None
                continue
            if isinstance(s, ast.If):  # (other compound statements are left alone: `for`, `try`, …)
                s.body = self._block(s.body, tail=ends)
                s.orelse = self._block(s.orelse, tail=ends)
            out.append(s)
        return out


def inlined_function(caller: Callable, callee: Callable, name: str) -> Callable:
    """`caller` with its tail calls `self.<name>(…)` replaced by `callee`'s body, as the
    module's docstring says; `caller` itself when the sources cannot be read."""
    _check_inlinable(caller, callee)
    caller_def, callee_def = _function_ast(caller), _function_ast(callee)
    if caller_def is None or callee_def is None:
        return caller
    self_name = caller_def.args.args[0].arg
    if callee_def.args.args[0].arg != self_name:
        raise InlineError(f"cannot inline {callee.__qualname__}: its first parameter is not {self_name!r}")
    transformer = _TailCalls(name, callee, callee_def, self_name)
    transformer.inline_into(caller_def)
    if not transformer.count:
        raise InlineError(f"{caller.__qualname__} makes no tail call of self.{name}(…) to inline")
    module = ast.Module([caller_def], type_ignores=[])
    flags = __future__.annotations.compiler_flag if caller.__code__.co_flags & __future__.annotations.compiler_flag else 0
    code = compile(module, caller.__code__.co_filename, "exec", flags=flags, dont_inherit=True)
    namespace: dict = {}
    exec(code, caller.__globals__, namespace)
    function = namespace[caller.__name__]
    function.__qualname__ = caller.__qualname__
    function.__kwdefaults__ = caller.__kwdefaults__
    function.__defaults__ = caller.__defaults__
    function.__inlined__ = (caller, callee, name)  # how to make its definition again (_function_ast)
    return function
