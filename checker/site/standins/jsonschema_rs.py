"""``jsonschema_rs``'s ``Draft7Validator.is_valid``, by the pure-Python ``jsonschema``.

The checker asks a compiled validator whether data is valid and asks ``jsonschema`` where and why only when it is not
(:class:`checker.format.schema.Validator`); here both answers come from ``jsonschema``, which decides validity by the
same draft-07 rules.
"""

from __future__ import annotations

from typing import Any

import jsonschema


class Draft7Validator:
    def __init__(self, schema: dict[str, Any]) -> None:
        self._validator = jsonschema.Draft7Validator(schema)

    def is_valid(self, instance: Any) -> bool:
        return bool(self._validator.is_valid(instance))
