"""The op table's definitions, one module per family (see ``npspore.opdef`` for the format)."""
