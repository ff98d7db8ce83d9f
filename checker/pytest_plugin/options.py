"""The plugin's options as the items read them, kept apart so that the plugin need not import the items to set them."""

from __future__ import annotations

import pytest

#: How many scenario files one pytest item checks at most (``scenario_group_size``), as the plugin read it.
GROUP_SIZE = pytest.StashKey[int]()
