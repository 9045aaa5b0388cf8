"""The leaf core: what every layer may import and that imports nothing of npspore's API.

``version`` (the package version), ``tree`` (flatten/unflatten of nested call values).
The op table and its rules stay at their template-facing paths (``npspore.opdef``,
``npspore.shape_rules``) and belong to this layer.
"""
