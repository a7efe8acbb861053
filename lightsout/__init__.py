"""lightsout: fast Lights Out solver on bit-packed GF(2) kernels."""
__version__ = "0.1.0"
