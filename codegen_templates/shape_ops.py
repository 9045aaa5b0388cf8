"""shape_ops ops."""
import numpy as np

from npspore import shape_rules as rules
from npspore.opdef import op
