"""The ground floor: what every other floor, the compiled kernels included, may import.

- ``errors``: every exception of the package, and the one builder of UnsolvableError.
- ``validate``: the one place for input checks, so every function words a mistake the same way
  (the one 0/1 check, ``zero_one``, among them).
- ``packing``: the one packer, 0/1 arrays to packed uint64 words and back (``words_for_bits``).
- ``types``: shared type aliases.
- ``extras``: optional dependencies, imported with a hint naming the extra that installs them.

Nothing here imports from the floors above.
"""
