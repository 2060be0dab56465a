"""paddle.static.nn names of Paddle 2.x that are fluid.layers functions (same signature, same body), the
2.x static embedding (lookup_table_v2: ids of any shape, no trailing 1), sparse_embedding and deform_conv2d,
and paddle.nn.functional.sequence_mask (fluid.layers.sequence_mask's op)."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.framework.registry import EXPORTS, alias, export, partial

_SEQUENCE = ("sequence_concat", "sequence_conv", "sequence_enumerate", "sequence_expand", "sequence_expand_as",
             "sequence_first_step", "sequence_last_step", "sequence_pad", "sequence_pool", "sequence_reshape",
             "sequence_reverse", "sequence_scatter", "sequence_slice", "sequence_softmax", "sequence_unpad")
for _name in _SEQUENCE:
    alias(f"paddle.fluid.layers.{_name}", f"paddle.static.nn.{_name}", f"paddle.static.nn.sequence_lod.{_name}")
alias("paddle.fluid.layers.sequence_mask", "paddle.nn.functional.sequence_mask")


def embedding(input: Any, size: Any, is_sparse: bool = False, is_distributed: bool = False,  # noqa: A002
              padding_idx: Any = None, param_attr: Any = None, dtype: str = "float32") -> Any:
    """paddle.static.nn.embedding: a [vocab, dim] parameter `embedding_N.w_0` looked up by int64 ids of any
    shape (out: ids.shape + [dim]); a negative padding_idx counts from the end of the vocabulary."""
    from paddle_compat.engine.framework.dispatch import layer_helper
    from paddle_compat.engine.static.param import embedding_table

    api = "paddle.static.nn.embedding"
    if len(size) != 2:
        raise ValueError(f"{api}: size should be [vocab_size, embedding_dim], but received {size}")
    if str(getattr(input, "dtype", "")).split(".")[-1] not in ("int64", "VarType.INT64"):
        raise TypeError(f"{api}: The data type of 'input' must be int64, but received {input.dtype}")
    with layer_helper("embedding") as prefix:
        w, pad = embedding_table(size, dtype, param_attr, is_sparse, padding_idx, prefix)
        return EXPORTS["paddle.nn.functional"]["embedding"](input, w, padding_idx=pad, sparse=is_sparse)


def sparse_embedding(input: Any, size: Any, padding_idx: Any = None, is_test: bool = False,  # noqa: A002
                     entry: Any = None, table_class: str = "MemorySparseTable", param_attr: Any = None,
                     dtype: str = "float32", slot: Any = None) -> Any:
    """A parameter-server embedding in Paddle; here the table is a local parameter (embedding with
    is_sparse=True), so a single-process program trains and infers the same."""
    if table_class not in ("MemorySparseTable", "SSDSparseTable"):
        raise ValueError(f"paddle.static.nn.sparse_embedding: table_class must be in [MemorySparseTable, "
                         f"SSDSparseTable], but received {table_class}")
    return embedding(input, size, is_sparse=True, padding_idx=padding_idx, param_attr=param_attr, dtype=dtype)


def deform_conv2d(x: Any, offset: Any, mask: Any, num_filters: int, filter_size: Any, stride: Any = 1,
                  padding: Any = 0, dilation: Any = 1, groups: int = 1, deformable_groups: int = 1,
                  im2col_step: int = 1, weight_attr: Any = None, bias_attr: Any = None, name: Any = None) -> Any:
    """Deformable convolution v2 (v1 when mask is None): fluid.layers.deformable_conv with 2.x names."""
    return EXPORTS["paddle.fluid.layers"]["deformable_conv"](
        x, offset, mask, num_filters, filter_size, stride=stride, padding=padding, dilation=dilation, groups=groups,
        deformable_groups=deformable_groups, im2col_step=im2col_step, param_attr=weight_attr, bias_attr=bias_attr,
        modulated=mask is not None, name=name)


export(embedding, "paddle.static.nn.embedding")
export(sparse_embedding, "paddle.static.nn.sparse_embedding")
export(deform_conv2d, "paddle.static.nn.deform_conv2d")
partial("paddle.static.nn.sparse_embedding", "the table is a local parameter: parameter-server tables (entry, "
        "table_class, slot) are not used")
