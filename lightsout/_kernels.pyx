# placeholder
from libc.stdint cimport uint64_t
from lightsout._bitrow cimport xor_into, apply_T

def _probe():
    return 1
