"""Find the smallest elements of a redrawn fragment that differ from the fragment before.

An edit response redraws a section and compares it with the same section drawn before the
write. Sending the whole section when one wound box or one skill code changed costs kilobytes
per click; sending only the elements that changed, each found by its id and swapped out of
band, costs a few hundred bytes. Both drawings come from the same template, so an element
whose markup reads the same is the same element.

The parse is deliberately strict: any markup it cannot follow exactly (an unclosed or
misnested tag, a repeated id) gives no answer, and the caller swaps the whole section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe

# Elements that never have an end tag, so never hold children.
_VOID = frozenset(
    {
        *("area", "base", "br", "col", "embed", "hr", "img"),
        *("input", "link", "meta", "param", "source", "track", "wbr"),
    }
)
OOB = ' hx-swap-oob="true"'
# Elements an HTML parser drops outside their table or list, as htmx would read them in a
# response after other elements: sent inside a <template>, which htmx unwraps for an
# out-of-band swap.
_IN_TEMPLATE = frozenset(
    {"tr", "td", "th", "thead", "tbody", "tfoot", "caption", "col", "colgroup", "li", "option"}
)
# A sheet row goes whole or not at all: it holds its refusal message and the value typed,
# which the page shows since the last response and a redraw of part of it would leave.
_WHOLE_CLASSES = frozenset({"trait"})
# Every such class name holds this: a substring test rules most elements out at once.
_WHOLE_HINT = "trait"
assert all(_WHOLE_HINT in name for name in _WHOLE_CLASSES)


@dataclass(slots=True)
class _Element:
    tag: str
    id: str | None
    whole: bool  # sent whole when anything in it changed
    start: int  # where "<tag" begins
    start_end: int  # just after the start tag's ">"
    end: int  # just after the end tag
    inner_end: int  # where the end tag begins (start_end for an element without one)
    children: list[_Element]


def _texts(element: _Element, source: str) -> list[str]:
    """The text (and anything not an element) between the element's children: read only
    for an element that changed, so the parse does not cut it for every element."""
    texts, position = [], element.start_end
    for child in element.children:
        texts.append(source[position : child.start])
        position = child.end
    texts.append(source[position : element.inner_end])
    return texts


class _Unreadable(Exception):
    """Markup the strict parse does not follow: swap the whole fragment instead."""


# A tag, a comment, or a "<" that begins neither (which escaped text never holds).
_MARKUP = re.compile(
    r"<(?P<close>/?)(?P<tag>[a-zA-Z][a-zA-Z0-9-]*)"
    r"(?P<attrs>[^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*)>"
    r"|(?P<comment><!--.*?-->)|<",
    re.S,
)
_ID = re.compile(r'\sid="([^"]*)"')
_CLASS = re.compile(r'\sclass="([^"]*)"')
# Elements whose content is not markup: never in a sheet's sections, so never followed.
_RAW_TEXT = frozenset({"script", "style"})


def _parse(source: str) -> _Element:
    """Read the markup as a tree of elements with their places in `source`.

    A regular expression, not html.parser: this runs on every section of every edit, and
    the templates' output is regular (double-quoted attributes, text escaped).
    """
    root = _Element("", None, False, 0, 0, len(source), len(source), [])
    stack = [root]
    ids: set[str] = set()
    for found in _MARKUP.finditer(source):
        close, tag, attrs, comment = found.groups()
        if comment:
            continue
        if not tag:
            raise _Unreadable("a < that starts no tag")
        tag = tag.lower()
        if tag in _RAW_TEXT:
            raise _Unreadable("a script or style")
        if close:
            if tag in _VOID:
                continue
            current = stack[-1]
            if len(stack) < 2 or current.tag != tag:
                raise _Unreadable(f"</{tag}> does not close the open element")
            current.inner_end, current.end = found.span()
            stack.pop()
            continue
        element_id = whole = None
        if 'id="' in attrs:
            named = _ID.search(attrs)
            element_id = named.group(1) if named else None
            if element_id in ids:
                raise _Unreadable(f"id {element_id} twice")
            ids.add(element_id)
        if _WHOLE_HINT in attrs:
            classes = _CLASS.search(attrs)
            whole = classes and not _WHOLE_CLASSES.isdisjoint(classes.group(1).split())
        start, end = found.span()
        element = _Element(tag, element_id, bool(whole), start, end, end, end, [])
        stack[-1].children.append(element)
        if tag not in _VOID and not attrs.endswith("/"):
            stack.append(element)
    if len(stack) != 1:
        raise _Unreadable("an element is never closed")
    return root


def _differing(old: _Element, new: _Element, old_src: str, new_src: str) -> list[_Element]:
    """The smallest elements with an id under `new` that cover every difference from `old`."""
    if old_src[old.start : old.end] == new_src[new.start : new.end]:
        return []
    whole = [new] if new.id is not None and new.id == old.id else None
    same_shape = (
        old.tag == new.tag
        and old_src[old.start : old.start_end] == new_src[new.start : new.start_end]
        and _texts(old, old_src) == _texts(new, new_src)
        and [c.tag for c in old.children] == [c.tag for c in new.children]
        and [c.id for c in old.children] == [c.id for c in new.children]
    )
    if not same_shape or (new.whole and whole is not None):
        if whole is None:
            raise _Unreadable(f"<{new.tag}> changed and has no id to swap it by")
        return whole
    found: list[_Element] = []
    for old_child, new_child in zip(old.children, new.children, strict=True):
        try:
            found += _differing(old_child, new_child, old_src, new_src)
        except _Unreadable:
            if whole is None:
                raise
            return whole
    return found


@dataclass(frozen=True, slots=True)
class Parsed:
    """A fragment with its tree, read once: an edit response keeps the sections it drew, read,
    to compare the next edit's drawing with. `tree` is None for markup the parse does not
    follow."""

    source: str
    tree: _Element | None


def parsed(source: str) -> Parsed:
    try:
        return Parsed(source, _parse(source))
    except _Unreadable:
        return Parsed(source, None)


def changed_elements(old: str | Parsed, new: str | Parsed) -> list[SafeString] | None:
    """The elements of `new` (each marked to swap out of band by its id) that replace what
    changed since `old`, or None when only the whole fragment will do."""
    old = old if isinstance(old, Parsed) else parsed(old)
    new_read = new if isinstance(new, Parsed) else parsed(new)
    before, after, new = old.tree, new_read.tree, new_read.source
    if before is None or after is None:
        return None
    if len(before.children) != 1 or len(after.children) != 1:
        return None
    try:
        found = _differing(before.children[0], after.children[0], old.source, new)
    except _Unreadable:
        return None
    pieces = []
    for element in found:
        start_tag = new[element.start : element.start_end]
        if OOB.strip() not in start_tag:
            cut = -2 if start_tag.endswith("/>") else -1
            start_tag = start_tag[:cut] + OOB + start_tag[cut:]
        # Cut from a template's own escaped output, so as safe as the whole it came from.
        piece = start_tag + new[element.start_end : element.end]
        if element.tag in _IN_TEMPLATE:
            piece = f"<template>{piece}</template>"
        pieces.append(mark_safe(piece))
    return pieces
