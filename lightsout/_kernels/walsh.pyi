"""Type stub for the compiled fewest-presses kernels (lightsout._kernels.walsh and its SIMD builds)."""
import numpy as np
import numpy.typing as npt

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str
#: Bytes of one counter vector of the Walsh kernel in this build.
VEC_BYTES: int
#: Lane coordinates per vector with 16-bit counters.
LANE_BITS16: int
#: Lane coordinates per vector with 32-bit counters.
LANE_BITS32: int
#: Transform levels done in registers per pass.
RADIX_BITS: int
#: Largest sum of |values| that 16-bit counters hold.
MAX_SUM16: int
#: Largest array_bits of search_tasks.
MAX_ARRAY_BITS: int

def search_tasks(
    forms: npt.NDArray[np.uint64],
    values: npt.NDArray[np.int32],
    nullity: int,
    array_bits: int,
    lane_bits: int,
    task_start: int,
    task_stop: int,
    bound: int,
    wide: bool,
) -> tuple[bool, int, int]: ...
def search_task_list(
    forms: npt.NDArray[np.uint64],
    values: npt.NDArray[np.int32],
    nullity: int,
    array_bits: int,
    lane_bits: int,
    tasks: npt.NDArray[np.uint64],
    bound: int,
    wide: bool,
) -> tuple[bool, int, int, npt.NDArray[np.int64]]: ...
def coset_leader_counts(
    inner: npt.NDArray[np.int16],
    delta: npt.NDArray[np.int16],
    base: npt.NDArray[np.int16],
    modulus: int,
    nvalid: int,
    start: int,
    stop: int,
    ncounts: int,
) -> npt.NDArray[np.int64]: ...
