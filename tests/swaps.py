"""Apply an htmx edit response to the page it answers, as the browser does, for tests.

htmx swaps each element of the response marked `hx-swap-oob="true"` in place of the page's
element of the same id. Both are read with an HTML5 parser independent of the app's
(tinyhtml5, WeasyPrint's), so a test can compare the page after an edit with the page drawn
fresh, or look up what a row shows after it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import tinyhtml5

# Elements an HTML5 parser drops outside their table or list: parsed inside one instead.
_CONTEXT = {
    "tr": ("<table><tbody>", "tbody"),
    "td": ("<table><tbody><tr>", "tr"),
    "th": ("<table><tbody><tr>", "tr"),
    "tbody": ("<table>", "table"),
    "thead": ("<table>", "table"),
    "option": ("<select>", "select"),
}
_OOB = re.compile(r'<(\w+)[^>]*\bhx-swap-oob="true"')


def parse(markup: str) -> ET.Element:
    """The <body> of a page or fragment."""
    text = str.__str__(markup).encode().decode()  # a plain str: the parser opens paths
    return tinyhtml5.parse(text, namespace_html_elements=False).find("body")


def _fragments(response: str) -> list[ET.Element]:
    """The response's out-of-band elements, each parsed in the context it needs."""
    found = []
    # A <template> only carries a table's row or cell past the parser: htmx unwraps it.
    response = response.replace("<template>", "").replace("</template>", "")
    starts = [m.start() for m in _OOB.finditer(response)]
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(response)
        tag = _OOB.match(response, start).group(1).lower()
        wrapper, parent = _CONTEXT.get(tag, ("", "body"))
        body = parse(wrapper + response[start:end])
        holder = body if parent == "body" else body.find(f".//{parent}")
        element = next(e for e in holder if e.get("hx-swap-oob") == "true")
        del element.attrib["hx-swap-oob"]
        found.append(element)
    return found


def after_swaps(page: str, response: str) -> ET.Element:
    """The page's body once every out-of-band element of `response` took its place."""
    body = parse(page)
    for new in _fragments(response):
        parents = {child: parent for parent in body.iter() for child in parent}
        matches = [e for e in body.iter() if e.get("id") == new.get("id")]
        assert len(matches) == 1, f"the page has {len(matches)} elements #{new.get('id')}"
        (old,) = matches
        parent = parents[old]
        new.tail = old.tail
        position = list(parent).index(old)
        parent.remove(old)
        parent.insert(position, new)
    return body


def by_id(body: ET.Element, element_id: str) -> ET.Element:
    (element,) = [e for e in body.iter() if e.get("id") == element_id]
    return element


def text_of(element: ET.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def markup_of(element: ET.Element) -> str:
    return ET.tostring(element, encoding="unicode", method="html")


def comparable(element: ET.Element) -> str:
    """The element's markup with what differs between two drawings of one page evened out:
    whitespace between tags (an edit response drops indentation) and the CSRF tokens (masked
    afresh each time)."""
    for node in element.iter():
        node.text = " ".join(node.text.split()) if node.text else None
        node.tail = " ".join(node.tail.split()) if node.tail else None
        if node.get("name") == "csrfmiddlewaretoken":
            node.set("value", "")
    return ET.tostring(element, encoding="unicode", method="html")
