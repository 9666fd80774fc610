"""The array type of the families' observation encodings (NumPy ``float32`` vectors)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Floats32 = npt.NDArray[np.float32]
"""An observation or information-state tensor."""

__all__ = ["Floats32"]
