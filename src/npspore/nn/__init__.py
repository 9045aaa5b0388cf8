"""Neural-network Cells: the Cell base class, layers, containers and losses."""
__all__ = []
