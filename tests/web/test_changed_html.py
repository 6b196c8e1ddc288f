"""The smallest elements of a redrawn section that differ from its drawing before an edit.

Each answer is checked the way a browser would use it, with an independent HTML5 parser
(tinyhtml5, WeasyPrint's): the old markup with each sent element swapped in by its id must
read exactly as the new markup.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import tinyhtml5
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets.characters.layouts.changed_html import changed_elements


def _body(markup: str) -> ET.Element:
    # A plain str: the parser takes any other kind of string for a file name.
    text = markup.encode().decode()
    return tinyhtml5.parse(text, namespace_html_elements=False).find("body")


def _swapped_in(old: str, pieces: list[str]) -> ET.Element:
    """`old` parsed, with each piece put where the element of its id was (htmx's oob swap)."""
    body = _body(old)
    parents = {child: parent for parent in body.iter() for child in parent}
    for piece in pieces:
        (new,) = list(_body(piece))
        assert new.attrib.pop("hx-swap-oob") == "true"
        (was,) = [e for e in body.iter() if e.get("id") == new.get("id")]
        new.tail = was.tail
        parent = parents[was]
        position = list(parent).index(was)
        parent.remove(was)
        parent.insert(position, new)
        parents.update({child: parent for parent in new.iter() for child in parent})
        parents[new] = parent
    return body


def _same(a: ET.Element, b: ET.Element) -> bool:
    return ET.tostring(a) == ET.tostring(b)


def _without_oob(markup: str) -> str:
    return markup.replace(' hx-swap-oob="true"', "")


SECTION = (
    '<div class="section-body" id="body" hx-swap-oob="true">\n'
    '<p class="help">Click a box.</p>\n'
    "<table><tbody>\n"
    '<tr id="row-a" class="{a_state}"><th>Arm</th><td>'
    '<button id="box-a0" class="box {a0}">{a0_mark}</button>'
    '<button id="box-a1" class="box empty"></button></td></tr>\n'
    '<tr id="row-b" class="unhurt"><th>Leg</th><td>'
    '<button id="box-b0" class="box empty"></button></td></tr>\n'
    "</tbody></table>\n"
    "</div>"
)


def _section(a_state="unhurt", a0="empty", a0_mark=""):
    return SECTION.format(a_state=a_state, a0=a0, a0_mark=a0_mark)


def test_one_box_changed_sends_that_box_only():
    old, new = _section(), _section(a0="shock")
    pieces = changed_elements(old, new)
    assert pieces == ['<button id="box-a0" class="box shock" hx-swap-oob="true"></button>']


def test_a_changed_row_and_box_send_the_row_that_holds_both():
    old, new = _section(), _section(a_state="hurt", a0="shock", a0_mark="/")
    (piece,) = changed_elements(old, new)
    # In a <template>, or the parser would drop the row's tags outside its table.
    assert piece.startswith('<template><tr id="row-a" class="hurt" hx-swap-oob="true">')
    assert piece.endswith("</tr></template>") and "row-b" not in piece


def test_a_sheet_row_goes_whole_so_its_old_refusal_goes_with_it():
    row = (
        '<div id="s"><div class="trait number" id="trait-x">'
        '<input id="input-trait-x" value="{}"><span class="next">{}</span></div></div>'
    )
    old, new = row.format(3, "next: 4"), row.format(4, "next: 4")
    (piece,) = changed_elements(old, new)
    assert piece.startswith('<div class="trait number" id="trait-x" hx-swap-oob="true">')
    # An element of another kind sends only its changed input.
    other = old.replace("trait number", "box"), new.replace("trait number", "box")
    assert changed_elements(*other) == ['<input id="input-trait-x" value="4" hx-swap-oob="true">']


def test_the_same_markup_sends_nothing():
    assert changed_elements(_section(), _section()) == []


def test_a_change_in_an_element_without_id_sends_its_nearest_id():
    old = '<div id="s"><div id="r"><span>3D</span><span class="x">a</span></div></div>'
    new = '<div id="s"><div id="r"><span>3D+1</span><span class="x">a</span></div></div>'
    assert changed_elements(old, new) == [
        '<div id="r" hx-swap-oob="true"><span>3D+1</span><span class="x">a</span></div>'
    ]


def test_a_row_added_sends_the_whole_list_or_the_whole_section():
    old = '<div id="s"><ul id="l"><li id="a">a</li></ul></div>'
    new = '<div id="s"><ul id="l"><li id="a">a</li><li id="b">b</li></ul></div>'
    assert changed_elements(old, new) == [
        '<ul id="l" hx-swap-oob="true"><li id="a">a</li><li id="b">b</li></ul>'
    ]


def test_markup_it_cannot_follow_gives_no_answer():
    # Then the caller sends the whole section.
    assert changed_elements('<div id="s"><p>a</div>', '<div id="s"><p>b</div>') is None
    assert (
        changed_elements('<div id="s"><p id="x">a</p><p id="x">b</p></div>', "<div></div>") is None
    )
    # A change with no element of an id above it.
    assert changed_elements("<div><p>a</p></div>", "<div><p>b</p></div>") is None
    # Two elements at the top: not one section.
    assert (
        changed_elements('<p id="a">a</p><p id="b">b</p>', '<p id="a">a</p><p id="b">c</p>') is None
    )


def test_text_and_entities_in_a_piece_are_cut_as_drawn():
    old = '<div id="s"><p id="p">Tom &amp; Jerry&#x27;s</p><input id="i" value="a"></div>'
    new = '<div id="s"><p id="p">Tom &amp; Jerry&#x27;s!</p><input id="i" value="&lt;b&gt;"></div>'
    pieces = changed_elements(old, new)
    assert pieces == [
        '<p id="p" hx-swap-oob="true">Tom &amp; Jerry&#x27;s!</p>',
        '<input id="i" value="&lt;b&gt;" hx-swap-oob="true">',
    ]
    assert _same(_swapped_in(old, pieces), _body(_without_oob(new)))


# --- any tree, any change ------------------------------------------------------------------

# Elements an HTML5 parser nests as written (a <p> in a <p>, or an <li> in an <li>, it would
# close first), so that the parser checks the swap, not its own repairs.
TAGS = ("div", "span", "b", "em", "section")
TEXT = st.sampled_from(["", "a", "3D+1", "Tom &amp; Jerry", "\n", " x "])


@st.composite
def trees(draw, depth: int = 0) -> dict:
    children = [] if depth >= 3 else draw(st.lists(trees(depth + 1), max_size=3))
    return {
        "tag": draw(st.sampled_from(TAGS)),
        "has_id": depth == 0 or draw(st.integers(0, 3)) > 0,
        "class": draw(st.sampled_from(["", "a", "b"])),
        "texts": [draw(TEXT) for _ in range(len(children) + 1)],
        "children": children,
        "input": draw(st.booleans()),
        "value": draw(st.sampled_from(["1", "2"])),
    }


@st.composite
def changed(draw, tree: dict) -> dict:
    """The tree with some of its classes, texts, values and children changed."""
    copy = dict(tree)
    if draw(st.integers(0, 9)) == 0:
        copy["class"] = draw(st.sampled_from(["", "a", "b", "c"]))
    if draw(st.integers(0, 9)) == 0:
        copy["texts"] = [draw(TEXT) for _ in tree["texts"]]
    if draw(st.integers(0, 9)) == 0:
        copy["value"] = draw(st.sampled_from(["1", "2", "3"]))
    children = [draw(changed(child)) for child in tree["children"]]
    if draw(st.integers(0, 19)) == 0:
        children.append({**tree, "children": [], "texts": ["added"]})
        copy["texts"] = [*copy["texts"], ""]
    copy["children"] = children
    return copy


def _markup(tree: dict, ids: list[int]) -> str:
    ids[0] += 1
    identity = f' id="e{ids[0]}"' if tree["has_id"] else ""
    inner = tree["texts"][0]
    for child, text in zip(tree["children"], tree["texts"][1:], strict=True):
        inner += _markup(child, ids) + text
    if tree["input"]:
        inner += f'<input value="{tree["value"]}">'
    tag = tree["tag"]
    return f'<{tag}{identity} class="{tree["class"]}">{inner}</{tag}>'


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_swapping_the_pieces_into_the_old_markup_gives_the_new(data):
    tree = data.draw(trees())
    old = _markup(tree, [0])
    new = _markup(data.draw(changed(tree)), [0])
    pieces = changed_elements(old, new)
    if pieces is None:
        return  # the whole section goes, which is right by construction
    for piece in pieces:
        assert ' id="' in piece.split(">", 1)[0] and 'hx-swap-oob="true"' in piece
    assert _same(_swapped_in(old, pieces), _body(new))
    if old == new:
        assert pieces == []
