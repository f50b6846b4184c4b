"""Small helpers for the SVG pictures of every game (written with xml.etree, no plotting
library needed)."""

import xml.etree.ElementTree as ET


def element(parent, tag, text=None, **attrs):
    """A child element; `class_` becomes "class" and other underscores become hyphens."""
    names = {k: ("class" if k == "class_" else k.replace("_", "-")) for k in attrs}
    el = ET.SubElement(parent, tag, {names[k]: str(v) for k, v in attrs.items()})
    if text is not None:
        el.text = text
    return el


def number(x):
    """A coordinate with at most two decimals and no trailing zeros."""
    return f"{x:.2f}".rstrip("0").rstrip(".")
