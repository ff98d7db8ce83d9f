"""Pure-Python stand-ins for the two compiled libraries the checker's scenario loading imports, which have no build
for the browser: shipped only in the browser's bundle of the engine (:mod:`checker.site.askbundle`), at the top
level, under the names of the libraries they stand in for.

* :mod:`.jsonschema_rs`: ``Draft7Validator.is_valid`` by the pure-Python ``jsonschema``, which the checker already
  uses for its located messages: the same answers, the same messages, from one library instead of two.
* :mod:`.rpds`: the persistent map, set and list that ``referencing`` (``jsonschema``'s) builds its registries of
  schemas with, as plain immutable Python collections that copy on write: a registry holds a few dozen schemas.
"""
