"""Every public name of the Python API resolves and is documented. (The help of every verb:
tests/test_cli_app.py.)"""

from __future__ import annotations

import pytest

import sciner


@pytest.mark.parametrize("name", sciner.__all__)
def test_public_name_resolves_and_has_a_docstring(name):
    obj = getattr(sciner, name)
    if callable(obj):
        assert obj.__doc__ and obj.__doc__.strip(), f"{name} has no docstring"

