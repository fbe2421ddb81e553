"""The sandbox user templates run in: Jinja's immutable sandbox, with a bound on time, loops and text.

Jinja's sandbox keeps a template away from Python's internals, not from running for ever: two
nested ``{% for i in range(100000) %}`` loops, ``{{ 9 ** 9 ** 9 }}``, a string doubled in a loop or
``"x"|center(10 ** 9)`` hold a render (a build, a live preview) for hours or take all memory. A
template from a notes folder runs here with limits (docs/security.md, "Limits"): every ``for``
loop counts its turns, a wall clock is read at every call, attribute and loop turn, the text it
makes (joined output, ``~``, ``*``, filters) is counted, and numbers given to filters and
methods (widths, counts) are bounded. Past a limit the render stops with ``TemplateLimit``.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from jinja2 import nodes, pass_eval_context
from jinja2.ext import Extension
from jinja2.filters import do_format
from jinja2.nodes import EvalContext
from jinja2.runtime import Context, Macro, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import _PassArg
from jinja2.visitor import NodeTransformer

#: A render of user templates stops after this many seconds (wall clock) ...
TEMPLATE_SECONDS = 30.0
#: ... after this many turns of its ``for`` loops, in all ...
TEMPLATE_LOOP_TURNS = 5_000_000
#: ... or once it has made this many characters of text, in all (output and strings it builds).
TEMPLATE_CHARACTERS = 128 * 1024 * 1024
#: The largest number a filter, function or method takes (a width, a count) and the longest string
#: or list one ``*`` or ``+`` makes; ``**`` and ``*`` of numbers stop past this many bits.
TEMPLATE_NUMBER = 100_000
TEMPLATE_STRING = 16 * 1024 * 1024
TEMPLATE_BITS = 4096

#: a width or precision in a ``%`` or ``format`` spec past TEMPLATE_NUMBER, or one taken from an argument (``*``)
_WIDE_SPEC = re.compile(r"%[-#0 +]*(\*|\d{6,})|%[-#0 +]*\d*\.(\*|\d{6,})|\{[^{}]*:[^{}]*\d{6,}[^{}]*\}")


class TemplateLimit(Exception):
    """A user template ran past one of its limits (the message says which)."""


@dataclass
class _Budget:
    deadline: float
    turns: int = 0
    characters: int = 0

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise TemplateLimit(f"it ran longer than {TEMPLATE_SECONDS:g} s")

    def made(self, value: Any) -> Any:
        if isinstance(value, str):
            self.characters += len(value)
            if self.characters > TEMPLATE_CHARACTERS:
                raise TemplateLimit(f"it made more than {TEMPLATE_CHARACTERS >> 20} M characters of text")
        return value


_BUDGET: ContextVar[_Budget | None] = ContextVar("confnotes_template_budget", default=None)


@contextmanager
def limited() -> Iterator[None]:
    """Renders inside this block count against one budget (a template and all it includes)."""
    token = _BUDGET.set(_Budget(time.monotonic() + TEMPLATE_SECONDS))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _budget() -> _Budget | None:
    return _BUDGET.get()


def _tick() -> None:
    budget = _BUDGET.get()
    if budget is not None:
        budget.tick()


def _bounded(values: Iterable[Any]) -> None:
    """Numbers given to a filter, function or method (a width, a count) stay within TEMPLATE_NUMBER."""
    for value in values:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > TEMPLATE_NUMBER:
            raise TemplateLimit(f"a number larger than {TEMPLATE_NUMBER:,} was given to a filter or function ({value:.3g})")


def _bounded_spec(text: str) -> None:
    """A ``%`` or ``format`` string's widths stay within TEMPLATE_NUMBER (``%*d`` takes one from its arguments)."""
    if _WIDE_SPEC.search(text):
        raise TemplateLimit(f"a format width over {TEMPLATE_NUMBER:,} (or one taken from an argument)")


class LoopBudget(Extension):
    """Counts the turns of every ``for`` loop: ``LimitedSandbox`` wraps each loop's iterable in
    ``loop`` (reached through the extension, so a template cannot shadow or call around it)."""

    def loop(self, iterable: Iterable[Any]) -> Iterator[Any]:
        budget = _BUDGET.get()
        for item in iterable:
            if budget is not None:
                budget.turns += 1
                if budget.turns > TEMPLATE_LOOP_TURNS:
                    raise TemplateLimit(f"it ran more than {TEMPLATE_LOOP_TURNS:,} loop turns")
                if not budget.turns % 256:
                    budget.tick()
            yield item

    @pass_eval_context
    def join(self, eval_ctx: EvalContext, *parts: Any) -> str:
        """``a ~ b``: joined as Jinja joins them (escaped where the template is), and counted."""
        text = markup_join(parts) if eval_ctx.autoescape else str_join(parts)
        budget = _BUDGET.get()
        return budget.made(text) if budget is not None else text


class _Counted(NodeTransformer):
    """Each ``for`` loop's iterable through ``LoopBudget.loop``, each ``~`` through ``LoopBudget.join``."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)
        node.iter = nodes.Call(nodes.ExtensionAttribute(LoopBudget.identifier, "loop"), [node.iter], [], None, None)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        return nodes.Call(nodes.ExtensionAttribute(LoopBudget.identifier, "join"), list(node.nodes), [], None, None, lineno=node.lineno)


class LimitedSandbox(ImmutableSandboxedEnvironment):
    """``ImmutableSandboxedEnvironment`` with the limits of this module (active inside ``limited()``)."""

    intercepted_binops = frozenset(("*", "**", "+", "%"))

    def __init__(self, **options: Any) -> None:
        super().__init__(extensions=[LoopBudget], **options)
        self.globals.pop("lipsum", None)  # paragraphs of filler on demand: a way to make text, no use in a page
        self.filters = {name: _limited_filter(function) for name, function in self.filters.items()}
        self.concat = self._concat  # type: ignore[method-assign]

    def _concat(self, pieces: Iterable[str]) -> str:
        budget = _BUDGET.get()
        if budget is None:
            return "".join(pieces)
        out: list[str] = []
        for index, piece in enumerate(pieces):
            out.append(budget.made(piece))
            if not index % 256:
                budget.tick()
        return "".join(out)

    def _generate(self, source: nodes.Template, name: str | None, filename: str | None, defer_init: bool = False) -> str:
        """The template compiled with each loop's iterable counted and each ``~`` measured."""
        counted = _Counted().visit(source)
        return super()._generate(counted, name, filename, defer_init)

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _tick()
        if not isinstance(__obj, Macro) and not isinstance(getattr(__obj, "__self__", None), LoopBudget):
            _bounded(args)  # a width, a count; a macro's arguments are the template's own data
            _bounded(kwargs.values())
            if getattr(__obj, "__name__", "") in ("format", "format_map"):  # str.format, as the sandbox wraps it
                bound = getattr(__obj, "__wrapped__", __obj)
                if isinstance(getattr(bound, "__self__", None), str):
                    _bounded_spec(bound.__self__)
        result = super().call(__context, __obj, *args, **kwargs)
        budget = _BUDGET.get()
        return budget.made(result) if budget is not None else result

    def getattr(self, obj: Any, attribute: str) -> Any:
        _tick()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        _tick()
        return super().getitem(obj, argument)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        _tick()
        _check_binop(operator, left, right)
        result = super().call_binop(context, operator, left, right)
        if isinstance(result, int) and result.bit_length() > TEMPLATE_BITS:
            raise TemplateLimit(f"a number longer than {TEMPLATE_BITS} bits")
        budget = _BUDGET.get()
        return budget.made(result) if budget is not None else result


def _check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse an operation whose result would be too large before Python makes it."""
    if operator == "**" and isinstance(left, int | float) and isinstance(right, int | float):
        if abs(right) > 64 and abs(left) > 1:
            raise TemplateLimit(f"a power too large ({left!r} ** {right!r})")
    elif operator == "*":
        for sequence, count in ((left, right), (right, left)):
            if isinstance(sequence, str | list | tuple) and isinstance(count, int) and len(sequence) * count > TEMPLATE_STRING:
                raise TemplateLimit(f"a string or list longer than {TEMPLATE_STRING >> 20} M items")
    elif operator == "+" and isinstance(left, str | list | tuple) and isinstance(right, str | list | tuple):
        if len(left) + len(right) > TEMPLATE_STRING:
            raise TemplateLimit(f"a string or list longer than {TEMPLATE_STRING >> 20} M items")
    elif operator == "%" and isinstance(left, str):
        _bounded_spec(left)


def _limited_filter(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter whose numbers are bounded and whose text is counted (Jinja's ``pass_context`` and
    the like are kept: ``functools.wraps`` copies the marks Jinja reads)."""

    given = 2 if _PassArg.from_obj(function) is not None else 1  # a context, environment or eval context comes first

    @functools.wraps(function)
    def limited_filter(*args: Any, **kwargs: Any) -> Any:
        # numbers are checked even outside a render: Jinja calls filters on constants as it compiles
        _tick()
        _bounded(args[given:])  # the value filtered is data; what follows it are the filter's widths and counts
        _bounded(kwargs.values())
        if function is do_format and len(args) > given - 1 and isinstance(args[given - 1], str):
            _bounded_spec(args[given - 1])
        result = function(*args, **kwargs)
        budget = _BUDGET.get()
        return budget.made(result) if budget is not None else result

    return limited_filter
