"""Make user-given strings safe to print (no import cost)."""

from __future__ import annotations

import re

_URL_CREDENTIALS = re.compile(r"(//)[^/@\s]+@")


def redact_spec(spec: str) -> str:
    """A model spec safe to print: ``user:secret@`` in a URL becomes ``***@``.
    Backends refuse such URLs, but progress lines are printed before they load."""
    return _URL_CREDENTIALS.sub(r"\1***@", str(spec))
