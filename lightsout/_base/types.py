"""Type aliases shared by the Python modules."""
from __future__ import annotations

from typing import Callable, Optional

#: progress(stage, done, total), called between chunks of the long loops.
Progress = Optional[Callable[[str, int, int], None]]
