"""paddle._C_ops: see paddle_compat/paddle2/utils/c_ops.py."""
from paddle_compat.paddle2.utils.c_ops import module_getattr

__getattr__ = module_getattr(__name__)
